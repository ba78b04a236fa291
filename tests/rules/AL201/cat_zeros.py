# AL201 fixtures: torch.cat with a freshly made block of zeros.
import torch
import torch.nn.functional as F


def cu_seqlens(seq_lens):
    # A prefix sum with a leading zero: the fix writes the cumsum into an
    # n + 1 buffer with element 0 set.
    cu = torch.cat([torch.zeros(1, dtype=torch.int32, device=seq_lens.device), torch.cumsum(seq_lens, 0, dtype=torch.int32)])  # expect: AL201 safe
    return cu


def query_start_loc(num_tokens, device):
    qsl = torch.cat((torch.zeros(1, dtype=torch.int32, device=device), torch.cumsum(num_tokens, dim=0, dtype=torch.int32)))  # expect: AL201 safe
    return qsl


def cumsum_without_dtype(seq_lens):
    # The cumsum of any integer tensor is int64, and cat promotes the int32
    # zero to it: an int64 buffer is right when seq_lens holds integers,
    # which is not known here (a float one would be cast), so unsafe.
    cu = torch.cat([torch.zeros(1, dtype=torch.int32), torch.cumsum(seq_lens, 0)])  # expect: AL201 unsafe
    return cu


def zero_literal_beside_cumsum(seq_lens):
    # torch.tensor([0]) is int64: the same assumption about seq_lens.
    cu = torch.cat([torch.tensor([0], device=seq_lens.device), torch.cumsum(seq_lens, dim=0)], dim=0)  # expect: AL201 unsafe
    return cu


def narrower_zero(seq_lens):
    # An int32 zero beside an int64 cumsum: cat promotes to int64, proved.
    cu = torch.cat([torch.zeros(1, dtype=torch.int32, device=seq_lens.device), torch.cumsum(seq_lens, 0, dtype=torch.int64)])  # expect: AL201 safe
    return cu


def zero_of_the_input_dtype(seq_lens):
    # The zero takes seq_lens' dtype, the cumsum is int32: the result is
    # int32 only when seq_lens' dtype is no wider.
    indptr = torch.cat([torch.zeros(1, dtype=seq_lens.dtype, device=seq_lens.device), seq_lens.cumsum(dim=0, dtype=torch.int32)])  # expect: AL201 unsafe
    return indptr


def wider_zero(seq_lens):
    # int64 zero, int32 cumsum: the result is int64, the buffer form would
    # be int32.
    cu = torch.cat([torch.zeros(1, dtype=torch.int64), torch.cumsum(seq_lens, 0, dtype=torch.int32)])  # expect: AL201 nofix
    return cu


def float_zero_beside_cumsum(seq_lens):
    # A float zero makes the result float: no integer buffer is right.
    cu = torch.cat([torch.zeros(1), torch.cumsum(seq_lens, 0)])  # expect: AL201 nofix
    return cu


def cumsum_in_an_expression(seq_lens):
    # Not `name = torch.cat(...)` on its own: no fix.
    return torch.cat([torch.zeros(1, dtype=torch.int64), torch.cumsum(seq_lens, 0, dtype=torch.int64)]) + 1  # expect: AL201 nofix


def pad_rows(x, k):
    # Not a cumsum: F.pad says the same, but is not faster; display only.
    out = torch.cat([torch.zeros(k, x.shape[1], dtype=x.dtype, device=x.device), x], dim=0)  # expect: AL201 nofix
    return out


def pad_last_dim(x):
    out = torch.cat([x, torch.zeros(x.shape[0], 1, dtype=x.dtype)], dim=-1)  # expect: AL201 nofix
    return out


def new_zeros_mirror(x, k):
    out = torch.cat([x, x.new_zeros(k)])  # expect: AL201 nofix
    return out


def zeros_to_other(x):
    out = torch.concat([torch.zeros(2, 8).to(x), x])  # expect: AL201 nofix
    return out


def two_tensors(a, b):
    # No zeros: nothing to say.
    return torch.cat([a, b])  # expect: none


def zeros_in_the_middle(a, b):
    # Three operands: not the padding shape.
    return torch.cat([a, torch.zeros(1), b])  # expect: none


def ones_block(x):
    # Ones are not padding by zeros.
    return torch.cat([torch.ones(1), x])  # expect: none


def empty_block(x):
    return torch.cat([torch.empty(1), x])  # expect: none


def list_variable(parts):
    # The operands are not visible.
    return torch.cat(parts)  # expect: none


def stack_not_cat(x):
    return torch.stack([torch.zeros_like(x), x])  # expect: none


def already_padded(x):
    return F.pad(x, (1, 0))  # expect: none


def numpy_concatenate(np, x):
    # Not torch: np.concatenate is another library.
    return np.concatenate([np.zeros(1), x])  # expect: none


def zeros_autograd_tracks(x):
    # A leaf that requires grad: the result requires grad too, F.pad's not.
    z = torch.zeros(x.shape[0], 1, dtype=x.dtype, device=x.device, requires_grad=True)
    return torch.cat([z, x], dim=1)  # expect: none


def cat_into_out(x, out):
    # The result goes to `out=`, which F.pad has not.
    return torch.cat([torch.zeros(x.shape[0], 1, dtype=x.dtype, device=x.device), x], dim=1, out=out)  # expect: none
