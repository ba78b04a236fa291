# Workspace helpers shared by the layers.
import torch


def resize_cache(x: torch.Tensor, v: tuple) -> torch.Tensor:
    # A view of the first prod(v) elements of a flat workspace.
    numel = 1
    for d in v:
        numel *= d
    return x.flatten()[:numel].view(*v)


def as_rows(x: torch.Tensor, cols: int) -> torch.Tensor:
    return x.view(-1, cols)


def maybe_staged(x: torch.Tensor, staged: bool) -> torch.Tensor:
    if staged:
        return torch.empty_like(x)
    return x
