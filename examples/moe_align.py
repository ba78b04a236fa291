"""Routing preprocessing for a fused mixture-of-experts layer.

Sorts token-expert assignments by expert and pads each expert's group to a
multiple of the GEMM block size, the layout grouped-GEMM kernels expect.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _count_kernel(topk_ids_ptr, counts_ptr, numel, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < numel
    expert = tl.load(topk_ids_ptr + offs, mask=mask, other=0)
    tl.atomic_add(counts_ptr + expert, 1, mask=mask)


@triton.jit
def _scatter_kernel(topk_ids_ptr, order_ptr, sorted_ptr, numel, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < numel
    src = tl.load(order_ptr + offs, mask=mask)
    tl.store(sorted_ptr + offs, tl.load(topk_ids_ptr + src, mask=mask), mask=mask)


def moe_align_block_size(topk_ids: torch.Tensor, num_experts: int, block_size: int):
    numel = topk_ids.numel()
    grid = (triton.cdiv(numel, 256),)

    # Accumulated with atomics: the zeros are the starting counts.
    counts = torch.zeros(num_experts, dtype=torch.int32, device=topk_ids.device)
    _count_kernel[grid](topk_ids, counts, numel, BLOCK=256)

    padded_counts = (counts + block_size - 1) // block_size * block_size
    # Prefix sums with a leading zero, written in full by cumsum.
    expert_offsets = torch.zeros(num_experts + 1, dtype=torch.int32, device=topk_ids.device)
    expert_offsets[0] = 0
    torch.cumsum(padded_counts, dim=0, out=expert_offsets[1:])

    # Filled with a sentinel for the padding slots: the fill is the point.
    max_padded = numel + num_experts * (block_size - 1)
    sorted_ids = torch.full((max_padded,), numel, dtype=torch.int32, device=topk_ids.device)

    order = torch.argsort(topk_ids.flatten(), stable=True)
    # Written by the scatter kernel only: alloclint cannot see that every
    # element is stored, so the rewrite is offered as unsafe.
    sorted_experts = torch.zeros(numel, dtype=topk_ids.dtype, device=topk_ids.device)
    _scatter_kernel[grid](topk_ids.flatten(), order, sorted_experts, numel, BLOCK=256)

    # Token positions in expert order, overwritten whole by index_select.
    token_pos = torch.zeros(numel, dtype=torch.int64, device=topk_ids.device)
    torch.index_select(torch.arange(numel, device=topk_ids.device), 0, order, out=token_pos)

    return sorted_ids, sorted_experts, token_pos, expert_offsets
