"""Tiled GEMM and scaling kernels: each program stores one tile of C."""
import triton
import triton.language as tl


@triton.jit
def gemm_2d_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                   stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    c_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=c_mask)


@triton.jit
def gemm_split_k_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                        SPLIT_K: tl.constexpr):
    # One axis walks the tiles row by row; the second picks the K slice.
    pid = tl.program_id(axis=0)
    pid_z = tl.program_id(1)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = pid_z * BLOCK_K + tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        a = tl.load(a_ptr + offs_m[:, None] * K + offs_k[None, :],
                    mask=(offs_m[:, None] < M) & (offs_k[None, :] < K), other=0.0)
        b = tl.load(b_ptr + offs_k[:, None] * N + offs_n[None, :],
                    mask=(offs_k[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        offs_k += BLOCK_K * SPLIT_K
    c_ptrs = c_ptr + pid_z * N * M + N * offs_m[:, None] + offs_n[None, :]
    c_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c_ptrs, acc, mask=c_mask)


@triton.jit
def gemm_grouped_kernel(a_ptr, c_ptr, M, N, stride_cm,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr):
    # Grouped ordering for L2 reuse: a bijection, but not one alloclint reads.
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.load(a_ptr + offs_m[:, None] * stride_cm + offs_n[None, :],
                  mask=(offs_m[:, None] < M) & (offs_n[None, :] < N), other=0.0)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc * 2,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def split_by_rows_kernel(x_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Divides by the row count's tiles: the remainder is not a column tile.
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    pid_m = pid // num_pid_m
    pid_n = pid % num_pid_m
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    x = tl.load(x_ptr + offs_m[:, None] * N + offs_n[None, :], mask=mask)
    tl.store(out_ptr + offs_m[:, None] * N + offs_n[None, :], x, mask=mask)


@triton.jit
def row_tiles_kernel(x_ptr, out_ptr, scale_ptr, N, stride_x, stride_out, BLOCK_N: tl.constexpr):
    # One row per program on axis 0, one column tile per program on axis 1.
    row = tl.program_id(0)
    col = tl.program_id(1)
    cols = col * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask)
    s = tl.load(scale_ptr + row)
    tl.store(out_ptr + row * stride_out + cols, x * s, mask=mask)


@triton.jit
def band_kernel(x_ptr, out_ptr, M, N, lo, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Columns below `lo` are left to no one.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N) & (offs_n[None, :] >= lo)
    x = tl.load(x_ptr + offs_m[:, None] * N + offs_n[None, :], mask=mask)
    tl.store(out_ptr + offs_m[:, None] * N + offs_n[None, :], x, mask=mask)


@triton.jit
def tiles_in_loop_kernel(x_ptr, out_ptr, M, N, n_iters, BLOCK_M: tl.constexpr,
                         BLOCK_N: tl.constexpr):
    # The store sits in a loop that may run no iteration.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    for _ in range(0, n_iters):
        x = tl.load(x_ptr + offs_m[:, None] * N + offs_n[None, :], mask=mask)
        tl.store(out_ptr + offs_m[:, None] * N + offs_n[None, :], x + 1, mask=mask)


@triton.jit
def copy_2d_kernel(x_ptr, out_ptr, M, N, stride_xm, stride_om, stride_on,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    row_ok = rows < M
    col_ok = cols < N
    x = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :],
                mask=row_ok[:, None] & col_ok[None, :])
    tl.store(out_ptr + rows[:, None] * stride_om + cols[None, :] * stride_on, x,
             mask=row_ok[:, None] & col_ok[None, :])


@triton.jit
def scale_block_kernel(x_ptr, out_ptr, M, N, stride_xm, stride_om, alpha,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    x_block = tl.make_block_ptr(x_ptr, (M, N), (stride_xm, 1), (pid_m * BLOCK_M, pid_n * BLOCK_N),
                                (BLOCK_M, BLOCK_N), (1, 0))
    o_block = tl.make_block_ptr(base=out_ptr, shape=(M, N), strides=(stride_om, 1),
                                offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N),
                                block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    x = tl.load(x_block, boundary_check=(0, 1))
    tl.store(o_block, x * alpha, boundary_check=(0, 1))


@triton.jit
def first_columns_block_kernel(x_ptr, out_ptr, M, N, stride_xm, stride_om,
                               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Every row tile, but only the first BLOCK_N columns.
    pid_m = tl.program_id(0)
    x_block = tl.make_block_ptr(x_ptr, (M, N), (stride_xm, 1), (pid_m * BLOCK_M, 0),
                                (BLOCK_M, BLOCK_N), (1, 0))
    o_block = tl.make_block_ptr(out_ptr, (M, N), (stride_om, 1), (pid_m * BLOCK_M, 0),
                                (BLOCK_M, BLOCK_N), (1, 0))
    tl.store(o_block, tl.load(x_block, boundary_check=(0, 1)), boundary_check=(0, 1))


@triton.jit
def grouped_rows_of_n_kernel(a_ptr, c_ptr, M, N, stride_cm,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr):
    # The grouped order with the row tiles counted from N: rows past N's
    # tile count are never reached.
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(N, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.load(a_ptr + offs_m[:, None] * stride_cm + offs_n[None, :],
                  mask=(offs_m[:, None] < M) & (offs_n[None, :] < N), other=0.0)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc * 2,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def per_element_kernel(x_ptr, out_ptr, stride_xm, stride_om):
    # One program per element on a grid of the buffer's shape, no mask.
    i = tl.program_id(0)
    j = tl.program_id(1)
    tl.store(out_ptr + i * stride_om + j, tl.load(x_ptr + i * stride_xm + j) + 1.0)


@triton.jit
def per_element_3d_kernel(x_ptr, out_ptr, s0, s1, o0, o1):
    i = tl.program_id(0)
    j = tl.program_id(1)
    k = tl.program_id(2)
    v = tl.load(x_ptr + i * s0 + j * s1 + k)
    tl.store(out_ptr + i * o0 + j * o1 + k, v * 2.0)
