# golden-args: --select AL401
# Where autograd may be on, an op that saved a tensor for its backward
# (its result: exp, sigmoid, softmax; an operand: mul, matmul, pow) makes
# that backward() raise once the tensor is updated in place: no fix, not
# even unsafe. Which op saves what is generated from torch itself
# (scripts/autograd_saved.py). Ops that save nothing of it leave the
# usual unsafe fix (autograd not shown off).
import torch


def gate(logits, bias):
    probs = torch.sigmoid(logits + bias)
    probs = probs * 2.0  # expect: none (sigmoid saved its result)
    return probs


def attention_weights(scores, mask):
    weights = torch.softmax(scores, dim=-1)
    weights = weights.masked_fill(mask, 0.0)  # expect: none (softmax saved its result)
    return weights


def scaled_residual(h, r, w):
    x = torch.add(h, r)
    y = x * w  # mul keeps x for w's gradient
    x = x - 1.0  # expect: none (mul saved x as its input)
    return x, y


def projected(h, r, weight):
    x = torch.add(h, r)
    out = torch.matmul(weight, x)
    x = x + 1.0  # expect: none (matmul saved x as its other operand)
    return x, out


def scaled_by_number(h, r):
    x = torch.add(h, r)
    y = x * 2.0  # a Python number: mul saves nothing of x
    x = x - 1.0  # expect: AL401 unsafe
    return x, y


def exp_of_it(h, r):
    x = torch.add(h, r)
    y = torch.exp(x)  # exp keeps its result, not x
    x = x - 1.0  # expect: AL401 unsafe
    return x, y


@torch.inference_mode()
def gate_for_inference(logits, bias):
    # Autograd is off: nothing is saved.
    probs = torch.sigmoid(logits + bias)
    probs = probs * 2.0  # expect: AL401 safe
    return probs


def normed(h, r, weight, eps):
    # pow and mul keep the x they were given, not the product the name
    # holds from the rebinding on: the product is saved by nothing.
    x = torch.add(h, r)
    variance = x.pow(2).mean(dim=-1, keepdim=True)
    x = x * torch.rsqrt(variance + eps)
    x = x * weight  # expect: AL401 unsafe
    return x


def normed_parameter(x, weight, eps):
    variance = x.pow(2).mean(dim=-1, keepdim=True)
    x = x * torch.rsqrt(variance + eps)
    x = x * weight  # expect: none (x is a parameter of unstated type)
    return x


def branch_bound(h, r, use_exp):
    # The binding that reaches the update may be either branch's.
    if use_exp:
        x = torch.exp(h)
    else:
        x = h * 2.0
    x = x + r  # expect: none (exp saved its result in one branch)
    return x


def decay_steps(h, w, steps):
    x = torch.add(h, 1.0)
    outs = []
    for _ in range(steps):
        x = x * 0.5  # expect: none (the mul below saved x on the iteration before)
        outs.append(torch.mul(x, w))
    return x, outs


def fresh_each_step(h, w, steps):
    outs = []
    for _ in range(steps):
        x = torch.add(h, 1.0)
        x = x * 0.5  # expect: AL401 unsafe
        outs.append(torch.mul(x, w))
    return outs


def delta_rule(state, keys, values, gates):
    # The matmul keeps the decayed state, but the update below rebinds the
    # name before the loop comes round: the next decay updates that new
    # sum, which nothing saved.
    state = torch.add(state, 0.0)
    outs = []
    for k, v, g in zip(keys, values, gates):
        state = state * g  # expect: AL401 unsafe
        pred = torch.matmul(state, k)
        state = state + torch.outer(v - pred, k)  # expect: none (matmul saved state)
        outs.append(pred)
    return state, outs


class Scaled(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = torch.nn.LayerNorm(dim)
        self.scale = torch.nn.Parameter(torch.ones(dim))

    def forward(self, h):
        # `self.norm` is a submodule named like torch.norm, which would
        # save its result: what the module keeps is not known.
        x = self.norm(h)
        x = x * self.scale  # expect: AL401 unsafe
        return x
