# AL203 fixtures: CUDA-graph state kept on a class, updated every replay.
import torch
import torch.nn.functional as F


class DecodeMetadata:
    # Element 0 of cu_seqlens is zero from the constructor; every replay
    # writes elements 1.. only (the padded copy writes a zero there).
    def __init__(self, max_bs, device):
        self.cu_seqlens = torch.zeros(max_bs + 1, dtype=torch.int32, device=device)
        self.seq_lens = torch.zeros(max_bs, dtype=torch.int32, device=device)

    def replay(self, seq_lens):
        bs = seq_lens.shape[0]
        self.seq_lens[:bs].copy_(seq_lens)
        self.cu_seqlens[: bs + 1].copy_(F.pad(torch.cumsum(seq_lens, dim=0, dtype=torch.int32), (1, 0)))  # expect: AL203 safe
        return self.cu_seqlens[: bs + 1].clone(), self.cu_seqlens.shape[0]

    def reset(self):
        self.cu_seqlens.zero_()


def decode_replays(seq_lens):
    # Two replays of different sizes on one state, as a CUDA graph runner
    # would: the short one must not see the long one's values at 0.
    state = DecodeMetadata(seq_lens.shape[0] + 3, "cpu")
    first = state.replay(seq_lens)
    second = state.replay(seq_lens[:2])
    return first, second


class WholeBuffer:
    def __init__(self, n):
        self.offsets = torch.zeros(n + 1, dtype=torch.int64)

    def update(self, counts):
        self.offsets.copy_(torch.cat([torch.zeros(1, dtype=torch.int64), torch.cumsum(counts, 0, dtype=torch.int64)]))  # expect: AL203 safe
        self.offsets[1:].add_(0)
        return self.offsets.clone()


class PromotingCat:
    # cat([float zeros, int cumsum]) is float: the copy goes through float32
    # (rounding sums past 2**24), the direct copy does not.
    def __init__(self, n):
        self.offsets = torch.zeros(n + 1, dtype=torch.int64)

    def update(self, counts):
        self.offsets.copy_(torch.cat([torch.zeros(1), torch.cumsum(counts, 0)]))  # expect: AL203 unsafe
        return self.offsets.clone()


def whole_buffer_updates(counts):
    state = WholeBuffer(counts.shape[0])
    state.update(counts)
    return state.update(counts.flip(0))


class HandedToAKernel:
    # The buffer goes to a function alloclint cannot see into: it might
    # write element 0, so the fix is only offered as unsafe.
    def __init__(self, n, attention):
        self.cu = torch.zeros(n + 1, dtype=torch.int32)
        self.attention = attention

    def replay(self, lens):
        self.cu.copy_(F.pad(torch.cumsum(lens, 0, dtype=torch.int32), (1, 0)))  # expect: AL203 unsafe
        return self.attention(self.cu)


class WrittenAtZero:
    # Another method writes element 0: the padding is what keeps it zero.
    def __init__(self, n):
        self.starts = torch.zeros(n + 1, dtype=torch.int32)

    def shift(self, base):
        self.starts[0] = base

    def replay(self, lens):
        self.starts.copy_(F.pad(torch.cumsum(lens, 0, dtype=torch.int32), (1, 0)))  # expect: AL203 unsafe
        return self.starts.clone()


class MadeEmpty:
    # Element 0 is not zero from the allocation: nothing to prove.
    def __init__(self, n):
        self.cu = torch.empty(n + 1, dtype=torch.int32)

    def replay(self, lens):
        self.cu.copy_(F.pad(torch.cumsum(lens, 0, dtype=torch.int32), (1, 0)))  # expect: none
        return self.cu.clone()


class TwoDimensional:
    # F.pad pads the last dim: element 0 of a 2-D buffer is a row.
    def __init__(self, n):
        self.table = torch.zeros(4, n + 1)

    def replay(self, x):
        self.table.copy_(F.pad(x, (1, 0)))  # expect: none
        return self.table.clone()


class Aliased:
    # A view of the buffer leaves the class: anyone may write through it.
    def __init__(self, n):
        self.cu = torch.zeros(n + 1, dtype=torch.int32)

    def view(self):
        return self.cu

    def replay(self, lens):
        self.cu.copy_(F.pad(torch.cumsum(lens, 0, dtype=torch.int32), (1, 0)))  # expect: AL203 unsafe
        return self.cu.clone()


class Rebound:
    # Bound once by zeros and once by something else.
    def __init__(self, n):
        self.cu = torch.zeros(n + 1, dtype=torch.int32)

    def load(self, values):
        self.cu = values

    def replay(self, lens):
        self.cu.copy_(F.pad(torch.cumsum(lens, 0, dtype=torch.int32), (1, 0)))  # expect: AL203 unsafe
        return self.cu.clone()


def outside(meta, lens):
    # Not `self`: the object's history is not visible here.
    meta.cu_seqlens_k.copy_(F.pad(torch.cumsum(lens, 0, dtype=torch.int32), (1, 0)))  # expect: none


class WrittenFromOutside:
    # `outside` above may be handed an instance of this class.
    def __init__(self, n):
        self.cu_seqlens_k = torch.zeros(n + 1, dtype=torch.int32)

    def replay(self, lens):
        self.cu_seqlens_k.copy_(F.pad(torch.cumsum(lens, 0, dtype=torch.int32), (1, 0)))  # expect: AL203 unsafe
        return self.cu_seqlens_k.clone()


class PrefillState:
    def __init__(self, n):
        self.cu_q = torch.zeros(n + 1, dtype=torch.int32)

    def replay(self, lens):
        self.cu_q.copy_(F.pad(torch.cumsum(lens, 0, dtype=torch.int32), (1, 0)))  # expect: AL203 unsafe
        return self.cu_q.clone()


class ChunkedPrefillState(PrefillState):
    # A subclass's methods run on the base's buffer: this write counts.
    def start_at(self, base):
        self.cu_q[0] = base


class OtherState:
    # An unrelated class's buffer of the same name is another buffer.
    def __init__(self, n):
        self.offsets = torch.ones(n)

    def bump(self):
        self.offsets[0] = 7


class PaddedOnTheRight:
    def __init__(self, n):
        self.cu = torch.zeros(n + 1, dtype=torch.int32)

    def replay(self, lens):
        self.cu.copy_(F.pad(torch.cumsum(lens, 0, dtype=torch.int32), (0, 1)))  # expect: none
        return self.cu.clone()
