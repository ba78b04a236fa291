# golden-args: --select AL401
# AL401 fixtures: the in-place forms engineers wrote by hand in inference
# code, and what a safe fix must prove (no autograd, no alias, the same
# shape and dtype).
import functools

import torch


@torch.inference_mode()
def relu_cap(hidden):
    # clamp with int bounds keeps x's shape and dtype.
    out = torch.matmul(hidden, hidden.T)
    out = out.clamp(min=0, max=6)  # expect: AL401 safe
    return out


@torch.no_grad()
def drop_negative(x):
    scores = torch.exp(x)
    scores = scores.masked_fill(scores < 1, 0)  # expect: AL401 safe
    return scores


def scale_under_with(x):
    with torch.inference_mode():
        probs = torch.softmax(x, dim=-1)
        probs = torch.clamp(probs, max=1)  # expect: AL401 safe
    return probs


@torch.inference_mode()
def float_factor_known_dtype(n):
    acc = torch.ones(n, dtype=torch.float32)
    acc = acc * 0.5  # expect: AL401 safe
    return acc


@torch.inference_mode()
def float_factor_unknown_dtype(x):
    # A float times an integer tensor is a float tensor: not proved.
    y = torch.cumsum(x, 0)
    y = y * 0.5  # expect: AL401 unsafe
    return y


@torch.inference_mode()
def add_bias(x, bias):
    # bias may be larger than out along some dim (broadcasting grows it).
    out = torch.matmul(x, x.T)
    out = out + bias  # expect: AL401 unsafe
    return out


@torch.inference_mode()
def divide_by_int(n):
    # True division of an int64 tensor is a float tensor.
    counts = torch.ones(n, dtype=torch.int64)
    counts = counts / 2  # expect: AL401 unsafe
    return counts


@torch.inference_mode()
def dtype_from_one_branch(n, flag):
    # The int64 binding may reach the update: the float32 one proves nothing.
    acc = torch.ones(n, dtype=torch.float32)
    if flag:
        acc = torch.arange(n)
    acc = acc * 0.5  # expect: AL401 unsafe
    return acc


@torch.inference_mode()
def divide_float_by_int(n):
    w = torch.ones(n, dtype=torch.float32)
    w = w / 4  # expect: AL401 safe
    return w


@torch.inference_mode()
def int_step_on_a_mask(n):
    # An int operand turns a bool tensor into int64: add_ would raise.
    seen = torch.zeros(n, dtype=torch.bool)
    seen = seen + 1  # expect: AL401 unsafe
    return seen


@torch.inference_mode()
def int_step_on_long(n):
    # torch.long is int64: an int operand keeps it.
    steps = torch.zeros(n, dtype=torch.long)
    steps = steps + 1  # expect: AL401 safe
    return steps


def training_path(x):
    # No inference context: autograd may need the old value.
    h = torch.sin(x)
    h = h.clamp(min=0)  # expect: AL401 unsafe
    return h


@torch.inference_mode()
def scatter_embeddings(x, mask, image_embeds):
    # masked_scatter broadcasts x with the mask.
    embeds = torch.exp(x)
    embeds = embeds.masked_scatter(mask, image_embeds)  # expect: AL401 unsafe
    return embeds


@torch.inference_mode()
def fill_with_another_mask(x, mask):
    # A mask from elsewhere may broadcast x larger.
    y = torch.exp(x)
    y = y.masked_fill(mask, 0.0)  # expect: AL401 unsafe
    return y


@torch.inference_mode()
def view_in_the_arguments(x):
    # y[0] is a view of y, read while y is written: no rewrite.
    y = torch.exp(x)
    y = y.clamp(max=y[0])  # expect: none
    return y


@torch.inference_mode()
def still_referenced(x):
    # `first` is a view of y: an in-place update would change it.
    y = torch.exp(x)
    first = y[0]
    y = y.clamp(min=0)  # expect: none
    return y, first


@torch.inference_mode(False)
def grad_mode_back_on(x):
    z = torch.sin(x)
    z = z.clamp(min=0)  # expect: AL401 unsafe
    return z


@torch.inference_mode()
def returned_by_a_module(layer, x):
    # A module call may return its input (nn.Identity) or a cached tensor.
    h = layer(x)
    h = h.clamp(min=0)  # expect: none
    return h


@torch.inference_mode()
def held_by_eval(x):
    # eval takes a reference by name: the update would change `keep`.
    y = torch.exp(x)
    keep = eval("y")
    y = torch.clamp(y, min=1)  # expect: none
    return keep, y


@torch.inference_mode()
def held_by_default(x):
    # A default value holds the tensor the update would change.
    y = torch.exp(x)
    first = lambda t=y: t  # noqa: E731
    y = torch.clamp(y, min=1)  # expect: none
    return first(), y


@torch.inference_mode()
def held_from_an_earlier_pass(x, n):
    # The list holds the last pass's tensor.
    y = torch.exp(x)
    outs = []
    for _ in range(n):
        y = torch.clamp(y, min=1)  # expect: none
        outs.append(y)
        y = y * 2
    return outs


@functools.cache
def _position_ids(n: int):
    return torch.arange(n)


@torch.inference_mode()
def cached_positions(n: int):
    # The cache hands every caller the same tensor: updating it in place
    # would change what the next call gets.
    p = _position_ids(n)
    p = torch.clamp(p, min=1)  # expect: none
    return p
