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
