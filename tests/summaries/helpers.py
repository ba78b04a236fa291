# Python helpers, one per effect a caller's buffer can meet.
import torch
import triton

from triton_coverage import block_per_program


def copies_into(out, src):
    out.copy_(src)


def fills_when(out, flag, value):
    if flag:
        out.fill_(value)


def returns_early(out, src):
    if src.numel() == 0:
        return
    out.copy_(src)


def raises_early(out, src):
    if src.dim() != 2:
        raise ValueError("expected a matrix")
    out.copy_(src)


def accumulates(out, src):
    out.add_(src)


def reads_first(out, src):
    scale = out.abs().max()
    out.copy_(src / scale)


def rows_of(x, cols):
    return x.view(-1, cols)


def prefix_of(x, n):
    return x[:n]


def launches(out, src, n):
    block_per_program[(triton.cdiv(n, 128),)](out, src, n, BLOCK=128)


def launches_whole(out, src):
    n = out.numel()
    block_per_program[(triton.cdiv(n, 128),)](out, src, n, BLOCK=128)


def ping(out, depth):
    if depth:
        pong(out, depth - 1)


def pong(out, depth):
    ping(out, depth)


def keeps(out, cache):
    cache.append(out)


def hands_to_torch(out, src):
    torch.cumsum(src, 0, out=out[1:])
