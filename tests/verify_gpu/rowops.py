# Row-wise ops of a decode step, written as an inference engine writes
# them: a scaled copy whose rows a kernel covers column block by column
# block, and a per-token index copy. alloclint proposes a hoist inside the
# first kernel (AL302) and an `empty` for the index buffer (AL101).
import torch
import triton
import triton.language as tl


@triton.jit
def _scale_rows_kernel(out_ptr, x_ptr, scale_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    s = tl.load(scale_ptr + row)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols)
        tl.store(out_ptr + row * n_cols + cols, x * s, mask=cols < n_cols)


@triton.jit
def _copy_ids_kernel(out_ptr, ids_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(ids_ptr + offs, mask=offs < n), mask=offs < n)


def scale_rows(x, scale):
    out = torch.empty_like(x)
    _scale_rows_kernel[(x.shape[0],)](out, x, scale, x.shape[1], BLOCK=128)
    return out


def copy_ids(ids):
    n = ids.numel()
    out = torch.zeros(n, dtype=ids.dtype, device=ids.device)
    _copy_ids_kernel[(triton.cdiv(n, 256),)](out, ids, n, BLOCK=256)
    return out
