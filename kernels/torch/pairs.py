"""Shared helpers for the PyTorch-level pairs: the rewrites AL201, AL203,
AL303 and AL401 make are PyTorch calls, so their evidence is PyTorch on
the GPU (its kernels, its caching allocator, its launch overhead), eager
and replayed from a CUDA graph as engines run them.

Fresh memory is poisoned before every rewritten form runs: a block of
0xFF bytes is allocated and freed first, so the caching allocator hands
that garbage to the next allocation of its size."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "triton"))

from common import Report, bench, require_gpu, rotation_sets  # noqa: E402,F401


def poison_pool(nbytes):
    import torch

    junk = torch.empty(max(nbytes, 512), dtype=torch.uint8, device="cuda")
    junk.fill_(0xFF)
    del junk


def bits(t):
    """The tensor's bytes, for bit-for-bit comparison (NaN == NaN here)."""
    import torch

    return t.contiguous().view(torch.uint8)


def same_bits(a, b):
    import torch

    return a.shape == b.shape and a.dtype == b.dtype and bool(torch.equal(bits(a), bits(b)))


def graphed(fn):
    """fn captured in a CUDA graph (after a warm-up on a side stream)."""
    import torch

    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    return g
