"""Batch preparation for a prefill step: sequence offsets, padded token
ids, a rotary cache and a small Triton kernel for attention scores."""

import torch
import triton
import triton.language as tl


def build_cu_seqlens(seq_lens: torch.Tensor) -> torch.Tensor:
    # A prefix sum with a leading zero: written straight into n + 1 slots.
    cu_seqlens = torch.cat([torch.zeros(1, dtype=torch.int32, device=seq_lens.device), torch.cumsum(seq_lens, 0, dtype=torch.int32)])
    return cu_seqlens


def pad_token_ids(batch: list, pad_id: int, device: torch.device) -> torch.Tensor:
    max_len = max(len(seq) for seq in batch)
    # One fill is enough: torch.full.
    ids = torch.empty((len(batch), max_len), dtype=torch.int64, device=device)
    ids.fill_(pad_id)
    for i, seq in enumerate(batch):
        ids[i, : len(seq)] = torch.as_tensor(seq, device=device)
    return ids


def rotary_cache(max_pos: int, dim: int, base: float, device: torch.device) -> torch.Tensor:
    # Built on the host and then copied: build it on the device.
    positions = torch.arange(max_pos, dtype=torch.float32).to(device)
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float32, device=device) / dim))
    freqs = torch.outer(positions, inv_freq)
    return torch.cat([freqs.cos(), freqs.sin()], dim=-1)


def gather_prompt_logprobs(chunks) -> torch.Tensor:
    # Grows by concatenation on every chunk: quadratic copying.
    logprobs = torch.empty(0, dtype=torch.float32)
    for chunk in chunks:
        logprobs = torch.cat([logprobs, chunk.logprobs], dim=0)
    return logprobs


@triton.jit
def _scores_kernel(q_ptr, k_ptr, s_ptr, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * D + rd[None, :])
    k = tl.load(k_ptr + rd[:, None] * BN + rn[None, :])
    # A zero accumulator with a single dot added to it.
    s = tl.zeros([BM, BN], dtype=tl.float32)
    s += tl.dot(q, k)
    tl.store(s_ptr + rm[:, None] * BN + rn[None, :], s)
