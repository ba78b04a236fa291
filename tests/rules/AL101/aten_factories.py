# AL101 on the factories compiled graphs call (issue 43 item 8): the ATen
# ops themselves (`torch.ops.aten.full.default`, the overload packet
# `torch.ops.aten.zeros`) and shapes given as `*shape`.
import torch


def graph_prologue(x, n):
    # What a compiled graph's code calls: the fill is the op's second
    # argument, and the rewrite drops it.
    buf = torch.ops.aten.full.default([n], 0, dtype=torch.float32, device=x.device)  # expect: AL101 safe
    buf.copy_(x)
    return buf


def graph_zeros(x, n):
    out = torch.ops.aten.zeros.default([n], dtype=x.dtype, device=x.device)  # expect: AL101 safe
    out.copy_(x)
    return out


def overload_packet(x, n):
    out = torch.ops.aten.zeros([n], dtype=x.dtype, device=x.device)  # expect: AL101 safe
    out.copy_(x)
    return out


def accumulated(x, n):
    # `+=` reads the zeros.
    out = torch.ops.aten.zeros.default([n], dtype=x.dtype, device=x.device)  # expect: none
    out += x
    return out


def ones_as_weights(x, n):
    # A fill of ones handed on before any write: an input, not a buffer.
    w = torch.ops.aten.ones.default([n], dtype=x.dtype, device=x.device)  # expect: none
    return x * w


def splat_shape(x, shape):
    out = torch.zeros(*shape, dtype=x.dtype, device=x.device)  # expect: AL101 safe
    out.copy_(x)
    return out


def splat_keywords(x, shape, **factory_kwargs):
    # `**factory_kwargs` may hold `out=`: not a call alloclint reads.
    out = torch.zeros(*shape, **factory_kwargs)  # expect: none
    out.copy_(x)
    return out


def splat_then_read(x, shape):
    out = torch.zeros(*shape, dtype=x.dtype, device=x.device)  # expect: none
    out[0] += x[0]
    return out
