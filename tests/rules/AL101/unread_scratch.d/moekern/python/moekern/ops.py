import torch


def align_block(ids, sorted_ids, offsets, num_experts):
    torch.ops.moekern.align_block.default(ids, sorted_ids, offsets, num_experts)
