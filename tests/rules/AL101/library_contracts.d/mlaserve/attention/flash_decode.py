# Decode through flash-attention with a paged KV cache: the batch form
# writes one output row per query row, even for a sequence whose cache
# is empty; the packed (varlen) form writes only the rows its sequences
# cover.
import torch
from sgl_kernel.flash_attn import flash_attn_with_kvcache
from vllm.vllm_flash_attn import flash_attn_varlen_func


def decode_batch(q, k_cache, v_cache, page_table, cache_seqlens, scale):
    out = torch.zeros_like(q)  # expect: AL101 unsafe
    flash_attn_with_kvcache(
        q=q, k_cache=k_cache, v_cache=v_cache, page_table=page_table,
        cache_seqlens=cache_seqlens, softmax_scale=scale, causal=True, out=out,
    )
    return out


def decode_batch_explicit_none(q, k_cache, v_cache, page_table, cache_seqlens):
    out = torch.zeros_like(q)  # expect: AL101 unsafe
    flash_attn_with_kvcache(q, k_cache, v_cache, page_table=page_table,
                            cache_seqlens=cache_seqlens, cu_seqlens_q=None, out=out)
    return out


def decode_packed(q, k_cache, v_cache, page_table, cache_seqlens, cu_seqlens_q, max_q):
    # Packed query rows: a captured graph's padding rows belong to no
    # sequence and keep the zeros.
    out = torch.zeros_like(q)  # expect: none
    flash_attn_with_kvcache(
        q=q, k_cache=k_cache, v_cache=v_cache, page_table=page_table,
        cache_seqlens=cache_seqlens, cu_seqlens_q=cu_seqlens_q, max_seqlen_q=max_q,
        out=out,
    )
    return out


def decode_other_version(q, k_cache, v_cache, cache_seqlens, impl_ver):
    # Another kernel version: nothing here says what it writes.
    out = torch.zeros_like(q)  # expect: none
    flash_attn_with_kvcache(q, k_cache, v_cache, cache_seqlens=cache_seqlens, ver=impl_ver,
                            out=out)
    return out


def decode_forwarded(q, k_cache, v_cache, out_rows, **kwargs):
    # The keyword arguments may carry cu_seqlens_q.
    out = torch.zeros(out_rows, *q.shape[1:], dtype=q.dtype, device=q.device)  # expect: none
    flash_attn_with_kvcache(q, k_cache, v_cache, out=out, **kwargs)
    return out


def prefill_varlen(q, k, v, cu_seqlens_q, cu_seqlens_k, max_q, max_k):
    # Rows past cu_seqlens_q[-1] are no sequence's: they keep the zeros.
    out = torch.zeros_like(q)  # expect: none
    flash_attn_varlen_func(q, k, v, max_seqlen_q=max_q, cu_seqlens_q=cu_seqlens_q,
                           max_seqlen_k=max_k, cu_seqlens_k=cu_seqlens_k, out=out)
    return out
