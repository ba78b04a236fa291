# The decode-step metadata of an attention backend.
import torch
import triton

from ..kernels import kv_index
from ..kernels.kv_index import _copy_indices_kernel, _count_tokens_kernel
from ..kernels.kv_index import _fill_req_rows_kernel as fill_rows
from fastattn.kernels.kv_index import _scale_rows_kernel, copy_all, launch_copy


def kv_indices(req_to_token, device):
    n = req_to_token.numel()
    kv = torch.zeros(n, dtype=torch.int32, device=device)  # expect: AL101 safe
    _copy_indices_kernel[(triton.cdiv(n, 128),)](kv, req_to_token, n, BLOCK=128)
    return kv


def kv_indices_through_module(req_to_token):
    kv = torch.zeros_like(req_to_token)  # expect: AL101 safe
    n = kv.numel()
    kv_index._copy_indices_kernel[(triton.cdiv(n, 128),)](kv, req_to_token, n, BLOCK=128)
    return kv


def valid_prefix(req_to_token, n_valid):
    # Only the first n_valid entries are written: the rest keep the zeros.
    kv = torch.zeros_like(req_to_token)  # expect: AL101 unsafe
    _copy_indices_kernel[(triton.cdiv(n_valid, 128),)](kv, req_to_token, n_valid, BLOCK=128)
    return kv


def expert_counts(expert_ids, num_experts):
    counts = torch.zeros(num_experts, dtype=torch.int32, device=expert_ids.device)  # expect: none
    n = expert_ids.numel()
    _count_tokens_kernel[(triton.cdiv(n, 256),)](counts, expert_ids, n, BLOCK=256)
    return counts


def request_rows(seq_lens, src):
    # Rows of empty requests are skipped by the kernel: they must stay zero.
    out = torch.zeros_like(src)  # expect: none
    rows, cols = src.shape
    fill_rows[(rows,)](out, seq_lens, src, src.stride(0), cols, BLOCK=triton.next_power_of_2(cols))
    return out


def scaled(x, scale):
    out = torch.zeros_like(x)  # expect: AL101 safe
    M, N = x.shape
    _scale_rows_kernel[(M,)](out, x, scale, N, N, BLOCK=triton.next_power_of_2(N))
    return out


def through_helper(src):
    buf = torch.zeros(src.numel(), dtype=src.dtype, device=src.device)  # expect: AL101 safe
    launch_copy(buf, src, buf.numel())
    return buf


def through_helper_short(src, n_tokens):
    # The helper covers [0, n_tokens): not proved to be the whole buffer.
    buf = torch.zeros(src.numel(), dtype=src.dtype, device=src.device)  # expect: AL101 unsafe
    launch_copy(buf, src, n_tokens)
    return buf


def through_self_bounded_helper(src):
    buf = torch.zeros_like(src)  # expect: AL101 safe
    copy_all(buf, src)
    return buf


def launched_by_caller(kernel, src):
    # The kernel is whatever the caller passes: nothing is known of it.
    buf = torch.zeros_like(src)  # expect: none
    n = src.numel()
    kernel[(triton.cdiv(n, 128),)](buf, src, n, BLOCK=128)
    return buf


def cu_seqlens(seq_lens, req_to_token):
    # Element 0 is never written: cumsum fills from index 1.
    cu = torch.zeros(seq_lens.numel() + 1, dtype=torch.int32, device=seq_lens.device)  # expect: none
    torch.cumsum(seq_lens, 0, out=cu[1:])
    n = cu.numel()
    _copy_indices_kernel[(triton.cdiv(n, 128),)](req_to_token, cu, n, BLOCK=128)
    return cu


def buckets(keys, num_buckets):
    # The kernel's parameters carry comments: positions still bind right.
    from fastattn.kernels.kv_index import _bucket_kernel

    counts = torch.zeros(num_buckets, dtype=torch.int32, device=keys.device)  # expect: none
    out = torch.zeros_like(keys)  # expect: AL101 safe
    n = keys.numel()
    _bucket_kernel[(triton.cdiv(n, 256),)](keys, counts, out, n, BLOCK=256)
    return counts, out
