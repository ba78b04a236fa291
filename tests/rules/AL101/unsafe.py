# AL101 fixtures: likely wasted fills that alloclint cannot prove wasted.
# They get a fix only with --unsafe-fixes.
import torch
import triton
import triton.language as tl

import flashinfer
from my_kernels import rms_norm_kernel


@triton.jit
def _silu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x * tl.sigmoid(x), mask=offs < n)


def silu_valid_prefix(x, n_valid):
    # The kernel stores under `offs < n`, and n is n_valid here: nothing
    # says n_valid is the buffer's numel, so the tail may keep its zeros.
    out = torch.zeros_like(x)  # expect: AL101 unsafe
    _silu_kernel[(triton.cdiv(n_valid, 1024),)](x, out, n_valid, BLOCK=1024)
    return out


def imported_kernel(x, w, eps):
    # A kernel outside the project has no summary: passing a buffer to it
    # proves nothing and suggests nothing.
    out = torch.zeros(x.shape, dtype=x.dtype, device=x.device)  # expect: none
    rms_norm_kernel[(x.shape[0],)](out, x, w, eps)
    return out


def custom_op_output(x, weight, eps):
    # A custom op with neither a schema nor an implementation in the
    # project: no guess about which argument it writes.
    out = torch.zeros_like(x)  # expect: none
    torch.ops._C.rms_norm(out, x, weight, eps)
    return out


def custom_op_input(x, eps):
    # A ones weight in a later position is an input: not reported.
    weight = torch.ones(x.shape[-1], dtype=x.dtype)  # expect: none
    out = torch.empty_like(x)
    torch.ops._C.rms_norm(out, x, weight, eps)
    return out


def output_keyword(layer, q, k, v):
    # `output=` of a call alloclint cannot follow (a method of an object):
    # no summary, no finding.
    output = torch.zeros(q.shape[0], layer.num_heads * layer.head_dim, dtype=q.dtype)  # expect: none
    layer.impl.forward(q, k, v, output=output)
    return output


def fill_of_unknown_type(n, src, pad_id):
    # torch.full infers its dtype from pad_id, which alloclint cannot see:
    # no fix, since torch.empty would make float32.
    ids = torch.full((n,), pad_id)  # expect: AL101 nofix
    ids.copy_(src)
    return ids


def ones_to_kernel(x):
    # The kernel's summary says out_ptr is stored, never read: the ones are
    # an output's fill. One program covers one block only: unsafe.
    scale = torch.ones(x.shape[0], device=x.device)  # expect: AL101 unsafe
    _silu_kernel[(1,)](x, scale, x.numel(), BLOCK=1024)
    return scale


def ones_as_kernel_input(x):
    # Passed where the kernel loads (x_ptr): an input, never reported.
    weight = torch.ones_like(x)  # expect: none
    out = torch.empty_like(x)
    _silu_kernel[(triton.cdiv(x.numel(), 1024),)](weight, out, x.numel(), BLOCK=1024)
    return out


def library_output(x, weight, eps):
    # flashinfer writes its `out=` whole by its documentation, not by a
    # proof alloclint can check: at most unsafe (rules/ops/libraries.toml).
    out = torch.zeros_like(x)  # expect: AL101 unsafe
    flashinfer.norm.rmsnorm(x, weight, eps, out=out)
    return out


def dict_of_callables(handlers, key, x):
    # `handlers[key](buf)` is not a kernel launch.
    buf = torch.zeros_like(x)  # expect: none
    handlers[key](buf)
    return buf


def trtllm_decode(q, kv_cache, block_tables, seq_lens, max_seq_len):
    # The workspace holds the kernels' semaphores: flashinfer documents it
    # "must be initialized to 0 for its first use", so its zeros stay; the
    # output's rows are the query's, written by the library's word.
    workspace = torch.zeros(32 * 1024 * 1024, dtype=torch.uint8, device=q.device)  # expect: none
    out = torch.zeros_like(q)  # expect: AL101 unsafe
    flashinfer.decode.trtllm_batch_decode_with_kv_cache(
        q, kv_cache, workspace, block_tables, seq_lens, max_seq_len, out=out
    )
    return out


def wrapper_workspace(device):
    # A wrapper keeps its workspace for every later plan and run: not
    # written here, not reported.
    float_workspace = torch.zeros(128 * 1024 * 1024, dtype=torch.uint8, device=device)  # expect: none
    return flashinfer.BatchDecodeWithPagedKVCacheWrapper(float_workspace, "NHD")
