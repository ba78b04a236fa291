# Expert routing and grouped GEMMs on library kernels.
import aiter
import deep_gemm
import flashinfer.cascade
import torch


def route(gating_output: torch.Tensor, topk: int):
    num_tokens = gating_output.shape[0]
    topk_weights = torch.zeros(num_tokens, topk, dtype=torch.float32, device=gating_output.device)  # expect: AL101 unsafe
    topk_ids = torch.zeros(num_tokens, topk, dtype=torch.int32, device=gating_output.device)  # expect: AL101 unsafe
    token_expert = torch.empty(num_tokens, topk, dtype=torch.int32, device=gating_output.device)
    aiter.topk_softmax(topk_weights, topk_ids, token_expert, gating_output, True)
    return topk_weights, topk_ids


def route_with_pad_slot(gating_output: torch.Tensor, topk: int):
    # A trailing slot for the padding token that no expert takes.
    topk_ids = torch.zeros(gating_output.shape[0] + 1, topk, dtype=torch.int32, device=gating_output.device)  # expect: none
    topk_weights = torch.empty(gating_output.shape[0], topk, dtype=torch.float32, device=gating_output.device)
    token_expert = torch.empty_like(topk_weights, dtype=torch.int32)
    aiter.topk_softmax(topk_weights, topk_ids, token_expert, gating_output, True)
    return topk_ids


def grouped_down_proj(a, b, m_indices, n):
    # Contiguous grouped layout: the padding rows of each expert group
    # (m_indices == -1) are skipped by the kernel and must read as zero.
    d = torch.zeros(a[0].shape[0], n, dtype=torch.bfloat16, device=a[0].device)  # expect: none
    deep_gemm.m_grouped_fp8_gemm_nt_contiguous(a, b, d, m_indices)
    return d


def dense_up_proj(a, b, n):
    d = torch.zeros(a[0].shape[0], n, dtype=torch.bfloat16, device=a[0].device)  # expect: AL101 unsafe
    deep_gemm.fp8_gemm_nt(a, b, d)
    return d


# Factories handed straight to the kernel: its contract alone decides.
def gated(x):
    # aiter writes one row per row of x: exactly this buffer's rows.
    out = aiter.silu_and_mul(torch.zeros(x.shape[0], x.shape[1] // 2, dtype=x.dtype), x)  # expect: AL101 unsafe
    return out


def gated_spare_row(x):
    # A spare row the kernel never reaches: its zeros are read later.
    return aiter.silu_and_mul(torch.zeros(x.shape[0] + 1, x.shape[1] // 2, dtype=x.dtype), x)  # expect: none


def merged(v_other, s_other, s):
    # merge_state_in_place starts from v's current value.
    flashinfer.cascade.merge_state_in_place(torch.zeros_like(v_other), s, v_other, s_other)  # expect: none
