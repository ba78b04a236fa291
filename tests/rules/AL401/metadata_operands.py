# golden-args: --select AL401
# The other operand reads only the tensor's shape, dtype or device
# (`x.size(0)`, `x.dtype`): the update leaves those as they were, so the
# operand is like any other. Traps: an operand that reads x's elements (a
# view of it, an elementwise function of it).
import torch


@torch.inference_mode()
def normalise_by_width(n: int):
    x = torch.rand(n, 8, dtype=torch.float32)
    x = x / float(x.size(1))  # expect: AL401 unsafe
    return x


@torch.inference_mode()
def weight_rows(n: int, w: torch.Tensor):
    x = torch.rand(n, 8, dtype=torch.float32)
    x = x * w.view(x.size(0), 1)  # expect: AL401 unsafe
    return x


@torch.inference_mode()
def add_bias(n: int, bias: torch.Tensor):
    x = torch.rand(n, 8, dtype=torch.float32)
    x = x + bias.to(x.device, x.dtype)  # expect: AL401 unsafe
    return x


@torch.inference_mode()
def minus_view(n: int):
    x = torch.rand(n, 8, dtype=torch.float32)
    x = x - x.flip(0)  # expect: none
    return x


@torch.inference_mode()
def times_magnitude(n: int):
    x = torch.rand(n, 8, dtype=torch.float32)
    x = x * x.abs()  # expect: none
    return x
