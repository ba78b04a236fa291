# Triton kernels that build the paged-KV index tensors of a decode step.
import triton
import triton.language as tl


@triton.jit
def _copy_indices_kernel(out_ptr, src_ptr, n, BLOCK: tl.constexpr):
    # One block of `n` per program: every element of [0, n) is stored.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    vals = tl.load(src_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, vals, mask=mask)


@triton.jit
def _count_tokens_kernel(counts_ptr, expert_ids_ptr, n, BLOCK: tl.constexpr):
    # A histogram: adds into what the buffer holds.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    ids = tl.load(expert_ids_ptr + offs, mask=mask, other=0)
    tl.atomic_add(counts_ptr + ids, 1, mask=mask)


@triton.jit
def _fill_req_rows_kernel(out_ptr, seq_lens_ptr, src_ptr, stride, n_cols, BLOCK: tl.constexpr):
    # Requests with no tokens keep the row they had.
    row = tl.program_id(0)
    seq_len = tl.load(seq_lens_ptr + row)
    if seq_len == 0:
        return
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    vals = tl.load(src_ptr + row * stride + cols, mask=mask)
    tl.store(out_ptr + row * stride + cols, vals, mask=mask)


@triton.jit
def _scale_rows_kernel(out_ptr, x_ptr, scale, stride, n_cols, BLOCK: tl.constexpr):
    # One row per program, every column of it.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask)
    tl.store(out_ptr + row * stride + cols, x * scale, mask=mask)


def launch_copy(out, src, n):
    # A helper: covers [0, n) of `out`; its callers must make n its numel.
    grid = (triton.cdiv(n, 256),)
    _copy_indices_kernel[grid](out, src, n, BLOCK=256)


def copy_all(out, src):
    # Bounded by `out` itself: writes every element of it.
    n = out.numel()
    _copy_indices_kernel[(triton.cdiv(n, 256),)](out, src, n, BLOCK=256)


@triton.jit
def _bucket_kernel(
    keys_ptr,  # [n] int32: the bucket of each element
    counts_ptr,  # [num_buckets]: a histogram, added into
    out_ptr,  # [n]: a copy of the keys
    n,
    BLOCK: tl.constexpr,
):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    keys = tl.load(keys_ptr + offs, mask=mask, other=0)
    tl.atomic_add(counts_ptr + keys, 1, mask=mask)
    tl.store(out_ptr + offs, keys, mask=mask)
