# AL301 and the shapes of a loop: what runs on every pass (a nested `if`,
# an `async for`) and what does not (the loop's `else:`, code before or
# after it, a comprehension). The prefilter finds loop bodies by
# indentation; these are the lines it must not lose.
import torch


def masked_rows(chunks, width, acc, enabled):
    for r in chunks:
        if enabled:
            buf = torch.zeros(width)  # expect: AL301 unsafe
            buf[: r.numel()] = r
            acc.add_(buf)
    return acc


async def streamed_rows(chunks, width, acc):
    async for r in chunks:
        buf = torch.zeros(width)  # expect: AL301 unsafe
        buf[: r.numel()] = r
        acc.add_(buf)
    return acc


def drained(chunks, width, acc):
    # The `else:` of a loop runs once, after the last pass.
    for r in chunks:
        acc.add_(r)
    else:
        tail = torch.zeros(width)  # expect: none
        acc.add_(tail)
    return acc


def drained_each_block(chunks, width, acc):
    # ...but inside an outer loop it runs once per outer pass.
    for rows in chunks:
        for r in rows:
            acc.add_(r)
        else:
            tail = torch.zeros(width)  # expect: AL301 unsafe
            acc.add_(tail)
    return acc


def around_the_loop(chunks, width, acc):
    before = torch.zeros(width)  # expect: none
    for r in chunks:
        acc.add_(before)
    after = torch.zeros(width)  # expect: none
    parts = [torch.zeros(width) for _ in chunks]  # expect: none
    return after, parts


def gather_none_selected(pools, device):
    # A tensor of no elements has a storage of 0 bytes: nothing to hoist.
    for pool in pools:
        picked = torch.empty(0, dtype=torch.int64, device=device)  # expect: none
        pool.release(picked)


def zero_rows_of_width(batches, width, device):
    # 0 rows of any width: no elements either.
    for b in batches:
        acc = torch.zeros((0, width), device=device)  # expect: none
        b.merge(acc)


def offsets_filled_with_zero(items, device):
    # full((3, 1), 0): the 0 is the fill, not a size; three elements.
    for it in items:
        pos = torch.full((3, 1), 0, dtype=torch.long, device=device)  # expect: AL301 unsafe
        it.shift(pos)
