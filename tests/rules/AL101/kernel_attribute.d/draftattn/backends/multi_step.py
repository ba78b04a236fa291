# A multi-step draft backend: the kernel is kept on the instance, and the
# buffer goes through a method of the same class before the launch. The
# constructor's own allocations are attributes, no buffer of AL101's, so
# a partial parse leaves it out; the proof needs it back (what
# `self.draft_index` is), and what it proved of `launch_rows` without it
# must not stand.
import torch
import triton

from ..kernels.draft_index import _draft_index_kernel


class MultiStepDraftBackend:
    def __init__(self, max_tokens, device):
        self.max_tokens = max_tokens
        self.kv_indptr = torch.zeros(max_tokens + 1, dtype=torch.int32, device=device)
        self.draft_index = _draft_index_kernel

    def launch_rows(self, src, rows):
        n = rows.numel()
        self.draft_index[(triton.cdiv(n, 256),)](rows, src, n, BLOCK=256)

    def prepare(self, src):
        rows = torch.zeros_like(src)  # expect: AL101 unsafe
        self.launch_rows(src, rows)
        return rows

    def prepare_reading_first(self, src):
        rows = torch.zeros_like(src)  # expect: none
        rows[0] += 1
        self.launch_rows(src, rows)
        return rows
