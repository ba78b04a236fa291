# Two cats in one function that each need a new name for their output: the
# report names them as --fix writes them (--fix applies the first, then
# proves the second on its text, where `x_cat` is taken), so the report's
# fixes can be applied together.
import torch


def rotary_features(positions, dim):
    with torch.inference_mode():
        x = positions[:, None] * torch.exp(torch.arange(dim) * -0.5)[None, :]
        x = torch.cat([x.sin(), x.cos()], dim=-1)  # expect: AL204 safe
        x = torch.cat([x.sin(), x.cos()], dim=-1)  # expect: AL204 unsafe
    return x


def separate(positions, dim):
    # Different operands, different names: nothing to share.
    with torch.inference_mode():
        x = positions[:, None] * torch.exp(torch.arange(dim) * -0.5)[None, :]
        y = x * 2.0
        x = torch.cat([x.exp(), x.neg()], dim=-1)  # expect: AL204 safe
        y = torch.cat([y.exp(), y.neg()], dim=-1)  # expect: AL204 safe
    return x, y
