import torch
import triton

from moeattn.kernels.routing import (
    _compact_kernel,
    _expert_hit_kernel,
    _fill_bounded_kernel,
    _merge_indices_kernel,
    _skip_empty_kernel,
    _solve_tril_kernel,
    _valid_slots_kernel,
)


def expert_hits(topk_ids):
    n = topk_ids.numel()
    grid = triton.cdiv(n, 256)
    hit = torch.zeros(grid, dtype=torch.int32, device=topk_ids.device)  # expect: none
    _expert_hit_kernel[(grid,)](hit, topk_ids, n, BLOCK=256)
    return hit


def valid_slots(slot_mapping):
    n = slot_mapping.numel()
    out = torch.zeros_like(slot_mapping)  # expect: none
    _valid_slots_kernel[(triton.cdiv(n, 256),)](out, slot_mapping, n, BLOCK=256)
    return out


def row_masks(seq_lens, width):
    out = torch.zeros(seq_lens.shape[0], width, device=seq_lens.device)  # expect: none
    _skip_empty_kernel[(seq_lens.shape[0],)](out, seq_lens, width, BLOCK=triton.next_power_of_2(width))
    return out


def compact_tokens(src, dst_offsets, counts, capacity):
    # Sized to an upper bound: the tail past the last append keeps its zeros.
    out = torch.zeros(capacity, dtype=src.dtype, device=src.device)  # expect: none
    _compact_kernel[(counts.numel(),)](out, src, dst_offsets, counts, BLOCK=128)
    return out


def solve_tril(A, T):
    # Only the lower-triangular tiles are stored; the next kernel loads all.
    Ai = torch.zeros(T, T, dtype=A.dtype, device=A.device)  # expect: none
    nt = triton.cdiv(T, 64)
    _solve_tril_kernel[(nt, nt)](A, Ai, T, BT=64)
    return Ai


def routed_gemm(a, b, num_tokens, topk):
    # `Tensor!` is mutable, not written: the GEMM multiplies by the weights.
    topk_weights = torch.ones(num_tokens, topk, dtype=torch.float32, device=a.device)  # expect: none
    c = torch.empty(num_tokens, b.shape[0], dtype=a.dtype, device=a.device)
    torch.ops._moe_C.grouped_gemm(c, a, b, topk_weights)
    return c


def bounded_fill(x, n):
    # The bound `n` cannot be related to the buffer's size: likely wasted.
    out = torch.zeros_like(x)  # expect: AL101 unsafe
    _fill_bounded_kernel[(triton.cdiv(n, 256),)](out, n, BLOCK=256)
    return out


def merged_indices(topk_ids, lens, width):
    # -1 marks the unused slots past each row's entries.
    out = torch.full((topk_ids.shape[0], width), -1, dtype=torch.int32, device=topk_ids.device)  # expect: none
    _merge_indices_kernel[(topk_ids.shape[0],)](out, topk_ids, lens, width, BLOCK=triton.next_power_of_2(width))
    return out
