import torch
from aiter.ops.triton.pa_mqa_logits import deepgemm_fp8_paged_mqa_logits
from deep_ep import Buffer


class Combiner:
    def __init__(self, buffer: Buffer, hidden: int):
        self.buffer = buffer
        self.hidden = hidden

    def combine(self, x, topk_idx, topk_weights, handle):
        out = torch.zeros((topk_idx.shape[0], self.hidden), dtype=x.dtype, device=x.device)
        self.buffer.low_latency_combine(x, topk_idx, topk_weights, handle, out=out)
        return out


def logits(q, kv, w, lens, idx, max_len):
    out = torch.full((q.shape[0], max_len), float("-inf"), device=q.device)
    deepgemm_fp8_paged_mqa_logits(q, kv, w, out, lens, idx, max_len)
    return out
