# AL101: a zero-filled buffer whose leading rows the next statement writes
# in full needs its zeros only past them. `buf[:n]` and `buf[n:]` split
# the buffer for any integer n, so zeroing `buf[n:]` after the write
# leaves every element as the zero fill would have.
import torch


def pad_to_graph_batch(x, k):
    # Spare rows for a CUDA graph's larger batch stay zero.
    n = x.shape[0]
    buf = x.new_zeros(n + k, x.shape[1])  # expect: AL101 safe
    buf[:n].copy_(x)
    return buf


def pad_positions(positions, max_tokens):
    padded = torch.zeros(max_tokens, dtype=positions.dtype)  # expect: AL101 safe
    # the real tokens first
    padded[: positions.shape[0]] = positions
    return padded


def pad_with_fill(x, k, value):
    out = torch.zeros_like(torch.cat([x, x[:k]]))  # expect: AL101 safe
    out[: x.shape[0]].fill_(value)
    return out


def pad_shifted(x, k):
    # The leading row stays zero: the write starts at 1.
    buf = x.new_zeros(x.shape[0] + k, x.shape[1])  # expect: none
    buf[1 : x.shape[0] + 1] = x
    return buf


def pad_columns(x, k):
    # Leading columns of every row: only the rest of each row needs its
    # zeros (rest_in_a_dimension.py has more of these).
    buf = x.new_zeros(x.shape[0], x.shape[1] + k)  # expect: AL101 safe
    buf[:, : x.shape[1]] = x
    return buf


def pad_accumulate(x, k):
    # `+=` reads the zeros it adds to.
    buf = x.new_zeros(x.shape[0] + k, x.shape[1])  # expect: none
    buf[: x.shape[0]] += x
    return buf


def pad_masked(x, mask, k):
    # Only the masked rows of the prefix are written.
    buf = x.new_zeros(x.shape[0] + k, x.shape[1])  # expect: none
    buf[: x.shape[0]][mask] = x[mask]
    return buf


def pad_reads_itself(x, k):
    # The value read is the buffer's own zeros.
    buf = x.new_zeros(x.shape[0] + k, x.shape[1])  # expect: none
    buf[: x.shape[0]] = buf[k : x.shape[0] + k] + x
    return buf


def pad_after_read(x, k):
    # A read between the fill and the write sees the zeros.
    buf = x.new_zeros(x.shape[0] + k, x.shape[1])  # expect: none
    total = buf.sum()
    buf[: x.shape[0]] = x
    return buf, total


def pad_impure_bound(x, stream):
    # The bound is read from an iterator: twice would give two values.
    buf = x.new_zeros(x.shape[0] * 2, x.shape[1])  # expect: none
    buf[: next(stream)] = x
    return buf


def pad_commented(x, k):
    # The write's trailing comment stays on its line.
    buf = x.new_zeros(x.shape[0] + k, x.shape[1])  # expect: AL101 safe
    buf[: x.shape[0]] = x  # the real rows
    return buf


def pad_then_read_same_line(x, k):
    # A read after the write on its line would run before the zeros.
    buf = x.new_zeros(x.shape[0] + k, x.shape[1])  # expect: none
    buf[: x.shape[0]] = x; total = buf.sum()  # noqa: E702
    return buf, total


def pad_from_queue(pending, width):
    # copy_ reads the bound before its value: a call in the value may
    # change what the bound reads (it pops from the list the bound counts).
    buf = torch.zeros(8, width)  # expect: none
    buf[: len(pending)].copy_(torch.stack([pending.pop() for _ in range(2)]))
    return buf
