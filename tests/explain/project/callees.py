import torch
from vendor_kernels import fused_rope


def rotary_cache(positions: torch.Tensor, dim: int) -> torch.Tensor:
    cache = torch.zeros(positions.shape[0], dim, device=positions.device)
    fused_rope(cache, positions)
    return cache
