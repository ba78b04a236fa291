# Quantised KV-cache writes: scales come from custom ops.
import torch

from kvq.ops import quant  # noqa: F401  (registers the ops)
from kvq.ops.quant import expert_sums


def token_scales(x):
    scales = torch.zeros(x.shape[0], dtype=torch.float32, device=x.device)  # expect: AL101 safe
    torch.ops.kvq.token_scales(scales, x)
    return scales


def per_expert_sums(x, ids, num_experts):
    # expert_sums adds into `out` with atomics: the zeros are its start.
    out = torch.zeros(num_experts, dtype=x.dtype, device=x.device)  # expect: none
    torch.ops.kvq.expert_sums(out, x, ids)
    return out


def per_expert_sums_direct(x, ids, num_experts):
    out = torch.zeros(num_experts, dtype=x.dtype, device=x.device)  # expect: none
    expert_sums(out, x, ids)
    return out


def rms_scales(x):
    scales = torch.zeros(x.shape[0], dtype=torch.float32, device=x.device)  # expect: AL101 safe
    torch.ops._kvq_C.rms_scales(scales, x)
    return scales


def ragged_scales(lens):
    # Rows of length zero are skipped by the kernel.
    scales = torch.zeros(lens.shape[0], dtype=torch.float32, device=lens.device)  # expect: none
    torch.ops._kvq_C.ragged_scales(scales, lens)
    return scales
