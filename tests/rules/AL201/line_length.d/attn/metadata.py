# Fixes keep to the project's line length (ruff's `line-length = 72`):
# a line a fix writes longer than that is broken inside its brackets, as
# ruff formats it (a comment at its end stays on the statement's first
# line); a long line no fix touches stays as it was.
# golden-args: --select AL201,AL501
import torch
import torch.nn.functional as F


@torch.inference_mode()
def build_query_starts(forward_batch):
    cu_seqlens_q = F.pad(  # expect: AL201 safe
        torch.cumsum(forward_batch.extend_seq_lens, dim=0, dtype=torch.int32), (1, 0)
    )
    return cu_seqlens_q


def positions(num_tokens, device):
    pos = torch.arange(num_tokens, dtype=torch.int64).to(device)  # expect: AL501 safe
    return pos


def short(n, device):
    return torch.zeros(n).to(device)  # expect: AL501 safe


def already_long(num_tokens, hidden_size, device):  # a line of 78 characters
    return torch.zeros(num_tokens, hidden_size).cuda()  # expect: AL501 safe
