# Builders of the flat KV index tensor a paged decode step reads.
import torch
import triton

from pagedkv.kernels.segments import (
    gather_after_header_kernel,
    gather_by_indptr_kernel,
    gather_slots_kernel,
    gather_sparse_kernel,
)


def build_kv_indices(slot_table, req_ids, seq_lens):
    # starts: zeros then the cumulative lengths; the buffer holds their sum.
    bs = seq_lens.shape[0]
    kv_indptr = torch.zeros(bs + 1, dtype=torch.int32, device=seq_lens.device)
    kv_indptr[1:] = torch.cumsum(seq_lens, dim=0)
    total = int(kv_indptr[-1].item())
    kv_indices = torch.zeros(total, dtype=torch.int32, device=seq_lens.device)  # expect: AL101 safe
    gather_slots_kernel[(bs,)](
        slot_table, req_ids, seq_lens, kv_indptr, kv_indices, slot_table.stride(0), BLOCK=512
    )
    return kv_indptr, kv_indices


def build_kv_indices_cat(slot_table, req_ids, seq_lens):
    # The same prefix sum spelled with torch.cat; sized by the lengths' sum.
    kv_indptr = torch.cat([seq_lens.new_zeros(1), seq_lens.cumsum(0)])
    kv_indices = torch.zeros(seq_lens.sum().item(), dtype=torch.int32, device=seq_lens.device)  # expect: AL101 safe
    gather_by_indptr_kernel[(seq_lens.shape[0],)](
        slot_table, req_ids, kv_indptr, kv_indices, slot_table.stride(0), BLOCK=256
    )
    return kv_indptr, kv_indices


def build_kv_indices_capacity(slot_table, req_ids, seq_lens, max_tokens):
    # Sized by a capacity, not by the lengths: the tail past their sum
    # keeps its zeros, which the decode step may read as slot 0.
    bs = seq_lens.shape[0]
    kv_indptr = torch.zeros(bs + 1, dtype=torch.int32, device=seq_lens.device)
    kv_indptr[1:] = torch.cumsum(seq_lens, dim=0)
    kv_indices = torch.zeros(max_tokens, dtype=torch.int32, device=seq_lens.device)  # expect: none
    gather_slots_kernel[(bs,)](
        slot_table, req_ids, seq_lens, kv_indptr, kv_indices, slot_table.stride(0), BLOCK=512
    )
    return kv_indices


def build_kv_indices_padded(slot_table, req_ids, seq_lens):
    # Each segment is followed by one pad slot: the starts sum the padded
    # lengths, the kernel writes only the real ones. The pads stay zero.
    bs = seq_lens.shape[0]
    kv_indptr = torch.zeros(bs + 1, dtype=torch.int32, device=seq_lens.device)
    kv_indptr[1:] = torch.cumsum(seq_lens + 1, dim=0)
    kv_indices = torch.zeros(int(kv_indptr[-1].item()), dtype=torch.int32, device=seq_lens.device)  # expect: none
    gather_slots_kernel[(bs,)](
        slot_table, req_ids, seq_lens, kv_indptr, kv_indices, slot_table.stride(0), BLOCK=512
    )
    return kv_indices


def build_kv_indices_with_sink(slot_table, seq_lens):
    # The kernel leaves each segment's first slot to the caller.
    bs = seq_lens.shape[0]
    kv_indptr = torch.zeros(bs + 1, dtype=torch.int32, device=seq_lens.device)
    kv_indptr[1:] = torch.cumsum(seq_lens, dim=0)
    kv_indices = torch.zeros(int(kv_indptr[-1].item()), dtype=torch.int32, device=seq_lens.device)  # expect: none
    gather_after_header_kernel[(bs,)](slot_table, seq_lens, kv_indptr, kv_indices, slot_table.stride(0), BLOCK=128)
    return kv_indices


def build_kv_indices_sparse(slot_table, seq_lens):
    # Requests with a free first slot are skipped by the kernel.
    bs = seq_lens.shape[0]
    kv_indptr = torch.zeros(bs + 1, dtype=torch.int32, device=seq_lens.device)
    kv_indptr[1:] = torch.cumsum(seq_lens, dim=0)
    kv_indices = torch.zeros(int(kv_indptr[-1].item()), dtype=torch.int32, device=seq_lens.device)  # expect: none
    gather_sparse_kernel[(bs,)](slot_table, seq_lens, kv_indptr, kv_indices, slot_table.stride(0), BLOCK=128)
    return kv_indices


class PagedIndexBuilder:
    def __init__(self, max_reqs, device):
        self.kv_indptr = torch.zeros(max_reqs + 1, dtype=torch.int32, device=device)

    def build(self, slot_table, req_ids, seq_lens):
        # The starts live on the builder, written elsewhere: not proved here.
        bs = seq_lens.shape[0]
        kv_indices = torch.zeros(int(seq_lens.sum().item()), dtype=torch.int32, device=seq_lens.device)  # expect: AL101 unsafe
        gather_slots_kernel[(bs,)](
            slot_table, req_ids, seq_lens, self.kv_indptr, kv_indices, slot_table.stride(0), BLOCK=512
        )
        return kv_indices


def build_kv_indices_shifted(slot_table, req_ids, seq_lens):
    # The starts are moved after the prefix sum: segment 0 no longer
    # starts at 0, and the first four slots are never written.
    bs = seq_lens.shape[0]
    kv_indptr = torch.zeros(bs + 1, dtype=torch.int32, device=seq_lens.device)
    kv_indptr[1:] = torch.cumsum(seq_lens, dim=0)
    kv_indptr.add_(4)
    kv_indices = torch.zeros(int(kv_indptr[-1].item()), dtype=torch.int32, device=seq_lens.device)  # expect: AL101 unsafe
    gather_slots_kernel[(bs,)](
        slot_table, req_ids, seq_lens, kv_indptr, kv_indices, slot_table.stride(0), BLOCK=512
    )
    return kv_indices


def build_kv_indices_stale_total(slot_table, req_ids, seq_lens, kv_indptr):
    # The size is read from the previous step's starts, before they are
    # rebuilt for this step's lengths.
    total = int(kv_indptr[-1].item())
    kv_indptr = torch.zeros(seq_lens.shape[0] + 1, dtype=torch.int32, device=seq_lens.device)
    kv_indptr[1:] = torch.cumsum(seq_lens, dim=0)
    kv_indices = torch.zeros(total, dtype=torch.int32, device=seq_lens.device)  # expect: AL101 unsafe
    gather_slots_kernel[(seq_lens.shape[0],)](
        slot_table, req_ids, seq_lens, kv_indptr, kv_indices, slot_table.stride(0), BLOCK=512
    )
    return kv_indices


def build_kv_indices_sized_by_caller(slot_table, req_ids, seq_lens, num_slots):
    # The caller passes the size; nothing here ties it to the lengths, so
    # it may be a capacity, as `max_tokens` above (the name says nothing):
    # the tail past the sum keeps its zeros.
    kv_indptr = torch.cat([torch.zeros(1, dtype=seq_lens.dtype, device=seq_lens.device), torch.cumsum(seq_lens, dim=0)])
    kv_indices = torch.zeros(num_slots, dtype=torch.int32, device=seq_lens.device)  # expect: none
    gather_slots_kernel[(len(seq_lens),)](
        slot_table, req_ids, seq_lens, kv_indptr, kv_indices, slot_table.stride(0), BLOCK=512
    )
    return kv_indices


def build_kv_indices_first_reqs(slot_table, req_ids, seq_lens, num_reqs):
    # Only the first num_reqs requests are gathered: the later segments of
    # the buffer keep their zeros.
    kv_indptr = torch.zeros(seq_lens.shape[0] + 1, dtype=torch.int32, device=seq_lens.device)
    kv_indptr[1:] = torch.cumsum(seq_lens, dim=0)
    kv_indices = torch.zeros(int(kv_indptr[-1].item()), dtype=torch.int32, device=seq_lens.device)  # expect: AL101 unsafe
    gather_slots_kernel[(num_reqs,)](
        slot_table, req_ids, seq_lens, kv_indptr, kv_indices, slot_table.stride(0), BLOCK=512
    )
    return kv_indices


def build_kv_indices_counted(slot_table, req_ids, seq_lens, num_reqs):
    # The starts' size comes from the caller's count: a (1, num_reqs)
    # seq_lens would pass `kv_indptr[1:] = ...` with its leading 1 dropped,
    # and its cumsum along dim 0 is no prefix sum. Not proved.
    kv_indptr = torch.zeros(num_reqs + 1, dtype=torch.int32, device=seq_lens.device)
    kv_indptr[1:] = torch.cumsum(seq_lens, dim=0)
    kv_indices = torch.zeros(int(kv_indptr[-1].item()), dtype=torch.int32, device=seq_lens.device)  # expect: AL101 unsafe
    gather_slots_kernel[(num_reqs,)](
        slot_table, req_ids, seq_lens, kv_indptr, kv_indices, slot_table.stride(0), BLOCK=512
    )
    return kv_indices


def build_kv_indices_counted_last_dim(slot_table, req_ids, seq_lens, num_reqs):
    # The same summed along the last dimension: whatever seq_lens's shape,
    # what the assignment accepts is the prefix sum of its elements.
    kv_indptr = torch.zeros(num_reqs + 1, dtype=torch.int32, device=seq_lens.device)
    kv_indptr[1:] = torch.cumsum(seq_lens, dim=-1)
    kv_indices = torch.zeros(int(kv_indptr[-1].item()), dtype=torch.int32, device=seq_lens.device)  # expect: AL101 safe
    gather_slots_kernel[(num_reqs,)](
        slot_table, req_ids, seq_lens, kv_indptr, kv_indices, slot_table.stride(0), BLOCK=512
    )
    return kv_indices


def build_kv_indices_by_numel(slot_table, req_ids, seq_lens):
    # numel() + 1 entries: a (1, n) seq_lens has n elements too, so the
    # assignment would take its dim-0 cumsum, which is seq_lens itself.
    kv_indptr = torch.zeros(seq_lens.numel() + 1, dtype=torch.int32, device=seq_lens.device)
    kv_indptr[1:] = torch.cumsum(seq_lens, dim=0)
    kv_indices = torch.zeros(int(kv_indptr[-1].item()), dtype=torch.int32, device=seq_lens.device)  # expect: AL101 unsafe
    gather_slots_kernel[(seq_lens.numel(),)](
        slot_table, req_ids, seq_lens, kv_indptr, kv_indices, slot_table.stride(0), BLOCK=512
    )
    return kv_indices
