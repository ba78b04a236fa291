# golden-args: --select AL401
# Results of the project's compiled extension (engine._C, built from
# csrc/): what the bound C++ function returns is read from its source.
import torch

try:
    from engine._C import ops as ext_ops
except ImportError:
    pass

import otherlib


def quant_linear(x, w, bias, split_k: int):
    out = ext_ops.quant_gemm(x.reshape(-1, x.shape[-1]), w, split_k)
    if bias is not None:
        out = out + bias  # expect: AL401 unsafe
    return out


def dequant_linear(x, w, scales, bias):
    weight = ext_ops.dequant(w, scales)
    weight = weight * 0.5  # expect: AL401 unsafe
    return torch.matmul(x, weight) + bias


@torch.inference_mode()
def quant_relu(x, w, split_k: int):
    out = ext_ops.quant_gemm(x, w, split_k)
    out = out.clamp(min=0)  # expect: AL401 safe
    return out


# Traps: a function that may return its input (assigned again, a
# `.contiguous()`, a branch returning the parameter), a function that
# returns nothing, a library of the same function name outside the project.


def packed_rows(x):
    p = ext_ops.pack_rows(x)
    p = p * 2
    return p


def contiguous_rows(x):
    c = ext_ops.as_contiguous(x)
    c = c + 1
    return c


def scaled(x):
    y = ext_ops.scaled_or_input(x, 1.0)
    y = y * 3
    return y


def filled(x):
    r = ext_ops.fill_out(torch.empty_like(x), x)
    r = r + 1
    return r


def foreign(x, w):
    g = otherlib.ops.quant_gemm(x, w, 4)
    g = g + 1
    return g
