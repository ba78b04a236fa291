# AL103 fixtures: fills that the allocation or another fill makes redundant.
import torch


def chained_fill(n):
    # Zero fill, then a fill with 1: torch.full writes once.
    scale = torch.zeros(n, 4).fill_(1)  # expect: AL103 safe
    return scale


def chained_fill_dtype(n, device):
    ids = torch.zeros((n,), dtype=torch.int32, device=device).fill_(-1)  # expect: AL103 safe
    return ids


def chained_like(x):
    mask = torch.zeros_like(x).fill_(float("-inf"))  # expect: AL103 safe
    return mask


def empty_then_fill(n):
    # Not faster (torch.full is empty + fill_), but simpler.
    pad = torch.empty((n,), dtype=torch.int64).fill_(0)  # expect: AL103 safe
    return pad


def next_statement(max_tokens, pad_id, device):
    sorted_ids = torch.empty((max_tokens,), dtype=torch.int32, device=device)
    sorted_ids.fill_(pad_id)  # expect: AL103 safe
    return sorted_ids


def next_statement_zero(n):
    counts = torch.zeros(n, dtype=torch.int32)
    counts.zero_()  # expect: AL103 safe
    return counts


def already_zero_later(n, flag):
    # Still all zeros when zero_() runs, on every path.
    hist = torch.zeros(n)
    if flag:
        print("resetting")
    hist.zero_()  # expect: AL103 safe
    hist[0] = 1
    return hist


def empty_then_zero(shape, device):
    # The size is a name (an int or a tuple): torch.zeros takes it as is.
    x = torch.empty(shape, device=device)
    x.zero_()  # expect: AL103 safe
    return x


def empty_like_then_ones(ref):
    w = torch.empty_like(ref).fill_(1)  # expect: AL103 safe
    return w


def fill_value_of_unknown_dtype(n, value):
    # torch.full would infer its dtype from `value`: no fix.
    buf = torch.zeros(n).fill_(value)  # expect: AL103 nofix
    return buf


def zero_after_a_write(n, src):
    # Written in between: the zero_ is needed.
    buf = torch.zeros(n)
    buf.copy_(src)
    buf.zero_()  # expect: none
    return buf


def zero_in_a_loop(n, steps):
    # Earlier iterations wrote the buffer.
    acc = torch.zeros(n)
    for s in steps:
        acc.zero_()  # expect: none
        acc += s
    return acc


def fill_a_slice(n):
    # Only part of the buffer: not the same as torch.full.
    buf = torch.zeros(n)
    buf[:4].fill_(1)  # expect: none
    return buf


def fill_after_alias(n, sink):
    buf = torch.zeros(n)
    sink.keep(buf)
    buf.zero_()  # expect: none
    return buf


def fill_of_a_parameter(buf):
    buf.zero_()  # expect: none
    return buf


def fill_of_an_attribute(self):
    self.cache.zero_()  # expect: none


def full_is_fine(n):
    return torch.full((n,), 3.0)  # expect: none


def ones_then_nonzero_fill_later(n, src):
    w = torch.ones(n)
    w.copy_(src)
    w.fill_(2.0)  # expect: none
    return w


def fill_before_a_read(n):
    # ones, then read, then fill: the fill changes what later reads see.
    w = torch.ones(n)
    total = w.sum()
    w.fill_(3.0)  # expect: none
    return w, total


def zero_of_a_global():
    global _CACHE
    _CACHE.zero_()  # expect: none


def full_then_fill(n):
    # torch.full(...).fill_(v): AL103 leaves full() alone.
    return torch.full((n,), 1.0).fill_(2.0)  # expect: none


def shares_its_line(n):
    # Reported, but deleting the line would take `mask[0] = 1` with it.
    mask = torch.zeros(n)
    mask.zero_(); mask[0] = 1  # expect: AL103 nofix
    return mask


def _row_norms(t):
    return t.abs().sum(dim=-1)


def _load_rows(t, src):
    t.copy_(src)


def zero_after_reading_helper(n):
    # _row_norms only reads the buffer: it is still all zeros.
    acc = torch.zeros(n, 8)
    norms = _row_norms(acc)
    acc.zero_()  # expect: AL103 safe
    return acc, norms


def zero_after_writing_helper(src):
    # _load_rows overwrote it: the zero_() is the reset it looks like.
    acc = torch.zeros_like(src)
    _load_rows(acc, src)
    acc.zero_()  # expect: none
    return acc


def numpy_alias_writes(n):
    # `.numpy()` shares the buffer's memory: the ones written through it
    # make the last fill needed.
    buf = torch.zeros(n)
    arr = buf.numpy()
    arr[:] = 1.0
    buf.zero_()  # expect: none
    return buf


def real_view_writes(n):
    buf = torch.zeros(n, dtype=torch.complex64)
    r = buf.real
    r.fill_(1.0)
    buf.zero_()  # expect: none
    return buf
