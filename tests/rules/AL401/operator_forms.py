# golden-args: --select AL401
# AL401 and how an update is spelled: the value's top operator must be the
# one after `x` (Python's precedence and left associativity decide), and a
# method must be one with an in-place form. Numbers, strings, brackets and
# lines continued in brackets hold signs that are no operator. Every function
# stands alone, so the prefilter's reading of each line decides whether
# it is looked at.
import torch


def exponent_literal(x):
    a = torch.sin(x)
    a = a * 1e-5  # expect: AL401 unsafe
    return a


def tighter_operand(x, y, s):
    b = torch.sin(x)
    b = b - y * s  # expect: AL401 unsafe
    return b


def negated_operand(x, s):
    c = torch.sin(x)
    c = c * -s  # expect: AL401 unsafe
    return c


def bracketed_operand(x, y, s):
    d = torch.sin(x)
    d = d - (y + s)  # expect: AL401 unsafe
    return d


def power_operand(x, s):
    e = torch.sin(x)
    e = e / s ** 2  # expect: AL401 unsafe
    return e


def spaced_method(x):
    g = torch.sin(x)
    g = g.clamp_min (0)  # expect: AL401 unsafe
    return g


def continued_line(x, y, s):
    h = torch.sin(x)
    h = h - (  # expect: AL401 unsafe
        y * s
        + 1
    )
    return h


def indexed_operand(x, y, n):
    k = torch.sin(x)
    k = k + y[n - 1]  # expect: AL401 unsafe
    return k


def looser_operator_after(x, y, s):
    a = torch.exp(x)
    a = a * s + y  # expect: none
    return a


def same_operator_after(x, y, s):
    b = torch.exp(x)
    b = b - y - s  # expect: none
    return b


def power_of_x(x):
    e = torch.exp(x)
    e = e ** 2  # expect: none
    return e


def floor_division(x):
    f = torch.exp(x)
    f = f // 2  # expect: none
    return f


def conditional_value(x, y, enabled):
    g = torch.exp(x)
    g = g - y if enabled else y  # expect: none
    return g


def view_method(x):
    h = torch.exp(x)
    h = h.view(-1)  # expect: none
    return h


def comparison_value(x, y):
    m = torch.exp(x)
    m = m - y > 0  # expect: none
    return m


@torch.inference_mode()
def capped_noise(sigma_next, sigma_down, ratio):
    # `torch.minimum(x, c)` in place is `x.clamp_(max=c)`; c is a tensor,
    # which may broadcast x larger or promote its dtype.
    sigma_up = torch.sqrt(sigma_next.square() - sigma_down.square() * ratio)
    sigma_up = torch.minimum(sigma_up, sigma_next * 0.9999)  # expect: AL401 unsafe
    return sigma_up


@torch.inference_mode()
def floored_scale(scale, eps_tensor):
    s = scale.abs().amax(dim=-1)
    s = torch.maximum(eps_tensor, s)  # expect: AL401 unsafe
    return s


@torch.inference_mode()
def capped_by_itself(x):
    # The bound reads x: no in-place form.
    y = torch.exp(x)
    y = torch.minimum(y, y.flip(0))  # expect: none
    return y
