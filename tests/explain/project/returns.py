import torch


def _reduce_into(inp: torch.Tensor, out: torch.Tensor = None):
    if out is None:
        out = torch.empty_like(inp)
    torch.mul(inp, 2.0, out=out)
    return out


@torch.inference_mode()
def reduce_positive(x: torch.Tensor):
    y = _reduce_into(x)
    y = torch.clamp(y, min=0)
    return y


class MeshReducer:
    def reduce_mesh(self, inp: torch.Tensor) -> torch.Tensor:
        return inp.sum(dim=0)


@torch.inference_mode()
def through_handle(handle, x: torch.Tensor):
    y = handle.reduce_mesh(x)
    y = torch.clamp(y, min=0)
    return y
