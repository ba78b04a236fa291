# Aligning routed tokens to expert blocks before the grouped GEMM.
import torch

from moekern import align_block


def align(ids, num_experts, block):
    sorted_ids = torch.empty(ids.numel() + num_experts * block, dtype=torch.int32, device=ids.device)
    # Scratch the op clears itself or never touches: the zeros are wasted.
    offsets = torch.zeros(num_experts + 1, dtype=torch.int32, device=ids.device)  # expect: AL101 safe
    torch.ops._router_C.align_tokens(ids, sorted_ids, offsets, num_experts)
    return sorted_ids


def align_with_offsets(ids, num_experts, block):
    sorted_ids = torch.empty(ids.numel() + num_experts * block, dtype=torch.int32, device=ids.device)
    # Read after the op: on the small path nothing wrote it.
    offsets = torch.zeros(num_experts + 1, dtype=torch.int32, device=ids.device)  # expect: none
    torch.ops._router_C.align_tokens(ids, sorted_ids, offsets, num_experts)
    return sorted_ids, offsets[-1]


def align_keep(ids, num_experts, block, reset):
    sorted_ids = torch.empty(ids.numel() + num_experts * block, dtype=torch.int32, device=ids.device)
    offsets = torch.zeros(num_experts + 1, dtype=torch.int32, device=ids.device)  # expect: none
    torch.ops._router_C.align_tokens_keep(ids, sorted_ids, offsets, reset)
    return sorted_ids


def align_early(ids, num_experts, block):
    sorted_ids = torch.empty(ids.numel() + num_experts * block, dtype=torch.int32, device=ids.device)
    offsets = torch.zeros(num_experts + 1, dtype=torch.int32, device=ids.device)  # expect: none
    torch.ops._router_C.align_tokens_early(ids, sorted_ids, offsets)
    return sorted_ids


def align_switch(ids, num_experts, block, mode):
    sorted_ids = torch.empty(ids.numel() + num_experts * block, dtype=torch.int32, device=ids.device)
    offsets = torch.zeros(num_experts + 1, dtype=torch.int32, device=ids.device)  # expect: none
    torch.ops._router_C.align_tokens_switch(ids, sorted_ids, offsets, mode)
    return sorted_ids


def align_packaged(ids, num_experts, block):
    sorted_ids = torch.empty(ids.numel() + num_experts * block, dtype=torch.int32, device=ids.device)
    # The same op from the kernels package, which is built and installed
    # apart: what its source proves may not be what is installed.
    offsets = torch.zeros(num_experts + 1, dtype=torch.int32, device=ids.device)  # expect: AL101 unsafe
    align_block(ids, sorted_ids, offsets, num_experts)
    return sorted_ids
