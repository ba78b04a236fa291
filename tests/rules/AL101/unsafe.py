# AL101 fixtures: likely wasted fills that alloclint cannot prove wasted.
# They get a fix only with --unsafe-fixes.
import torch
import triton
import triton.language as tl

from my_kernels import rms_norm_kernel


@triton.jit
def _silu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x * tl.sigmoid(x), mask=offs < n)


def silu(x):
    # Passed to a Triton kernel as an argument: an output, probably whole.
    out = torch.zeros_like(x)  # expect: AL101 unsafe
    _silu_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
    return out


def imported_kernel(x, w, eps):
    out = torch.zeros(x.shape, dtype=x.dtype, device=x.device)  # expect: AL101 unsafe
    rms_norm_kernel[(x.shape[0],)](out, x, w, eps)
    return out


def custom_op_output(x, weight, eps):
    # First argument of a custom op without a schema: its output by habit.
    out = torch.zeros_like(x)  # expect: AL101 unsafe
    torch.ops._C.rms_norm(out, x, weight, eps)
    return out


def custom_op_input(x, eps):
    # A ones weight in a later position is an input: not reported.
    weight = torch.ones(x.shape[-1], dtype=x.dtype)  # expect: none
    out = torch.empty_like(x)
    torch.ops._C.rms_norm(out, x, weight, eps)
    return out


def output_keyword(layer, q, k, v):
    # `output=` of an attention call: written, but maybe not every row.
    output = torch.zeros(q.shape[0], layer.num_heads * layer.head_dim, dtype=q.dtype)  # expect: AL101 unsafe
    layer.impl.forward(q, k, v, output=output)
    return output


def fill_of_unknown_type(n, src, pad_id):
    # torch.full infers its dtype from pad_id, which alloclint cannot see:
    # no fix, since torch.empty would make float32.
    ids = torch.full((n,), pad_id)  # expect: AL101 nofix
    ids.copy_(src)
    return ids


def ones_to_kernel(x):
    # A non-zero fill handed to a kernel positionally is kept: most likely
    # an input (a scale, a weight).
    scale = torch.ones(x.shape[0], device=x.device)  # expect: none
    _silu_kernel[(1,)](x, scale, x.numel(), BLOCK=1024)
    return scale


def dict_of_callables(handlers, key, x):
    # `handlers[key](buf)` is not a kernel launch.
    buf = torch.zeros_like(x)  # expect: none
    handlers[key](buf)
    return buf
