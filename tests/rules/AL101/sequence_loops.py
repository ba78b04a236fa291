# AL101 fixtures: a loop over a sequence writing its row of a buffer sized
# len(seq) in every branch of an if/elif/else, as batch metadata is built
# from a list of requests. For another iterable, len and the items may
# differ: an assumption the fix names.
import torch


def prompt_lens(requests: list, max_len):
    lens = torch.zeros(len(requests), dtype=torch.int64)  # expect: AL101 safe
    for i, req in enumerate(requests):
        if req is None:
            lens[i] = 0
        elif len(req) > max_len:
            lens[i] = max_len
        else:
            lens[i] = len(req)
    return lens


def from_a_list(tokens, n):
    seqs = list(tokens)
    first = torch.zeros(len(seqs))  # expect: AL101 safe
    for i, seq in enumerate(seqs):
        first[i] = seq[0]
    return first


def signs_by_range(x, n):
    out = torch.zeros(n)  # expect: AL101 safe
    for i in range(n):
        if x[i] > 0:
            out[i] = x[i]
        else:
            out[i] = -x[i]
    return out


def any_iterable(items, n):
    # `items` may be a generator or a set: len() may not count what it yields.
    lens = torch.zeros(len(items))  # expect: AL101 unsafe
    for i, item in enumerate(items):
        lens[i] = item.sum()
    return lens


def a_branch_without_a_write(requests: list, max_len):
    lens = torch.zeros(len(requests), dtype=torch.int64)  # expect: none
    for i, req in enumerate(requests):
        if req is None:
            pass
        else:
            lens[i] = len(req)
    return lens


def elif_without_else(requests: list, max_len):
    lens = torch.zeros(len(requests), dtype=torch.int64)  # expect: none
    for i, req in enumerate(requests):
        if req is None:
            lens[i] = 0
        elif len(req) > max_len:
            lens[i] = max_len
    return lens


def counted_from_one(requests: list, max_len):
    lens = torch.zeros(len(requests) + 1, dtype=torch.int64)  # expect: none
    for i, req in enumerate(requests, 1):
        lens[i] = len(req)
    return lens


def sized_by_something_else(requests: list, max_len):
    lens = torch.zeros(max_len, dtype=torch.int64)  # expect: none
    for i, req in enumerate(requests):
        lens[i] = len(req)
    return lens
