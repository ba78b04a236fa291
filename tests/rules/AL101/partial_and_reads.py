# AL101 fixtures: buffers whose initial value some path still needs.
# Each case says which fact keeps the fill. Two of them write a leading
# slice first: the fill stays only past it (`buf[n:].zero_()`).
import torch


def padded_batch(tokens, num_tokens, max_tokens):
    # Only the first num_tokens rows are written; the padding must stay 0,
    # and is all that the fix zeroes.
    buf = torch.zeros(max_tokens, dtype=torch.int32)  # expect: AL101 safe
    buf[:num_tokens] = tokens
    return buf


def one_column(values, n):
    # One column of two is written.
    pairs = torch.zeros(n, 2)  # expect: none
    pairs[:, 0] = values
    return pairs


def masked_entries(mask, src, n):
    # masked_fill_ and boolean indexing write only some entries.
    out = torch.zeros(n)  # expect: none
    out.masked_fill_(mask, 1.0)
    out[mask] = src[mask]
    return out


def scatter_some(index, src, n):
    out = torch.zeros(n, src.shape[1])  # expect: none
    out.scatter_(0, index, src)
    return out


def leading_one(counts):
    # buf[1:] only: element 0 relies on the zero fill.
    offsets = torch.zeros(counts.numel() + 1, dtype=torch.int64)  # expect: none
    offsets[1:] = counts
    return offsets


def read_first(x):
    # The buffer is read (added) before it is written.
    acc = torch.zeros_like(x)  # expect: none
    y = acc + x
    acc.copy_(y)
    return acc


def written_in_one_branch(x, cond):
    out = torch.zeros_like(x)  # expect: none
    if cond:
        out.copy_(x)
    return out


def written_in_loop_body(items, n):
    # The loop may run zero times.
    buf = torch.zeros(n)  # expect: none
    for item in items:
        buf.copy_(item)
    return buf


def written_in_while(x, steps):
    buf = torch.zeros_like(x)  # expect: none
    while steps > 0:
        buf.copy_(x)
        steps -= 1
    return buf


def loop_that_breaks(rows, n):
    # A break can leave rows unwritten.
    table = torch.zeros(n, 4)  # expect: none
    for i in range(n):
        if rows[i] is None:
            break
        table[i] = rows[i]
    return table


def loop_fewer_rows(rows, n, m):
    # range(m) does not cover a dimension of size n.
    table = torch.zeros(n, 4)  # expect: none
    for i in range(m):
        table[i] = rows[i]
    return table


def diagonal_only(n):
    # buf[i, i] in a loop writes the diagonal, not the matrix.
    mask = torch.full((n, n), float("-inf"), dtype=torch.float32)  # expect: none
    for i in range(n):
        mask[i, i] = 0.0
    return mask


def odd_width(max_len, d):
    # Even/odd halves, but d is not proved even.
    pe = torch.zeros(max_len, d)  # expect: none
    pe[:, 0::2] = 1.0
    pe[:, 1::2] = 2.0
    return pe


def conditional_expression_write(x, flag):
    # A write inside `a if c else b` may not happen.
    out = torch.zeros_like(x)  # expect: none
    out.copy_(x) if flag else None
    return out


def except_path(x, load):
    # If load() raises, the handler returns the unwritten buffer.
    out = torch.zeros_like(x)  # expect: none
    try:
        out.copy_(load(x))
    except RuntimeError:
        pass
    return out


def comprehension_read(n):
    buf = torch.zeros(n)  # expect: none
    firsts = [buf[i] for i in range(n)]
    buf.fill_(1.0)
    return firsts


def slice_alias_read(n, src):
    # A view of the buffer is read before the buffer is written.
    buf = torch.zeros(n, 8)  # expect: none
    head = buf[:1]
    norm = head.sum()
    buf.copy_(src)
    return buf, norm


def never_written(n):
    # Read only: a plain zero tensor.
    z = torch.zeros(n)  # expect: none
    return z


def shape_is_unknown(shape, src, n):
    # The extent of dim 0 is unknown, so buf[:n] proves no full write;
    # buf[n:] is the rest whatever the extent, and only it is zeroed.
    buf = torch.zeros(*shape)  # expect: AL101 safe
    buf[:n] = src
    return buf


def overwritten_then_bound(x, y):
    # Rebinding the name first: the zeros are returned via `keep`.
    out = torch.zeros_like(x)  # expect: none
    keep = out
    out = torch.empty_like(y)
    out.copy_(y)
    return keep
