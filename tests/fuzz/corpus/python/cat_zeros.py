import torch
import torch.nn.functional as F


def build_cu_seqlens(lens):
    cu = torch.cat([torch.zeros(1, dtype=torch.int32, device=lens.device),
                    torch.cumsum(lens, 0, dtype=torch.int32)])
    pad = torch.cat((torch.zeros(2, 4), lens.view(-1, 4), torch.zeros(2, 4)), 0)
    return cu, F.pad(pad, (0, 0))


@torch.inference_mode()
def logits_step(logits, temperature, bias):
    logits = logits / temperature
    out = logits + bias
    out = out.clamp(min=-1e4)
    return out
