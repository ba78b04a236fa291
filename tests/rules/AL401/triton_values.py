# AL401 never reports inside a Triton kernel: its values are blocks in
# registers, and `x = x * y` there allocates nothing to reuse.
import triton
import triton.language as tl


@triton.jit
def scale_rows(x_ptr, g_ptr, BLOCK: tl.constexpr):
    # Triton values are blocks in registers: nothing is allocated.
    offs = tl.arange(0, BLOCK)
    b_h = tl.zeros([BLOCK], dtype=tl.float32)
    b_h = b_h + tl.load(x_ptr + offs)
    b_h = b_h * tl.load(g_ptr)  # expect: none
    tl.store(x_ptr + offs, b_h)


import torch


@triton.jit
def _softcap_kernel(x_ptr, out_ptr, n, cap, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x / cap, mask=offs < n)


def softcapped(x, cap):
    # The launch writes `out` and keeps nothing: what returns is new.
    out = torch.empty_like(x)
    _softcap_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), cap, BLOCK=1024)
    return out


def keeps_a_copy(x, cache):
    out = torch.empty_like(x)
    cache.append(out)
    return out


@torch.inference_mode()
def logits_with_bias(x, bias, cap):
    logits = softcapped(x, cap)
    logits = logits + bias  # expect: AL401 unsafe
    return logits


@torch.inference_mode()
def logits_kept(x, bias, cache):
    logits = keeps_a_copy(x, cache)
    logits = logits + bias  # expect: none
    return logits
