# Per-token quantisation scales, registered as custom ops.
import torch
import triton
import triton.language as tl

from kvq.utils import direct_register_custom_op


@triton.jit
def _token_absmax_kernel(scale_ptr, x_ptr, n_tokens, hidden, BLOCK_T: tl.constexpr,
                         BLOCK_H: tl.constexpr):
    pid = tl.program_id(0)
    toks = pid * BLOCK_T + tl.arange(0, BLOCK_T)
    tmask = toks < n_tokens
    amax = tl.zeros((BLOCK_T,), dtype=tl.float32)
    for h in range(0, hidden, BLOCK_H):
        cols = h + tl.arange(0, BLOCK_H)
        x = tl.load(x_ptr + toks[:, None] * hidden + cols[None, :],
                    mask=tmask[:, None] & (cols[None, :] < hidden), other=0.0)
        amax = tl.maximum(amax, tl.max(tl.abs(x), axis=1))
    tl.store(scale_ptr + toks, amax / 448.0, mask=tmask)


@triton.jit
def _expert_sum_kernel(out_ptr, x_ptr, ids_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    e = tl.load(ids_ptr + offs, mask=mask, other=0)
    tl.atomic_add(out_ptr + e, tl.load(x_ptr + offs, mask=mask, other=0.0), mask=mask)


def _token_scales_impl(scales: torch.Tensor, x: torch.Tensor) -> None:
    n_tokens = scales.numel()
    hidden = x.shape[-1]
    grid = (triton.cdiv(n_tokens, 16),)
    _token_absmax_kernel[grid](scales, x, n_tokens, hidden, BLOCK_T=16, BLOCK_H=128)


def _token_scales_fake(scales: torch.Tensor, x: torch.Tensor) -> None:
    return None


direct_register_custom_op(
    op_name="token_scales",
    op_func=_token_scales_impl,
    mutates_args=["scales"],
    fake_impl=_token_scales_fake,
)


@torch.library.custom_op("kvq::expert_sums", mutates_args=("out",))
def expert_sums(out: torch.Tensor, x: torch.Tensor, ids: torch.Tensor) -> None:
    n = x.numel()
    _expert_sum_kernel[(triton.cdiv(n, 256),)](out, x, ids, n, BLOCK=256)
