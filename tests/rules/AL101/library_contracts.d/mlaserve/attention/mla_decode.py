# MLA decode on ROCm and the trtllm ragged prefill: buffers handed to
# library kernels whose contract names the rows they write, or says
# some rows are left as they were.
import torch
from flashinfer.prefill import trtllm_ragged_attention_deepseek

from mlaserve.attention.aiter_ops import aiter_mla_decode_fwd, write_first_half


class MLADecoder:
    def __init__(self, num_heads: int, kv_lora_rank: int, scale: float) -> None:
        self.num_heads = num_heads
        self.kv_lora_rank = kv_lora_rank
        self.scale = scale

    def decode(self, q, kv_buffer, kv_indptr, kv_indices, kv_last_page_lens):
        B = q.shape[0]
        o = torch.zeros(B, self.num_heads, self.kv_lora_rank, dtype=q.dtype, device=q.device)  # expect: AL101 unsafe
        aiter_mla_decode_fwd(q, kv_buffer, o, self.scale, kv_indptr, kv_indices, kv_last_page_lens)
        return o

    def decode_padded(self, q, kv_buffer, kv_indptr, kv_indices, kv_last_page_lens, max_batch):
        # Sized for the largest batch a CUDA graph replays: rows past q's
        # are never written by the kernel and stay zero.
        o = torch.zeros(max_batch, self.num_heads, self.kv_lora_rank, dtype=q.dtype, device=q.device)  # expect: none
        aiter_mla_decode_fwd(q, kv_buffer, o, self.scale, kv_indptr, kv_indices, kv_last_page_lens)
        return o


def ragged_prefill(q, k, v, workspace, seq_lens, cu_q, cu_kv, max_q, max_kv, scale, bs):
    # The ragged kernel leaves the rows of a sequence with no KV (a chunk
    # of a chunked prefill with nothing cached yet) unwritten: the zeros
    # are what the merge of the chunks reads there.
    out = torch.zeros(q.shape[0], q.shape[1], v.shape[2], device=q.device, dtype=torch.bfloat16)  # expect: none
    attn_out, lse = trtllm_ragged_attention_deepseek(
        query=q, key=k, value=v, workspace_buffer=workspace, seq_lens=seq_lens,
        max_q_len=max_q, max_kv_len=max_kv, bmm1_scale=scale, bmm2_scale=1.0,
        o_sf_scale=1.0, batch_size=bs, window_left=-1, cum_seq_lens_q=cu_q,
        cum_seq_lens_kv=cu_kv, enable_pdl=False, is_causal=True, return_lse=True,
        out=out,
    )
    return attn_out, lse


def ragged_prefill_spare_row(q, k, v, workspace, seq_lens, cu_q, cu_kv, max_q, max_kv, scale, bs):
    # One spare row for a sentinel token the kernel does not see.
    out = torch.zeros(q.shape[0] + 1, q.shape[1], v.shape[2], device=q.device, dtype=torch.bfloat16)  # expect: none
    trtllm_ragged_attention_deepseek(
        query=q, key=k, value=v, workspace_buffer=workspace, seq_lens=seq_lens,
        max_q_len=max_q, max_kv_len=max_kv, bmm1_scale=scale, bmm2_scale=1.0,
        o_sf_scale=1.0, batch_size=bs, window_left=-1, cum_seq_lens_q=cu_q,
        cum_seq_lens_kv=cu_kv, enable_pdl=False, is_causal=True, return_lse=False,
        out=out,
    )
    return out


def merge_partial_states(v_other, s_other):
    import flashinfer.cascade

    # merge_state_in_place reads v and s: the zero state is where it starts.
    v = torch.zeros_like(v_other)  # expect: none
    s = torch.full_like(s_other, float("-inf"))  # expect: none
    flashinfer.cascade.merge_state_in_place(v, s, v_other, s_other)
    return v, s


def half_written(src):
    out = torch.zeros_like(src)  # expect: none
    write_first_half(out, src)
    return out
