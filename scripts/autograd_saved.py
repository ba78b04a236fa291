#!/usr/bin/python3
"""Writes src/analysis/python/autograd_saved.c: which operands each op saves
for its backward, read from torch itself (Debian's python3-torch: run with
/usr/bin/python3), not from a hand list.

Each op runs under autograd on small float tensors that all require grad
(the case where the most is saved); then its input (`self`), its other
tensor operand, or its result is updated in place and backward() runs:
where autograd saved that tensor (or a view of it), backward() raises
("one of the variables needed for gradient computation has been modified
by an inplace operation"), which is the fact a rule needs.

Usage: /usr/bin/python3 scripts/autograd_saved.py > src/analysis/python/autograd_saved.c
"""
import torch
import torch.nn.functional as F

# name: (call, operands) -- operands "x" (one tensor) or "xy" (two); the
# arithmetic ops also as `name.Scalar`, with a Python number for the other.
# A function of torch or torch.nn.functional, or a tensor method of the
# same name; the names are how model code spells the call.
OPS = {
    # unary: many keep their result (exp, tanh, sigmoid), others their input
    "abs": (torch.abs, "x"), "acos": (torch.acos, "x"), "asin": (torch.asin, "x"),
    "atan": (torch.atan, "x"), "ceil": (torch.ceil, "x"), "cos": (torch.cos, "x"),
    "cosh": (torch.cosh, "x"), "erf": (torch.erf, "x"), "erfinv": (torch.erfinv, "x"),
    "exp": (torch.exp, "x"), "exp2": (torch.exp2, "x"), "expm1": (torch.expm1, "x"),
    "floor": (torch.floor, "x"), "log": (torch.log, "x"), "log10": (torch.log10, "x"),
    "log1p": (torch.log1p, "x"), "log2": (torch.log2, "x"), "neg": (torch.neg, "x"),
    "reciprocal": (torch.reciprocal, "x"), "relu": (torch.relu, "x"),
    "round": (torch.round, "x"), "rsqrt": (torch.rsqrt, "x"), "sigmoid": (torch.sigmoid, "x"),
    "sign": (torch.sign, "x"), "sin": (torch.sin, "x"), "sinh": (torch.sinh, "x"),
    "sqrt": (torch.sqrt, "x"), "square": (torch.square, "x"), "tan": (torch.tan, "x"),
    "tanh": (torch.tanh, "x"), "trunc": (torch.trunc, "x"),
    "gelu": (F.gelu, "x"), "silu": (F.silu, "x"), "mish": (F.mish, "x"),
    "elu": (F.elu, "x"), "leaky_relu": (F.leaky_relu, "x"), "softplus": (F.softplus, "x"),
    "hardtanh": (F.hardtanh, "x"), "hardsigmoid": (F.hardsigmoid, "x"),
    "hardswish": (F.hardswish, "x"), "logsigmoid": (F.logsigmoid, "x"),
    "softmax": (lambda x: torch.softmax(x, -1), "x"),
    "log_softmax": (lambda x: torch.log_softmax(x, -1), "x"),
    "sum": (torch.sum, "x"), "mean": (torch.mean, "x"),
    "prod": (torch.prod, "x"), "cumsum": (lambda x: torch.cumsum(x, -1), "x"),
    "cumprod": (lambda x: torch.cumprod(x, -1), "x"),
    "logsumexp": (lambda x: torch.logsumexp(x, -1), "x"),
    "norm": (torch.norm, "x"), "amax": (lambda x: torch.amax(x, -1), "x"),
    "amin": (lambda x: torch.amin(x, -1), "x"),
    "clone": (torch.clone, "x"), "float": (lambda x: x.double().float(), "x"),
    "pow": (lambda x: torch.pow(x, 2.5), "x"),
    "clamp": (lambda x: torch.clamp(x, -0.5, 0.5), "x"),
    "clamp_min": (lambda x: torch.clamp_min(x, 0.1), "x"),
    "clamp_max": (lambda x: torch.clamp_max(x, 0.1), "x"),
    "masked_fill": (lambda x: x.masked_fill(x > 0, 0.0), "x"),
    "layer_norm": (lambda x: F.layer_norm(x, x.shape[-1:]), "x"),
    "normalize": (lambda x: F.normalize(x, dim=-1), "x"),
    "dropout": (lambda x: F.dropout(x, 0.5, training=True), "x"),
    # a Python number as the other operand: `name.Scalar`
    "add.Scalar": (lambda x: x + 2.0, "x"), "sub.Scalar": (lambda x: x - 2.0, "x"),
    "mul.Scalar": (lambda x: x * 2.0, "x"), "div.Scalar": (lambda x: x / 2.0, "x"),
    "pow.Scalar": (lambda x: x ** 2, "x"),
    # binary
    "add": (torch.add, "xy"), "sub": (torch.sub, "xy"), "mul": (torch.mul, "xy"),
    "div": (torch.div, "xy"), "maximum": (torch.maximum, "xy"),
    "minimum": (torch.minimum, "xy"), "atan2": (torch.atan2, "xy"),
    "matmul": (torch.matmul, "xy"), "mm": (torch.mm, "xy"),
    "bmm": (lambda x, y: torch.bmm(x.unsqueeze(0), y.unsqueeze(0)), "xy"),
    "where": (lambda x, y: torch.where(x > 0, x, y), "xy"),
    "lerp": (lambda x, y: torch.lerp(x, y, 0.5), "xy"),
    "hypot": (torch.hypot, "xy"), "fmod": (torch.fmod, "xy"),
    "remainder": (torch.remainder, "xy"), "linear": (F.linear, "xy"),
    "cat": (lambda x, y: torch.cat([x, y]), "xy"),
    "stack": (lambda x, y: torch.stack([x, y]), "xy"),
    "einsum": (lambda x, y: torch.einsum("ij,jk->ik", x, y), "xy"),
}


def breaks(fn, operands, which):
    """Whether an in-place update of `which` (the op's input "self", its
    other operand "other", or its result "result") after the op makes
    backward() raise: autograd saved that tensor (or a view of it)."""
    x = torch.rand(3, 3, dtype=torch.float64, requires_grad=True) + 0.5
    y = torch.rand(3, 3, dtype=torch.float64, requires_grad=True) + 0.5
    out = fn(x, y) if operands == "xy" else fn(x)
    target = {"self": x, "other": y, "result": out}[which]
    with torch.no_grad():  # the update itself is not recorded; its version bump is
        target.mul_(1.0)
    try:
        (out if which != "result" else out).sum().backward()
    except RuntimeError as e:
        if "modified by an inplace operation" in str(e):
            return True
        raise
    return False


def saved(fn, operands):
    kinds = ("self", "other", "result") if operands == "xy" else ("self", "result")
    return {k for k in kinds if breaks(fn, operands, k)}


rows = []
for name in sorted(OPS):
    fn, operands = OPS[name]
    rows.append((name, saved(fn, operands)))

print("/* Generated by scripts/autograd_saved.py from torch %s: do not edit. */" % torch.__version__)
print('#include "autograd_saved.h"')
print()
print("#include <stdlib.h>")
print("#include <string.h>")
print()
print("static const al_autograd_saved TABLE[] = {")
for name, found in rows:
    flags = " | ".join(f for f, k in (("AL_SAVES_SELF", "self"), ("AL_SAVES_OTHER", "other"),
                                        ("AL_SAVES_RESULT", "result")) if k in found) or "0"
    print('    {"%s", %s},' % (name, flags))
print("};")
print("""
static int compare(const void *key, const void *entry)
{
    return strcmp(key, ((const al_autograd_saved *)entry)->name);
}

const al_autograd_saved *al_autograd_find(const char *name)
{
    return bsearch(name, TABLE, sizeof TABLE / sizeof *TABLE, sizeof *TABLE, compare);
}""")
