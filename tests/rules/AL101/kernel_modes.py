# golden-args: --select AL101
# Kernel writes that the data or the launch's mode choose are not "likely
# wasted" (issue 57.4): no full-cover claim, not even unsafe, and explain
# says why. The first kernel is the trap: it stores every element.
import torch
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * scale, mask=mask)


def scaled(x, scale):
    n = x.numel()
    out = torch.zeros(n, dtype=x.dtype, device=x.device)  # expect: AL101 safe
    grid = (triton.cdiv(n, 128),)
    scale_kernel[grid](x, out, n, scale, BLOCK=128)
    return out


@triton.jit
def gated_copy_kernel(x_ptr, out_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    # The loop runs once or not at all, as the loaded flag says.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    flag = tl.load(flag_ptr + pid)
    for _ in range(0, tl.where(flag > 0, 1, 0)):
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


def gated_copy(x, flags):
    n = x.numel()
    out = torch.zeros(n, dtype=x.dtype, device=x.device)  # expect: none
    grid = (triton.cdiv(n, 128),)
    gated_copy_kernel[grid](x, out, flags, n, BLOCK=128)
    return out


@triton.jit
def loss_kernel(x_ptr, loss_ptr, n, REDUCTION_NONE: tl.constexpr, BLOCK: tl.constexpr):
    # Per-element losses only in one mode; the caller reads the buffer in
    # every mode.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if REDUCTION_NONE:
        tl.store(loss_ptr + offs, x * x, mask=mask)


def per_element_loss(x, reduction):
    n = x.numel()
    loss = torch.zeros(n, dtype=x.dtype, device=x.device)  # expect: none
    grid = (triton.cdiv(n, 128),)
    loss_kernel[grid](x, loss, n, REDUCTION_NONE=reduction == "none", BLOCK=128)
    return loss


@triton.autotune(
    configs=[triton.Config({"BLOCK": 128}), triton.Config({"BLOCK": 256})],
    key=["n"],
    reset_to_zero=["out_ptr"],
)
@triton.jit
def tuned_scale_kernel(x_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * scale, mask=mask)


def tuned_scaled(x, scale):
    # The autotuner zeroes `out_ptr` before every run: the kernel's author
    # says the zeros are needed.
    n = x.numel()
    out = torch.zeros(n, dtype=x.dtype, device=x.device)  # expect: none
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)
    tuned_scale_kernel[grid](x, out, n, scale)
    return out
