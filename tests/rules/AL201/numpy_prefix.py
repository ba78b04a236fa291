# AL201 fixtures: NumPy prefix sums with a leading zero in host code that
# runs every scheduler step (query start locations, token offsets).
import numpy as np


class StepMetadata:
    def __init__(self):
        self.query_start_loc = None

    def build(self, seq_lens):
        lens = np.array(seq_lens, dtype=np.int64)
        # The target is an attribute: bound to the unset array before the
        # cumsum writes it, so the fix is unsafe.
        self.query_start_loc = np.pad(np.cumsum(lens, dtype=np.int64), (1, 0))  # expect: AL201 unsafe
        return self.query_start_loc


def draft_offsets(seq_lens):
    num_draft = np.array(seq_lens, dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(num_draft)])  # expect: AL201 safe
    return offsets


def cu_seqlens_int32(seq_lens):
    lens = np.asarray(seq_lens, dtype=np.int32)
    cu_seqlens = np.pad(np.cumsum(lens, dtype=np.int32), (1, 0))  # expect: AL201 safe
    return cu_seqlens


def cu_seqlens_narrowed(seq_lens):
    # Summed in int64, then cast: the fix sums into the int32 array
    # directly, which wraps the same way.
    lens = np.array(seq_lens, dtype=np.int64)
    cu_seqlens = np.pad(np.cumsum(lens), pad_width=(1, 0), mode="constant").astype(np.int32)  # expect: AL201 safe
    return cu_seqlens


def token_offsets_held(lengths):
    # The cumsum is bound just before and read only by the concatenation.
    per_req = np.array(lengths, dtype=np.int64)
    cs = np.cumsum(per_req)
    token_offsets = np.concatenate(([0], cs))  # expect: AL201 safe
    return token_offsets


def block_starts_int32(seq_lens):
    # An int32 input sums in int64 by default, and [0] is int64.
    blocks = np.array(seq_lens, dtype=np.int32)
    starts = np.concatenate([[0], np.cumsum(blocks)])  # expect: AL201 safe
    return starts


def zero_spelled_int32(seq_lens):
    blocks = np.array(seq_lens, dtype=np.int32)
    starts = np.concatenate([np.zeros(1, dtype=np.int32), np.cumsum(blocks, dtype=np.int32)], axis=0)  # expect: AL201 safe
    return starts


def mask_positions(seq_lens):
    # A cumsum of bools counts in int64.
    keep = np.asarray(seq_lens % 2, dtype=bool)
    positions = np.concatenate([[0], np.cumsum(keep)])  # expect: AL201 safe
    return positions


def score_prefix(scores):
    # float32 sums, then the int64 zero promotes them to float64: the fix
    # must still sum in float32.
    s = np.array(scores, dtype=np.float32)
    prefix = np.concatenate([[0], np.cumsum(s)])  # expect: AL201 safe
    return prefix


def local_cu_seqlens(seqlens_q_local):
    # The input comes from the caller: its dtype and its type are not
    # known here. The same result for integer arrays, so unsafe.
    cu_seqlens_q_local = np.pad(np.cumsum(seqlens_q_local), (1, 0)).astype(np.int32)  # expect: AL201 unsafe
    return cu_seqlens_q_local


def spelled_dtype_of_a_parameter(lens):
    # dtype= spelled, but np.size of a torch tensor would be its method.
    cu = np.pad(np.cumsum(lens, dtype=np.int64), (1, 0))  # expect: AL201 unsafe
    return cu


def float_sums_cast_to_int(scores):
    # out= will not cast float sums into an int array.
    s = np.array(scores, dtype=np.float64)
    bins = np.pad(np.cumsum(s), (1, 0)).astype(np.int64)  # expect: AL201 nofix
    return bins


def returned_directly(seq_lens):
    lens = np.array(seq_lens, dtype=np.int64)
    return np.concatenate([[0], np.cumsum(lens)])  # expect: AL201 nofix


def cumsum_of_its_own_name(seq_lens):
    seq_lens = np.array(seq_lens, dtype=np.int64)
    seq_lens = np.pad(np.cumsum(seq_lens), (1, 0))  # expect: AL201 nofix
    return seq_lens


def caller_dtype(lengths):
    # Neither dtype= nor a known input: the result's dtype is the input's.
    offsets = np.concatenate([[0], np.cumsum(lengths)])  # expect: AL201 nofix
    return offsets


def not_a_leading_zero(seq_lens):
    lens = np.array(seq_lens, dtype=np.int64)
    a = np.pad(np.cumsum(lens), (0, 1))  # expect: none
    b = np.concatenate([[1], np.cumsum(lens)])  # expect: none
    c = np.pad(np.cumsum(lens), (1, 0), constant_values=-1)  # expect: none
    d = np.concatenate([[0], lens])  # expect: none
    return a, b, c, d


def along_an_axis(seq_lens):
    # np.pad pads every axis of a 2-D cumsum: not the 1-D form.
    grid = np.array(seq_lens, dtype=np.int64).reshape(-1, 1)
    return np.pad(np.cumsum(grid, axis=0), (1, 0))  # expect: none


def already_an_array(seq_lens):
    lens = np.array(seq_lens, dtype=np.int64)
    cu = np.empty(lens.size + 1, dtype=np.int64)
    cu[0] = 0
    np.cumsum(lens, out=cu[1:])  # expect: none
    return cu
