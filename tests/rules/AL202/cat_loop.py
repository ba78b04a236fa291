# AL202 fixtures: a tensor grown by torch.cat inside a loop.
import torch


def gather_chunks(chunks):
    out = torch.empty(0, 16)
    for chunk in chunks:
        out = torch.cat([out, chunk], dim=0)  # expect: AL202 unsafe
    return out


def while_loop(stream):
    tokens = torch.empty(0, dtype=torch.int64)
    while stream.has_next():
        tokens = torch.cat((tokens, stream.next()))  # expect: AL202 unsafe
    return tokens


def several_items(xs, ys):
    acc = torch.empty(0)
    for x, y in zip(xs, ys):
        acc = torch.cat([acc, x, y])  # expect: AL202 unsafe
    return acc


def conditional_growth(steps):
    kept = torch.empty(0, 4)
    for step in steps:
        if step.keep:
            kept = torch.cat([kept, step.value], 0)  # expect: AL202 unsafe
    return kept


def nested_loop(batches):
    rows = torch.empty(0, 8)
    for batch in batches:
        for row in batch:
            rows = torch.cat([rows, row.unsqueeze(0)])  # expect: AL202 unsafe
    return rows


def read_inside_the_loop(chunks, limit):
    # `out` is read by the loop's own condition: no fix.
    out = torch.empty(0)
    for chunk in chunks:
        if out.numel() > limit:
            break
        out = torch.cat([out, chunk])  # expect: AL202 nofix
    return out


def stacking(frames):
    # stack adds a dimension each time: no fix.
    video = frames[0]
    for f in frames[1:]:
        video = torch.stack([video, f])  # expect: AL202 nofix
    return video


def operand_uses_it(chunks):
    seq = torch.zeros(1)
    for c in chunks:
        seq = torch.cat([seq, c + seq[-1]])  # expect: AL202 nofix
    return seq


def fresh_each_iteration(items):
    # Made anew every iteration: nothing grows across iterations.
    res = []
    for item in items:
        cur = torch.randperm(item)
        cur = torch.cat([cur, torch.arange(2)])  # expect: none
        res.append(cur)
    return res


def prepend(chunks):
    # Prepending is not the append shape.
    out = torch.empty(0)
    for c in chunks:
        out = torch.cat([c, out])  # expect: none
    return out


def not_in_a_loop(a, b):
    a = torch.cat([a, b])  # expect: none
    return a


def list_then_cat(chunks):
    parts = []
    for c in chunks:
        parts.append(c)
    return torch.cat(parts)  # expect: none


def other_target(chunks):
    base = torch.zeros(4)
    out = None
    for c in chunks:
        out = torch.cat([base, c])  # expect: none
    return out


def comprehension(chunks):
    return torch.cat([c for c in chunks])  # expect: none


def accumulates_in_another_name(chunks):
    # total is grown, out is only read: the cat is on `total`.
    out = torch.zeros(4)
    total = torch.empty(0)
    for c in chunks:
        total = torch.cat([out, c])  # expect: none
    return total


def numpy_in_a_loop(np, chunks):
    arr = np.zeros(0)
    for c in chunks:
        arr = np.concatenate([arr, c])  # expect: none
    return arr
