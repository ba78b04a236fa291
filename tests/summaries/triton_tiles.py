"""Tile kernels: what each proves about its output, and why not."""
import triton
import triton.language as tl


@triton.jit
def transpose_tiles(x_ptr, y_ptr, R, C, stride_xr, stride_yc, BR: tl.constexpr, BC: tl.constexpr):
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    c = tl.program_id(1) * BC + tl.arange(0, BC)
    v = tl.load(x_ptr + r[:, None] * stride_xr + c[None, :], mask=(r[:, None] < R) & (c[None, :] < C))
    tl.store(y_ptr + c[None, :] * stride_yc + r[:, None], v, mask=(r[:, None] < R) & (c[None, :] < C))


@triton.jit
def heads_by_tiles(x_ptr, out_ptr, T, D, stride_h, stride_t, BT: tl.constexpr, BD: tl.constexpr):
    # axis 0 enumerates (token tile, dim tile) row by row; axis 1 the head
    pid = tl.program_id(0)
    head = tl.program_id(1)
    n_d = (D + BD - 1) // BD
    t = (pid // n_d) * BT + tl.arange(0, BT)
    d = (pid % n_d) * BD + tl.arange(0, BD)
    ok = (t[:, None] < T) & (d[None, :] < D)
    v = tl.load(x_ptr + head * stride_h + t[:, None] * stride_t + d[None, :], mask=ok)
    tl.store(out_ptr + head * stride_h + t[:, None] * stride_t + d[None, :], v, mask=ok)


@triton.jit
def constant_tiles(out_ptr, M, N):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    m = pid_m * 32 + tl.arange(0, 32)
    n = pid_n * 16 + tl.arange(0, 16)
    tl.store(out_ptr + m[:, None] * N + n[None, :], 0.0, mask=(m[:, None] < M) & (n[None, :] < N))


@triton.jit
def block_pointer_tiles(out_ptr, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    p = tl.make_block_ptr(out_ptr, (M, N), (stride_m, 1), (tl.program_id(0) * BM, tl.program_id(1) * BN),
                          (BM, BN), (1, 0))
    tl.store(p, tl.zeros((BM, BN), dtype=tl.float32), boundary_check=(0, 1))


@triton.jit
def same_axis_twice(out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # both dimensions from program id 0: a diagonal of tiles
    m = tl.program_id(0) * BM + tl.arange(0, BM)
    n = tl.program_id(0) * BN + tl.arange(0, BN)
    tl.store(out_ptr + m[:, None] * N + n[None, :], 1.0, mask=(m[:, None] < M) & (n[None, :] < N))


@triton.jit
def rows_added_not_crossed(out_ptr, M, N, BM: tl.constexpr):
    # two row aranges added: one index per lane pair, not a grid
    a = tl.program_id(0) * BM + tl.arange(0, BM)
    b = tl.program_id(1) * BM + tl.arange(0, BM)
    tl.store(out_ptr + a[:, None] * N + b[:, None], 1.0, mask=(a[:, None] < M) & (b[:, None] < N))


@triton.jit
def quotient_without_remainder(out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    m = (pid // tl.cdiv(N, BN)) * BM + tl.arange(0, BM)
    n = tl.program_id(1) * BN + tl.arange(0, BN)
    tl.store(out_ptr + m[:, None] * N + n[None, :], 1.0, mask=(m[:, None] < M) & (n[None, :] < N))


@triton.jit
def block_pointer_fixed_column(out_ptr, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    p = tl.make_block_ptr(out_ptr, (M, N), (stride_m, 1), (tl.program_id(0) * BM, 0), (BM, BN), (1, 0))
    tl.store(p, tl.zeros((BM, BN), dtype=tl.float32), boundary_check=(0, 1))


@triton.jit
def grouped_tiles(out_ptr, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr, G: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    num_pid_in_group = G * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * G
    group_size_m = min(num_pid_m - first_pid_m, G)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    m = pid_m * BM + tl.arange(0, BM)
    n = pid_n * BN + tl.arange(0, BN)
    tl.store(out_ptr + m[:, None] * stride_m + n[None, :], 1.0, mask=(m[:, None] < M) & (n[None, :] < N))


@triton.jit
def grouped_operators_swapped(out_ptr, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr, G: tl.constexpr):
    # pid_m takes the quotient and pid_n the remainder: not the grouped order
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    num_pid_in_group = G * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * G
    group_size_m = min(num_pid_m - first_pid_m, G)
    pid_m = first_pid_m + ((pid % num_pid_in_group) // group_size_m)
    pid_n = (pid % num_pid_in_group) % group_size_m
    m = pid_m * BM + tl.arange(0, BM)
    n = pid_n * BN + tl.arange(0, BN)
    tl.store(out_ptr + m[:, None] * stride_m + n[None, :], 1.0, mask=(m[:, None] < M) & (n[None, :] < N))
