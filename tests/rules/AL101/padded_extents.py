# AL101 fixtures: a shape that looks padded (`+ 1`, `max_`, rounded) is
# decided from what the writer covers, not from how the shape is spelled.
import torch
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * scale, mask=mask)


def with_extra_column(x, head_dim, scale):
    # The kernel is told `head_dim + 1` elements and the grid covers them:
    # the extra column is written too.
    out = torch.zeros(head_dim + 1, dtype=x.dtype, device=x.device)  # expect: AL101 safe
    grid = (triton.cdiv(head_dim + 1, 128),)
    scale_kernel[grid](x, out, head_dim + 1, scale, BLOCK=128)
    return out


def max_sized(x, max_tokens, hidden, scale):
    # Named `max_`, but written whole.
    out = torch.zeros(max_tokens, hidden, dtype=x.dtype, device=x.device)  # expect: AL101 safe
    grid = (triton.cdiv(max_tokens * hidden, 256),)
    scale_kernel[grid](x, out, max_tokens * hidden, scale, BLOCK=256)
    return out


def padding_kept(x, head_dim, scale):
    # One element past what the kernel writes: that zero is the padding.
    out = torch.zeros(head_dim + 1, dtype=x.dtype, device=x.device)  # expect: none
    grid = (triton.cdiv(head_dim, 128),)
    scale_kernel[grid](x, out, head_dim, scale, BLOCK=128)
    return out


def rounded_up(x, n, scale):
    # Rounded to a multiple of 128 rows; the kernel writes `n`.
    rows = (n + 127) // 128 * 128
    out = torch.zeros(rows, dtype=x.dtype, device=x.device)  # expect: none
    grid = (triton.cdiv(n, 128),)
    scale_kernel[grid](x, out, n, scale, BLOCK=128)
    return out


def unrelated_bound(x, n, m, scale):
    # The bound is not built into the shape: whether it covers the buffer
    # is not known, and the fill is likely wasted (unsafe).
    out = torch.zeros(n + 1, dtype=x.dtype, device=x.device)  # expect: AL101 unsafe
    grid = (triton.cdiv(m, 128),)
    scale_kernel[grid](x, out, m, scale, BLOCK=128)
    return out
