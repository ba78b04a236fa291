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


def indexer_logits(q_fp8, kv_cache, weights, context_lens, kv_indices, max_len):
    # The kernel stops at each row's context length: the -inf past it is
    # what the top-k after it must see.
    from aiter.ops.triton.pa_mqa_logits import deepgemm_fp8_paged_mqa_logits

    rows = q_fp8.shape[0] * q_fp8.shape[1]
    logits = torch.full((rows, max_len), float("-inf"), device=q_fp8.device)  # expect: none
    deepgemm_fp8_paged_mqa_logits(q_fp8, kv_cache, weights, logits, context_lens, kv_indices,
                                  max_len)
    return torch.topk(logits, 64, dim=-1).indices


def indexer_logits_zeroed(q_fp8, kv_cache, weights, context_lens, kv_indices, max_len):
    from aiter.ops.triton.pa_mqa_logits import deepgemm_fp8_paged_mqa_logits

    logits = torch.zeros(q_fp8.shape[0], max_len, device=q_fp8.device)  # expect: none
    deepgemm_fp8_paged_mqa_logits(q_fp8, kv_cache, weights, out_logits=logits,
                                  context_lens=context_lens, kv_indices=kv_indices,
                                  max_model_len=max_len)
    return logits
