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


# The data decides what is written: the fill is the default the data
# leaves (skips), never a wasted one.
@triton.jit
def any_hit_flag(flags_ptr, hits_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    hit = tl.load(hits_ptr + offs, mask=offs < n, other=0)
    tl.store(flags_ptr + pid, 1, mask=tl.sum(hit) > 0)


@triton.jit
def valid_ids_only(out_ptr, ids_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ids = tl.load(ids_ptr + offs, mask=offs < n, other=-1)
    keep = (offs < n) & (ids > -1)
    tl.store(out_ptr + offs, ids, mask=keep)


@triton.jit
def compact_rows(out_ptr, src_ptr, dst_ptr, count_ptr, BLOCK: tl.constexpr):
    # Each program appends its count of rows at a loaded position: the
    # buffer is sized to an upper bound, its tail keeps the fill.
    pid = tl.program_id(0)
    dst = tl.load(dst_ptr + pid)
    cnt = tl.load(count_ptr + pid)
    offs = tl.arange(0, BLOCK)
    v = tl.load(src_ptr + pid * BLOCK + offs, mask=offs < cnt)
    tl.store(out_ptr + dst + offs, v, mask=offs < BLOCK)


# Tiles chosen by comparing program ids: some tiles belong to no program.
@triton.jit
def lower_tiles_exit(out_ptr, T, BT: tl.constexpr):
    i_t = tl.program_id(0)
    i_s = tl.program_id(1)
    if i_t < i_s:
        return
    p = tl.make_block_ptr(out_ptr, (T, T), (T, 1), (i_t * BT, i_s * BT), (BT, BT), (1, 0))
    tl.store(p, tl.zeros((BT, BT), tl.float32), boundary_check=(0, 1))


@triton.jit
def lower_tiles_loop(out_ptr, T, BT: tl.constexpr):
    i_t = tl.program_id(0)
    for i_s in range(0, i_t + 1):
        p = tl.make_block_ptr(out_ptr, (T, T), (T, 1), (i_t * BT, i_s * BT), (BT, BT), (1, 0))
        tl.store(p, tl.zeros((BT, BT), tl.float32), boundary_check=(0, 1))


@triton.jit
def guarded_grid(out_ptr, n_rows, n, BLOCK: tl.constexpr):
    # A guard against the bound trims an over-sized grid: still writes-some.
    row = tl.program_id(0)
    if row >= n_rows:
        return
    cols = tl.arange(0, BLOCK)
    tl.store(out_ptr + row * n + cols, tl.zeros((BLOCK,), tl.float32), mask=cols < n)


@triton.jit
def two_segments(out_ptr, lens_ptr, width, BLOCK: tl.constexpr):
    # Two stores, the second as long as a loaded length: the slots past
    # both keep the fill (a -1 sentinel).
    row = tl.program_id(0)
    n_a = tl.load(lens_ptr + 2 * row)
    n_b = tl.load(lens_ptr + 2 * row + 1)
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + row * width + offs, offs, mask=offs < n_a)
    tl.store(out_ptr + row * width + n_a + offs, offs, mask=offs < n_b)


@triton.jit
def scatter_scales(out_ptr, ids_ptr, n, IS_FP8: tl.constexpr, BLOCK: tl.constexpr):
    # The innermost branch is on a constexpr; the one around it on loaded
    # ids: the data chooses what is written.
    pid = tl.program_id(0)
    expert = tl.load(ids_ptr + pid)
    if expert >= 0:
        if IS_FP8:
            offs = tl.arange(0, BLOCK)
            tl.store(out_ptr + pid * BLOCK + offs, 1.0, mask=offs < n)


@triton.jit
def expert_blocks(out_ptr, cumsum_ptr, block_size):
    # Each program marks the blocks of one expert, from a loaded start to
    # a loaded end: the blocks past the last expert keep the fill.
    pid = tl.program_id(0)
    start = tl.load(cumsum_ptr + pid)
    end = tl.load(cumsum_ptr + pid + 1)
    for i in range(start, end, block_size):
        tl.store(out_ptr + i // block_size, pid)


@triton.jit
def expert_blocks_then_tokens(ids_ptr, tokens_ptr, cumsum_ptr, block_size, per_program):
    # As expert_blocks, and then the name `start` is bound again for the
    # program's own tokens: the loop reads the loaded one, bound before it.
    pid = tl.program_id(0)
    start = tl.load(cumsum_ptr + pid)
    end = tl.load(cumsum_ptr + pid + 1)
    for i in range(start, end, block_size):
        tl.store(ids_ptr + i // block_size, pid)
    start = pid * per_program
    for j in range(start, start + per_program):
        tl.store(tokens_ptr + j, pid)
