# Thin wrappers over ROCm's aiter MLA kernels, as engines keep them.
import torch
from aiter.mla import mla_decode_fwd


def aiter_mla_decode_fwd(
    q: torch.Tensor,
    kv_buffer: torch.Tensor,
    o: torch.Tensor,
    sm_scale: float,
    kv_indptr: torch.Tensor,
    kv_indices: torch.Tensor,
    kv_last_page_lens: torch.Tensor,
) -> None:
    mla_decode_fwd(q, kv_buffer.view(-1, 1, 1, q.shape[-1]), o, kv_indptr, kv_indices,
                   kv_last_page_lens, sm_scale=sm_scale)


def write_first_half(out: torch.Tensor, src: torch.Tensor) -> None:
    # Only the leading half of the rows is produced here; the rest keeps
    # whatever the caller put there.
    half = out.shape[0] // 2
    out[:half] = src[:half]
