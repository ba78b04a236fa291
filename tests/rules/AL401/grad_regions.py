# golden-args: --select AL401
# AL401 fixtures: where autograd is off, and for how much of a tensor's
# life. An in-place update is free of autograd only when the tensor was
# made, read and updated with autograd off: a graph recorded before the
# `no_grad()` block may have saved the old value (exp saves its result),
# and `enable_grad` / `set_grad_enabled` inside the block turn it back on.
# Each trap below computes the same forward values after its unsafe fix,
# but its backward raises ("modified by an inplace operation").
import torch


def made_inside_the_block(x):
    # Made, updated and returned with autograd off; read after it, where
    # only the updated tensor exists.
    with torch.no_grad():
        probs = torch.softmax(x, dim=-1)
        probs = probs * 0.5  # expect: AL401 safe
    return probs


def each_step_inside(x, n: int):
    # The loop runs the whole life of `acc` inside one inference block.
    outs = []
    for _ in range(n):
        with torch.inference_mode():
            acc = torch.exp(x)
            acc = acc.clamp(max=4.0)  # expect: AL401 safe
            outs.append(acc.sum().item())
    return outs


@torch.no_grad()
def decorated_rescale(x):
    scores = torch.sigmoid(x)
    scores = scores * 2.0  # expect: AL401 safe
    return scores


def saved_before_the_block(x):
    # exp saved its result for backward, with autograd on; the block's
    # update would change the tensor backward reads.
    y = torch.exp(x)
    z = y * 2
    with torch.no_grad():
        y = y + 1  # expect: AL401 unsafe
    return z, y


def read_in_a_loop_around(x, n: int):
    # Made and updated with autograd off, but `x * h` (autograd on) saves
    # it, and the next pass updates what it saved.
    total = torch.zeros_like(x)
    for i in range(n):
        with torch.no_grad():
            if i == 0:
                h = torch.exp(x)
            h = h + 1  # expect: AL401 unsafe
        total = total + x * h  # expect: AL401 unsafe
    return total


def turned_back_on(x):
    with torch.no_grad():
        with torch.enable_grad():
            y = torch.sin(x)
            y = y + 1  # expect: AL401 unsafe
    return y


@torch.no_grad()
def turned_back_on_inside_decorated(x):
    with torch.enable_grad():
        y = torch.sin(x)
        y = y + 1  # expect: AL401 unsafe
    return y


def switched_by_a_call(x):
    with torch.no_grad():
        torch.set_grad_enabled(True)
        y = torch.sin(x)
        y = y + 1  # expect: AL401 unsafe
        torch.set_grad_enabled(False)
    return y


def mode_from_a_value(x, training: bool):
    # `inference_mode(False)` (here from a flag) does not turn autograd off.
    with torch.inference_mode():
        with torch.inference_mode(not training):
            y = torch.sin(x)
            y = y + 1  # expect: AL401 unsafe
    return y


@torch.inference_mode()
def _embed(x):
    return torch.exp(x)


@torch.no_grad()
def made_in_an_inference_block(x):
    # An inference tensor updated in place outside inference mode raises:
    # no_grad() does not turn inference mode on.
    with torch.inference_mode():
        y = torch.exp(x)
    y = y.clamp(min=1)  # expect: AL401 unsafe
    return y


@torch.no_grad()
def returned_by_an_inference_helper(x):
    e = _embed(x)
    e = e.clamp(min=1)  # expect: AL401 unsafe
    return e


def no_grad_inside_inference(x):
    # Inference mode stays on under the inner no_grad(): the helper's
    # inference tensor may be updated there.
    with torch.inference_mode():
        e = _embed(x)
        with torch.no_grad():
            e = e.clamp(min=1)  # expect: AL401 safe
    return e


def _scaled_scores(x):
    # Every call of this private helper in its file runs with autograd off;
    # a caller in another file is assumed not to exist: unsafe, said.
    s = torch.softmax(x, dim=-1)
    s = s * 2.0  # expect: AL401 unsafe
    return s


def _rescaled(x):
    # Called only by _scaled_twice, itself called only under no_grad().
    s = torch.softmax(x, dim=-1)
    s = s * 0.5  # expect: AL401 unsafe
    return s


def _scaled_twice(x):
    return _rescaled(x) + _rescaled(x * 2.0)


@torch.inference_mode()
def serve_scores(x):
    return _scaled_scores(x)


def eval_scores(x):
    with torch.no_grad():
        return _scaled_scores(x), _scaled_twice(x)


def _trained_scores(x):
    # One call runs with autograd on.
    s = torch.softmax(x, dim=-1)
    s = s * 2.0  # expect: none (softmax saved its result)
    return s


def train_and_eval(x):
    with torch.no_grad():
        a = _trained_scores(x)
    return a + _trained_scores(x)
