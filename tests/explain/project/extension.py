"""A result of the project's own compiled extension."""
import torch

from xeng._C import ops as xops


@torch.inference_mode()
def gemm_relu(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    out = xops.xeng_split_gemm(x, w, 4)
    out = out.clamp(min=0)
    return out
