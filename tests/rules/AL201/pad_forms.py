# AL201 fixtures: the other spellings of zero padding around a tensor.
import torch
import torch.nn.functional as F


def conv_halo(x, n, k, m):
    # Zeros on both sides of the width dim: one F.pad instead of three
    # allocations.
    return torch.cat((torch.zeros(n, k, dtype=x.dtype), x, torch.zeros(n, m, dtype=x.dtype)), 1)  # expect: AL201 nofix


def pad_right(x, n):
    return torch.cat([x, torch.zeros(n, 2, dtype=x.dtype, device=x.device)], dim=-1)  # expect: AL201 nofix


def trailing_zero_after_cumsum(seq_lens):
    # The zero comes last: plain padding, not a prefix sum's leading zero.
    return torch.cat([torch.cumsum(seq_lens, 0, dtype=torch.int64), torch.zeros(1, dtype=torch.int64)])  # expect: AL201 nofix


def leading_tensor_literal(seq_lens):
    # torch.tensor([0]) is a one-element zero block too.
    cu = torch.cat([torch.tensor([0], dtype=torch.int32, device=seq_lens.device), torch.cumsum(seq_lens, 0, dtype=torch.int32)])  # expect: AL201 safe
    return cu


def cumsum_held_in_a_name(seq_lens):
    # The cumsum is bound just before and read only by the cat: the fix
    # takes its statement with it.
    cs = torch.cumsum(seq_lens, dim=0, dtype=torch.int32)
    cu = torch.cat([torch.zeros(1, dtype=torch.int32, device=seq_lens.device), cs])  # expect: AL201 safe
    return cu


def cumsum_method_rebound(lens):
    # Rebinding the same name: the cumsum's value dies at the cat.
    offsets = lens.cumsum(0, dtype=torch.int64)
    offsets = torch.concat([torch.tensor([0], dtype=torch.int64), offsets], dim=0)  # expect: AL201 safe
    return offsets


def cumsum_name_read_again(seq_lens):
    # `cs` is read after the cat: its statement must stay, no buffer fix.
    cs = torch.cumsum(seq_lens, dim=0, dtype=torch.int32)
    cu = torch.cat([torch.zeros(1, dtype=torch.int32), cs])  # expect: AL201 nofix
    return cu, cs[-1]


def cumsum_name_not_adjacent(seq_lens):
    # Something runs between the cumsum and the cat: left alone.
    cs = torch.cumsum(seq_lens, dim=0, dtype=torch.int32)
    seq_lens.add_(1)
    cu = torch.cat([torch.zeros(1, dtype=torch.int32), cs])  # expect: AL201 nofix
    return cu


def padded_cumsum(lengths):
    # F.pad writes its output twice; the buffer form writes it once.
    cu_seqlens = F.pad(torch.cumsum(lengths, dim=0, dtype=torch.int32), (1, 0))  # expect: AL201 safe
    return cu_seqlens


def padded_cumsum_keywords(seq_lens):
    cu = F.pad(torch.cumsum(seq_lens, dim=-1, dtype=torch.int64), pad=(1, 0), mode="constant", value=0)  # expect: AL201 safe
    return cu


def cumsum_of_its_own_name(cu_seqlens):
    # The buffer would be bound to `cu_seqlens` before the cumsum reads
    # `cu_seqlens`: it would read the new, empty buffer. No fix.
    cu_seqlens = torch.cumsum(cu_seqlens, dim=0, dtype=torch.int32)
    cu_seqlens = F.pad(cu_seqlens, (1, 0), "constant", 0)  # expect: AL201 nofix
    return cu_seqlens


def cat_of_its_own_name(offsets):
    offsets = torch.cat([torch.zeros(1, dtype=torch.int64), torch.cumsum(offsets, 0, dtype=torch.int64)])  # expect: AL201 nofix
    return offsets


class Metadata:
    cu_seqlens_k = None


def padded_into_an_attribute(metadata: Metadata, lengths):
    # An attribute target: the buffer form works, but the attribute holds
    # the empty buffer until the cumsum writes it (a property setter would
    # see that), so the fix is unsafe.
    metadata.cu_seqlens_k = F.pad(torch.cumsum(lengths, dim=0, dtype=torch.int32), (1, 0))  # expect: AL201 unsafe
    return metadata.cu_seqlens_k


def padded_into_an_attribute_it_reads(metadata: Metadata):
    metadata.cu_seqlens_k = F.pad(torch.cumsum(metadata.cu_seqlens_k, dim=0, dtype=torch.int32), (1, 0))  # expect: AL201 nofix
    return metadata.cu_seqlens_k


def padded_cumsum_returned(lengths):
    # Not `name = ...`: no place for the buffer's statements.
    return F.pad(torch.cumsum(lengths, dim=0, dtype=torch.int32), (1, 0))  # expect: AL201 nofix


def padded_cumsum_without_dtype(lengths):
    cu = F.pad(torch.cumsum(lengths, dim=0), (1, 0))  # expect: AL201 nofix
    return cu


def padded_with_minus_one(chunk_num):
    # value=-1: not a zero.
    return F.pad(chunk_num, (1, 0), value=-1).cumsum(0)  # expect: none


def padded_not_a_cumsum(x):
    # Already the spelling this rule suggests.
    out = F.pad(x, (1, 0))  # expect: none
    return out


def padded_on_the_right(lengths):
    cu = F.pad(torch.cumsum(lengths, dim=0, dtype=torch.int32), (0, 1))  # expect: none
    return cu


def zeros_in_every_place(n):
    # No tensor between the zeros.
    return torch.cat([torch.zeros(n), torch.zeros(n), torch.zeros(n)])  # expect: none


def four_parts(a, n):
    return torch.cat([torch.zeros(n), a, a, torch.zeros(n)])  # expect: none


def float_prefix_weights(w):
    # A float prefix sum has a gradient: cumsum with `out=` raises when `w`
    # requires grad, where F.pad does not.
    offsets = F.pad(torch.cumsum(w, 0, dtype=torch.float32), (1, 0))  # expect: AL201 unsafe
    return offsets


def float_prefix_cat(w):
    offsets = torch.cat([torch.zeros(1, dtype=torch.float32), torch.cumsum(w, 0, dtype=torch.float32)])  # expect: AL201 unsafe
    return offsets


@torch.no_grad()
def float_prefix_no_grad(w):
    offsets = F.pad(torch.cumsum(w, 0, dtype=torch.float32), (1, 0))  # expect: AL201 safe
    return offsets
