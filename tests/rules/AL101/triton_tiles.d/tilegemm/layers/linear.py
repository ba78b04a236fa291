"""Launch wrappers for the tile kernels, as a quantised linear layer uses them."""
import torch
import triton

from tilegemm.kernels.gemm import (
    band_kernel,
    copy_2d_kernel,
    first_columns_block_kernel,
    grouped_rows_of_n_kernel,
    scale_block_kernel,
    gemm_2d_kernel,
    gemm_grouped_kernel,
    gemm_split_k_kernel,
    per_element_3d_kernel,
    per_element_kernel,
    row_tiles_kernel,
    split_by_rows_kernel,
    tiles_in_loop_kernel,
)


def gemm(a, b):
    M, K = a.shape
    N = b.shape[1]
    c = torch.zeros((M, N), dtype=a.dtype, device=a.device)  # expect: AL101 safe
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
    gemm_2d_kernel[grid](a, b, c, M, N, K,
                         a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                         c.stride(0), c.stride(1),
                         BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
    return c


def gemm_split_k(a, b, split_k, block_m=32, block_n=32):
    M, K = a.shape
    N = b.shape[1]
    grid = lambda META: (
        triton.cdiv(M, META["BLOCK_M"]) * triton.cdiv(N, META["BLOCK_N"]),
        split_k,
    )
    partial = torch.zeros((split_k, M, N), dtype=torch.float32, device=a.device)  # expect: AL101 safe
    gemm_split_k_kernel[grid](a, b, partial, M, N, K,
                              BLOCK_M=block_m, BLOCK_N=block_n, BLOCK_K=32, SPLIT_K=split_k)
    return partial.sum(0)


def scale_rows(x, scale):
    n_rows, N = x.shape
    out = torch.zeros(n_rows, N, dtype=x.dtype, device=x.device)  # expect: AL101 safe
    row_tiles_kernel[(n_rows, triton.cdiv(N, 256))](x, out, scale, N, x.stride(0), out.stride(0),
                                                    BLOCK_N=256)
    return out


def scale_rows_like(x, scale):
    n_rows, N = x.shape
    # zeros_like keeps x's strides: a transposed x makes `out` column-major,
    # and a row stride of out.stride(0) beside columns one apart misses most of it.
    out = torch.zeros_like(x)  # expect: AL101 unsafe
    row_tiles_kernel[(n_rows, triton.cdiv(N, 256))](x, out, scale, N, x.stride(0), out.stride(0),
                                                    BLOCK_N=256)
    return out


def gemm_missing_axis(a, b):
    M, K = a.shape
    N = b.shape[1]
    # Only the row tiles are launched: the columns past the first tile keep the fill.
    c = torch.zeros((M, N), dtype=a.dtype, device=a.device)  # expect: AL101 unsafe
    gemm_2d_kernel[(triton.cdiv(M, 64),)](a, b, c, M, N, K,
                                         a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                         c.stride(0), c.stride(1),
                                         BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
    return c


def gemm_axes_swapped(a, b):
    M, K = a.shape
    N = b.shape[1]
    c = torch.zeros((M, N), dtype=a.dtype, device=a.device)  # expect: AL101 unsafe
    grid = (triton.cdiv(N, 64), triton.cdiv(M, 64))
    gemm_2d_kernel[grid](a, b, c, M, N, K,
                         a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                         c.stride(0), c.stride(1),
                         BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
    return c


def gemm_into_taller(a, b):
    M, K = a.shape
    N = b.shape[1]
    # Room for two results: the second M rows keep the fill.
    c = torch.zeros((2 * M, N), dtype=a.dtype, device=a.device)  # expect: AL101 unsafe
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
    gemm_2d_kernel[grid](a, b, c, M, N, K,
                         a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                         c.stride(0), c.stride(1),
                         BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
    return c


def gemm_padded_rows(a, b):
    M, K = a.shape
    N = b.shape[1]
    # Rows padded to N + 8: the last eight columns of each row keep the fill.
    c = torch.zeros((M, N + 8), dtype=a.dtype, device=a.device)  # expect: AL101 unsafe
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
    gemm_2d_kernel[grid](a, b, c, M, N, K,
                         a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                         N + 8, 1,
                         BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
    return c


def gemm_strided_columns(a, b):
    M, K = a.shape
    N = b.shape[1]
    # Every other column: stride 2 between columns.
    c = torch.zeros((M, 2 * N), dtype=a.dtype, device=a.device)  # expect: AL101 unsafe
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
    gemm_2d_kernel[grid](a, b, c, M, N, K,
                         a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                         2 * N, 2,
                         BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
    return c


def double_grouped(x):
    M, N = x.shape
    # The row stride is x's: the same as out's only when x is dense.
    out = torch.zeros_like(x)  # expect: AL101 unsafe
    grid = (triton.cdiv(M, 64) * triton.cdiv(N, 64),)
    gemm_grouped_kernel[grid](x, out, M, N, x.stride(0), BLOCK_M=64, BLOCK_N=64, GROUP_M=8)
    return out


def double_grouped_own(x):
    M, N = x.shape
    out = torch.zeros((M, N), dtype=x.dtype, device=x.device)  # expect: AL101 safe
    grid = (triton.cdiv(M, 64) * triton.cdiv(N, 64),)
    gemm_grouped_kernel[grid](x, out, M, N, out.stride(0), BLOCK_M=64, BLOCK_N=64, GROUP_M=8)
    return out


def double_grouped_rows_of_n(x):
    M, N = x.shape
    out = torch.zeros_like(x)  # expect: AL101 unsafe
    grid = (triton.cdiv(M, 64) * triton.cdiv(N, 64),)
    grouped_rows_of_n_kernel[grid](x, out, M, N, out.stride(0), BLOCK_M=64, BLOCK_N=64, GROUP_M=8)
    return out


def copy_split_by_rows(x):
    M, N = x.shape
    out = torch.zeros_like(x)  # expect: AL101 unsafe
    grid = (triton.cdiv(M, 64) * triton.cdiv(N, 64),)
    split_by_rows_kernel[grid](x, out, M, N, BLOCK_M=64, BLOCK_N=64)
    return out


def band(x, lo):
    M, N = x.shape
    out = torch.zeros_like(x)  # expect: AL101 unsafe
    band_kernel[(triton.cdiv(M, 32), triton.cdiv(N, 32))](x, out, M, N, lo, BLOCK_M=32, BLOCK_N=32)
    return out


def repeated(x, n_iters):
    M, N = x.shape
    out = torch.zeros_like(x)  # expect: AL101 unsafe
    tiles_in_loop_kernel[(triton.cdiv(M, 32), triton.cdiv(N, 32))](x, out, M, N, n_iters,
                                                                   BLOCK_M=32, BLOCK_N=32)
    return out


def copy_like(x):
    M, N = x.shape
    out = torch.zeros_like(x)  # expect: AL101 safe
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
    copy_2d_kernel[grid](x, out, M, N, x.stride(0), out.stride(0), out.stride(1),
                         BLOCK_M=64, BLOCK_N=64)
    return out


def copy_band_from_zero(x):
    M, N = x.shape
    # lo = 0 leaves nothing out, but the mask's lower bound is not read.
    out = torch.zeros_like(x)  # expect: AL101 unsafe
    band_kernel[(triton.cdiv(M, 64), triton.cdiv(N, 64))](x, out, M, N, 0, BLOCK_M=64, BLOCK_N=64)
    return out


def scale(x, alpha):
    M, N = x.shape
    out = torch.zeros((M, N), dtype=x.dtype, device=x.device)  # expect: AL101 safe
    scale_block_kernel[(triton.cdiv(M, 64), triton.cdiv(N, 64))](
        x, out, M, N, x.stride(0), out.stride(0), alpha, BLOCK_M=64, BLOCK_N=64
    )
    return out


def first_columns(x):
    M, N = x.shape
    out = torch.zeros((M, N), dtype=x.dtype, device=x.device)  # expect: AL101 unsafe
    first_columns_block_kernel[(triton.cdiv(M, 64),)](
        x, out, M, N, x.stride(0), out.stride(0), BLOCK_M=64, BLOCK_N=64
    )
    return out


def _copy_into(x, out):
    # Its own shape and strides: whatever `out` is, every element is written.
    M, N = out.shape
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
    copy_2d_kernel[grid](x, out, M, N, x.stride(0), out.stride(0), out.stride(1),
                         BLOCK_M=64, BLOCK_N=64)


def copied(x):
    out = torch.zeros_like(x)  # expect: AL101 safe
    _copy_into(x, out)
    return out


def _copy_into_rows_of(x, out):
    # Row stride N assumes `out` dense; a caller may hand a column slice.
    M, N = out.shape
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
    copy_2d_kernel[grid](x, out, M, N, x.stride(0), N, 1, BLOCK_M=64, BLOCK_N=64)


def copied_rows_of(x):
    out = torch.zeros_like(x)  # expect: AL101 unsafe
    _copy_into_rows_of(x, out)
    return out


def copy_first_plane(x):
    # x.shape[0] and x.shape[1] say nothing of a third dimension: with a
    # 3-D x, only out[:, :, 0] is written.
    M = x.shape[0]
    N = x.shape[1]
    out = torch.zeros_like(x)  # expect: AL101 unsafe
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
    copy_2d_kernel[grid](x, out, M, N, x.stride(0), out.stride(0), out.stride(1),
                         BLOCK_M=64, BLOCK_N=64)
    return out


def _first_plane_into(x, out):
    M = out.shape[0]
    N = out.shape[1]
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
    copy_2d_kernel[grid](x, out, M, N, x.stride(0), out.stride(0), out.stride(1),
                         BLOCK_M=64, BLOCK_N=64)


def first_plane(x):
    out = torch.zeros_like(x)  # expect: AL101 unsafe
    _first_plane_into(x, out)
    return out


def plus_one(x):
    # A program per element, on a grid of the buffer's own shape.
    M, N = x.shape
    out = torch.zeros((M, N), dtype=x.dtype, device=x.device)  # expect: AL101 safe
    per_element_kernel[(M, N)](x, out, x.stride(0), out.stride(0))
    return out


def doubled_3d(x3):
    P, Q, R = x3.shape
    out = torch.zeros((P, Q, R), dtype=x3.dtype, device=x3.device)  # expect: AL101 safe
    per_element_3d_kernel[(P, Q, R)](x3, out, x3.stride(0), x3.stride(1), out.stride(0),
                                     out.stride(1))
    return out


def plus_one_short_grid(x):
    # The grid leaves the last column: its zeros are read by the caller.
    M, N = x.shape
    out = torch.zeros((M, N), dtype=x.dtype, device=x.device)  # expect: none
    per_element_kernel[(M, N - 1)](x, out, x.stride(0), out.stride(0))
    return out


def plus_one_axes_swapped(x):
    M, N = x.shape
    out = torch.zeros((M, N), dtype=x.dtype, device=x.device)  # expect: none
    per_element_kernel[(N, M)](x, out, x.stride(0), out.stride(0))
    return out
