# golden-args: --select AL101,AL103
# A fix of one pass may stand on text a fix of an earlier pass wrote: the
# chain is kept only through proved fixes.
import torch
import triton
import triton.language as tl


@triton.jit
def _fill_rows_kernel(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, 1.0, mask=offs < n)


def valid_prefix(x, n_valid):
    # Merged into zeros_like; the kernel's bound `n_valid` is not the
    # buffer's size, so AL101 could only guess that the zeros are wasted:
    # with --unsafe-fixes the merge is withheld, never chained into
    # `empty_like` (the fill would vanish unreported).
    out = torch.empty_like(x)
    out.fill_(0)  # expect: AL103 safe
    _fill_rows_kernel[(triton.cdiv(n_valid, 128),)](out, n_valid, BLOCK=128)
    return out


def valid_prefix_chained(x, n_valid):
    out = torch.empty_like(x).fill_(0)  # expect: AL103 safe
    _fill_rows_kernel[(triton.cdiv(n_valid, 128),)](out, n_valid, BLOCK=128)
    return out


def whole(x):
    # The kernel covers the buffer: the merged zeros are proved wasted, and
    # the chain goes on to `empty_like` (each link proved).
    out = torch.empty_like(x)
    out.fill_(0)  # expect: AL103 safe
    n = out.numel()
    _fill_rows_kernel[(triton.cdiv(n, 128),)](out, n, BLOCK=128)
    return out
