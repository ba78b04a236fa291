# MLA decode on Ascend: the fused inference attention's out= variant takes
# its outputs as a list, the attention output first.
import torch
import torch_npu


def mla_decode(q_nope, q_rope, kv_cache, k_rope_cache, block_tables, seq_lens_kv, num_heads,
               num_kv_heads, page_size, scale, workspace):
    output = torch.zeros_like(q_nope, dtype=q_nope.dtype, device=q_nope.device)  # expect: AL101 unsafe
    softmax_lse = torch.empty(1, dtype=q_nope.dtype, device=q_nope.device)
    torch_npu.npu_fused_infer_attention_score.out(
        q_nope, kv_cache, kv_cache,
        query_rope=q_rope, key_rope=k_rope_cache, num_heads=num_heads,
        num_key_value_heads=num_kv_heads, block_table=block_tables, block_size=page_size,
        input_layout="BNSD", scale=scale, actual_seq_lengths_kv=seq_lens_kv, sparse_mode=0,
        workspace=workspace, out=[output, softmax_lse],
    )
    return output


def mla_decode_lse(q_nope, kv_cache, block_tables, seq_lens_kv, num_heads, scale, workspace):
    # The log-sum-exp slot: nothing here says what of it is written.
    output = torch.empty_like(q_nope)
    softmax_lse = torch.zeros(q_nope.shape[0], num_heads, 1, dtype=torch.float32, device=q_nope.device)  # expect: none
    torch_npu.npu_fused_infer_attention_score.out(
        q_nope, kv_cache, kv_cache, num_heads=num_heads, block_table=block_tables,
        input_layout="BNSD", scale=scale, actual_seq_lengths_kv=seq_lens_kv,
        workspace=workspace, out=[output, softmax_lse],
    )
    return output, softmax_lse


def mla_decode_graph_batch(q_nope, kv_cache, block_tables, seq_lens_kv, num_heads, scale,
                           workspace, max_batch):
    # Rows for the largest batch a graph replays: those past q's stay zero.
    output = torch.zeros(max_batch, *q_nope.shape[1:], dtype=q_nope.dtype, device=q_nope.device)  # expect: none
    softmax_lse = torch.empty(1, dtype=q_nope.dtype, device=q_nope.device)
    torch_npu.npu_fused_infer_attention_score.out(
        q_nope, kv_cache, kv_cache, num_heads=num_heads, block_table=block_tables,
        input_layout="BNSD", scale=scale, actual_seq_lengths_kv=seq_lens_kv,
        workspace=workspace, out=[output, softmax_lse],
    )
    return output


def gather_pair(q_nope, cache):
    # A list handed to a function that is not an output.
    rows = torch.zeros_like(q_nope)  # expect: none
    torch_npu.npu_format_cast([rows, cache], 2)
    return rows
