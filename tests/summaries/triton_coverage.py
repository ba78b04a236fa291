# Triton kernels, one per coverage pattern the summaries tell apart.
import triton
import triton.language as tl


@triton.jit
def block_per_program(out_ptr, x_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


@triton.jit
def block_loop(out_ptr, n, value, BLOCK: tl.constexpr):
    # One program walks every block of [0, n).
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.full((BLOCK,), value, tl.float32), mask=offs < n)


@triton.jit
def row_per_program(out_ptr, x_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask)
    tl.store(out_ptr + row * stride + cols, x - tl.max(x, axis=0), mask=mask)


@triton.jit
def histogram(counts_ptr, ids_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    ids = tl.load(ids_ptr + offs, mask=mask, other=0)
    tl.atomic_add(counts_ptr + ids, 1, mask=mask)


@triton.jit
def load_add_store(acc_ptr, x_ptr, n, BLOCK: tl.constexpr):
    # Adds into what the buffer holds: its zeros are the start.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    acc = tl.load(acc_ptr + offs, mask=mask)
    tl.store(acc_ptr + offs, acc + tl.load(x_ptr + offs, mask=mask), mask=mask)


@triton.jit
def skips_empty_rows(out_ptr, lens_ptr, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    n = tl.load(lens_ptr + row)
    if n == 0:
        return
    cols = tl.arange(0, BLOCK)
    tl.store(out_ptr + row * stride + cols, tl.zeros((BLOCK,), tl.float32), mask=cols < n)


@triton.jit
def writes_after_offset(out_ptr, x_ptr, n, BLOCK: tl.constexpr):
    # Element 0 is left to the caller.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + 1 + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


@triton.jit
def window(out_ptr, start, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = (offs >= start) & (offs < n)
    tl.store(out_ptr + offs, tl.zeros((BLOCK,), tl.float32), mask=mask)


@triton.jit
def block_pointer(out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    p = tl.make_block_ptr(out_ptr, shape=(M, N), strides=(N, 1), offsets=(pid * BLOCK_M, 0),
                          block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    tl.store(p, tl.zeros((BLOCK_M, BLOCK_N), tl.float32), boundary_check=(0, 1))
