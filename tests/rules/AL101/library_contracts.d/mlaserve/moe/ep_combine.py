# Expert-parallel combine through DeepEP's low-latency buffer: the combine
# writes one reduced row per token of topk_idx into `out`.
from typing import Optional

import torch
from deep_ep import Buffer


class LowLatencyCombiner:
    def __init__(self, buffer: Buffer, hidden: int):
        self.buffer = buffer
        self.hidden = hidden

    def combine(self, expert_out, topk_idx, topk_weights, handle):
        out = torch.zeros((topk_idx.shape[0], self.hidden), dtype=torch.bfloat16,  # expect: AL101 unsafe
                          device=expert_out.device)
        self.buffer.low_latency_combine(expert_out, topk_idx, topk_weights, handle, out=out)
        return out

    def combine_padded(self, expert_out, topk_idx, topk_weights, handle, max_tokens):
        # A graph-sized output: rows past the batch's tokens keep the zeros.
        out = torch.zeros((max_tokens, self.hidden), dtype=torch.bfloat16,  # expect: none
                          device=expert_out.device)
        self.buffer.low_latency_combine(expert_out, topk_idx, topk_weights, handle, out=out)
        return out


class OwnedBufferCombiner:
    def __init__(self, group, num_rdma_bytes):
        self.ll_buffer = Buffer(group, 0, num_rdma_bytes, low_latency_mode=True)

    def combine(self, expert_out, topk_idx, topk_weights, handle, hidden):
        out = torch.zeros(topk_idx.shape[0], hidden, dtype=torch.bfloat16,  # expect: AL101 unsafe
                          device=expert_out.device)
        self.ll_buffer.low_latency_combine(expert_out, topk_idx, topk_weights, handle, out=out)
        return out


class EitherCombiner:
    # The attribute holds a DeepEP buffer or another backend's: not known.
    def __init__(self, buffer: Buffer, fallback, use_fallback: bool):
        self.comm = fallback if use_fallback else buffer

    def combine(self, expert_out, topk_idx, topk_weights, handle, hidden):
        out = torch.zeros(topk_idx.shape[0], hidden, dtype=torch.bfloat16,  # expect: none
                          device=expert_out.device)
        self.comm.low_latency_combine(expert_out, topk_idx, topk_weights, handle, out=out)
        return out


class OptionalBufferCombiner:
    def __init__(self, buffer: Optional[Buffer] = None):
        self.buffer = buffer

    def combine(self, expert_out, topk_idx, topk_weights, handle, hidden):
        out = torch.zeros(topk_idx.shape[0], hidden, dtype=torch.bfloat16,  # expect: AL101 unsafe
                          device=expert_out.device)
        self.buffer.low_latency_combine(expert_out, topk_idx, topk_weights, handle, out=out)
        return out
