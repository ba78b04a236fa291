# golden-args: --select AL401
# `x = x op y` keeps y's dtype and broadcast shape where the in-place
# `x.op_(y)` keeps x's: read where the code states them (factory dtypes
# and sizes, casts, `.view(...)`), an update shown to raise or to round
# differently gets no fix; shown the same, no caveat; unknown, the
# assumption is named.
import torch


@torch.inference_mode()
def int_counts_scaled(n):
    counts = torch.zeros(n, dtype=torch.int32)
    weights = torch.rand(n)
    counts = counts * weights  # expect: none (int32 times float raises in place)
    return counts


@torch.inference_mode()
def half_times_float(b, n):
    h = torch.zeros(b, n, dtype=torch.float16)
    s = torch.ones(b, n, dtype=torch.float32)
    h = h * s  # expect: none (the original gives float32, in place rounds to float16)
    return h


@torch.inference_mode()
def int32_plus_int64(b, n):
    ids = torch.zeros(b, n, dtype=torch.int32)
    offsets = torch.ones(b, n, dtype=torch.int64)
    ids = ids + offsets  # expect: none (the original gives int64)
    return ids


@torch.inference_mode()
def mask_that_grows():
    causal = torch.zeros(1, 1, 1, 8)
    other = torch.zeros(1, 1, 8, 1)
    causal = causal - other  # expect: none (broadcasts to (1, 1, 8, 8))
    return causal


@torch.inference_mode()
def expanded_rows(b, n):
    rows = torch.zeros(1, n).expand(b, n)
    rows = rows + 1  # expect: none (an expanded view: its elements share memory)
    return rows


@torch.inference_mode()
def same_dtype_and_shape(b, n):
    acc = torch.zeros(b, n, dtype=torch.float16)
    step = torch.ones(b, n, dtype=torch.float16)
    acc = acc + step  # expect: AL401 safe
    return acc


@torch.inference_mode()
def bias_row(b, n):
    acc = torch.zeros(b, n, dtype=torch.bfloat16)
    bias = torch.ones(1, n, dtype=torch.bfloat16)
    acc = acc + bias  # expect: AL401 safe
    return acc


@torch.inference_mode()
def mask_of_a_symbol(s):
    # s may be 1: whether the result grows is not known.
    causal = torch.zeros(1, 1, 1, s)
    other = torch.zeros(1, 1, s, 1)
    causal = causal - other  # expect: AL401 unsafe
    return causal


@torch.inference_mode()
def half_times_cast(b, n, scale):
    # `scale.float()` is float32, its shape not stated: 0-dim keeps float16.
    h = torch.zeros(b, n, dtype=torch.float16)
    s = scale.float()
    h = h * s  # expect: AL401 unsafe
    return h


@torch.inference_mode()
def operand_of_the_caller(n, other):
    h = torch.zeros(n, dtype=torch.float16)
    h = h * other  # expect: AL401 unsafe
    return h
