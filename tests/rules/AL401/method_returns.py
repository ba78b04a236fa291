# AL401 through what functions and methods of the project return (issue
# 43, item 1): a path that returns None gives no tensor (an update of the
# value fails there), a parameter left at its default None is not the
# caller's tensor, and a method of an object whose class is not known is
# the meet over the project's methods of that name (at most four), an
# assumption at best.
import torch


def _maybe_scaled(x: torch.Tensor, scale: float):
    if x.numel() == 0:
        return None
    return x * scale


@torch.inference_mode()
def none_on_one_path(x: torch.Tensor):
    y = _maybe_scaled(x, 2.0)
    y = torch.clamp(y, min=0)  # expect: AL401 safe
    return y


def _reduce_into(inp: torch.Tensor, out: torch.Tensor = None):
    if out is None:
        out = torch.empty_like(inp)
    torch.mul(inp, 2.0, out=out)
    return out


@torch.inference_mode()
def default_left_none(x: torch.Tensor):
    y = _reduce_into(x)
    y = torch.clamp(y, min=0)  # expect: AL401 safe
    return y


@torch.inference_mode()
def output_handed_in(x: torch.Tensor, buf: torch.Tensor):
    # The caller's `buf` comes back: not this function's to update.
    y = _reduce_into(x, buf)
    y = y - 1  # expect: none
    return y


class RingReducer:
    def __init__(self, world: int):
        self.world = world

    def all_reduce_ring(self, inp: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(inp)
        torch.mul(inp, float(self.world), out=out)
        return out

    def peek_last(self, inp: torch.Tensor) -> torch.Tensor:
        return self.last


class Gateway:
    def peek_last(self, inp: torch.Tensor) -> torch.Tensor:
        return inp * 1.0


_HANDLE = None


def get_reducer():
    return _HANDLE


@torch.inference_mode()
def through_a_handle(x: torch.Tensor):
    # The handle's class is not known here; the project's one
    # `all_reduce_ring` returns a new tensor.
    reducer = get_reducer()
    y = reducer.all_reduce_ring(x)
    y = y * 2  # expect: AL401 unsafe
    return y


@torch.inference_mode()
def one_of_them_keeps(x: torch.Tensor):
    # One `peek_last` of the project returns what the object holds.
    reducer = get_reducer()
    y = reducer.peek_last(x)
    y = y * 2  # expect: none
    return y


class Journal:
    def log(self, msg):
        print(msg)


@torch.inference_mode()
def tensor_method_named_like_a_project_one(x: torch.Tensor):
    # `z.log()` is the tensor's method, whatever the project calls `log`.
    z = x.exp()
    z = z.log()
    z = torch.clamp(z, min=0)  # expect: AL401 unsafe
    return z


# A callable a method returns, then called: what it returns.
def _project(x: torch.Tensor, w: torch.Tensor):
    return torch.matmul(x, w)


def _pass_through(x: torch.Tensor, w: torch.Tensor):
    return x


class ProjectionHead(torch.nn.Module):
    def pick(self):
        return _project

    def pick_passthrough(self):
        return _pass_through

    @torch.inference_mode()
    def forward(self, x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor):
        proj = self.pick()
        y = proj(x, w)
        y = y + bias  # expect: AL401 unsafe
        return y

    @torch.inference_mode()
    def forward_passthrough(self, x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor):
        # The function handed back returns its argument: the caller's x.
        proj = self.pick_passthrough()
        y = proj(x, w)
        y = y + bias  # expect: none
        return y


# A module whose instance replaces its own forward: the class's forward
# is not what runs, so what it returns is only assumed new.
class Sampler(torch.nn.Module):
    def __init__(self, fast: bool):
        super().__init__()
        if fast:
            self.forward = self.forward_passthrough

    def forward(self, x: torch.Tensor):
        return x * 2.0

    def forward_passthrough(self, x: torch.Tensor):
        return x


class SamplerHead(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.sampler = Sampler(fast=True)

    @torch.inference_mode()
    def forward(self, x: torch.Tensor):
        y = self.sampler(x)
        y = torch.clamp(y, min=0)  # expect: AL401 unsafe
        return y
