# AL401: a tensor this code already updates in place on every path
# before (`out *= scale`) has shown whoever else may hold it that it
# changes; a later `out = out + shared` in place is assumed as safe as
# that one, never proved: unsafe at most, and only when some binding
# shows `out` is a tensor at all.
import torch
from torch import nn


class SparseMoE(nn.Module):
    def __init__(self, hidden, ep_size, dispatcher, scale):
        super().__init__()
        self.experts = nn.Linear(hidden, hidden, bias=False)
        self.ep_size = ep_size
        self.dispatcher = dispatcher
        self.scale = scale

    def forward(self, hidden, shared):
        out = self.experts(hidden)
        if self.ep_size > 1:
            # an object handed in: what it returns is not followed
            out = self.dispatcher.combine(out)
        out *= self.scale
        if shared is not None:
            out = out + shared  # expect: AL401 unsafe
        return out

    def forward_scaled_in_branch(self, hidden, shared):
        # Scaled in place only on the expert-parallel path.
        out = self.experts(hidden)
        if self.ep_size > 1:
            out = self.dispatcher.combine(out)
            out *= self.scale
        out = out + shared  # expect: none
        return out


def output_stage(state, scale):
    # Nothing says what the state holds: `*=` works on a number too.
    out = state.pop("hidden_after_combine")
    out *= scale
    s = state.pop("shared_output")
    if s is not None:
        out = out + s  # expect: none
    state["mlp_output"] = out


def residual_update(x, residual):
    # The caller's tensor, already changed in place before the branch.
    x.mul_(0.5)
    if residual is not None:
        x = x + residual  # expect: AL401 unsafe
    return x
