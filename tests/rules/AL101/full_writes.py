# AL101 fixtures: buffers that every path fully overwrites before any read.
# Each allocation line says what alloclint must report for it.
import torch
import torch as th
from torch import zeros, ones_like


def gather_last_hidden(hidden_states, last_token_idx):
    # copy_ writes every element.
    out = torch.zeros(last_token_idx.numel(), hidden_states.shape[-1],  # expect: AL101 safe
                      dtype=hidden_states.dtype, device=hidden_states.device)
    out.copy_(hidden_states[last_token_idx])
    return out


def init_bias(num_heads, value):
    # fill_ writes every element.
    bias = torch.zeros(num_heads, dtype=torch.float32)  # expect: AL101 safe
    bias.fill_(value)
    return bias


def positions_from_arange(num_tokens, device):
    # out= on an op whose summary says it writes all of `out`.
    positions = torch.zeros(num_tokens, dtype=torch.int64, device=device)  # expect: AL101 safe
    torch.arange(num_tokens, out=positions)
    return positions


def cumulative_lengths(seq_lens):
    # cumsum(out=buf) over the whole buffer (compare never_rewrite.py).
    cu = torch.zeros_like(seq_lens)  # expect: AL101 safe
    torch.cumsum(seq_lens, dim=0, out=cu)
    return cu


def select_rows(table, index):
    rows = th.zeros(index.numel(), table.shape[1], dtype=table.dtype)  # expect: AL101 safe
    th.index_select(table, 0, index, out=rows)
    return rows


def project(x, w):
    # torch.matmul(..., out=) writes the whole product.
    y = torch.zeros(x.shape[0], w.shape[1], device=x.device)  # expect: AL101 safe
    torch.matmul(x, w, out=y)
    return y


def slot_indices(boundaries, values):
    idx = torch.zeros(values.shape, dtype=torch.int64)  # expect: AL101 safe
    torch.searchsorted(boundaries, values, out=idx)
    return idx


def whole_slice(src, n):
    buf = torch.zeros(n, 64)  # expect: AL101 safe
    buf[:] = src
    return buf


def ellipsis_write(src):
    buf = torch.zeros_like(src)  # expect: AL101 safe
    buf[...] = src * 2
    return buf


def prefix_equals_extent(tokens, n):
    # buf[:n] covers a first dimension of size n.
    buf = torch.zeros(n, dtype=torch.int32)  # expect: AL101 safe
    buf[:n] = tokens[:n]
    return buf


def two_halves(lo, hi, n, k):
    # buf[:k] and buf[k:] together cover dim 0.
    buf = torch.zeros(n, 8)  # expect: AL101 safe
    buf[:k] = lo
    buf[k:] = hi
    return buf


def column_blocks(a, b, c, rows):
    # Three column blocks that tile the last dimension of size 656.
    entry = torch.zeros(rows, 656, dtype=torch.uint8)  # expect: AL101 safe
    entry[:, :512] = a
    entry[:, 512:528] = b
    entry[:, 528:] = c
    return entry


def sinusoidal_table(max_len, d_model):
    # Even and odd columns cover the last dim once d_model is proved even.
    assert d_model % 2 == 0
    pe = torch.zeros(max_len, d_model)  # expect: AL101 safe
    position = torch.arange(0, max_len).unsqueeze(1).float()
    div_term = torch.exp(torch.arange(0, d_model, 2).float() * -(9.21 / d_model))
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe


def rows_in_loop(seqs, num_seqs, width):
    # for i in range(n): buf[i] = ... covers a first dimension of size n.
    table = torch.zeros(num_seqs, width, dtype=torch.int32)  # expect: AL101 safe
    for i in range(num_seqs):
        table[i] = seqs[i]
    return table


def both_branches(x, use_cache, cache):
    # Every branch writes the whole buffer.
    out = torch.ones(x.shape, dtype=x.dtype)  # expect: AL101 safe
    if use_cache:
        out.copy_(cache)
    elif x.is_cuda:
        out.fill_(1.0)
    else:
        out.zero_()
    return out


def early_return(x, skip):
    # The early return drops the buffer unread.
    out = torch.zeros_like(x)  # expect: AL101 safe
    if skip:
        return None
    out.copy_(x)
    return out


def metadata_before_write(src):
    # .shape, .dtype, .numel() and .data_ptr() read no element.
    buf = torch.zeros(src.shape[0], src.shape[1])  # expect: AL101 safe
    assert buf.shape == src.shape and buf.dtype == torch.float32
    assert buf.numel() > 0 and buf.data_ptr() != 0
    buf.copy_(src)
    return buf


def write_through_view(flat_src, b, s):
    # A view covers every element: writing it fully writes the buffer.
    buf = torch.zeros(b, s)  # expect: AL101 safe
    buf.view(-1).copy_(flat_src)
    return buf


def write_through_alias(src, n):
    buf = torch.zeros(n, 4)  # expect: AL101 safe
    alias = buf.view(n * 4)
    alias.copy_(src)
    return buf


def random_init(n, d):
    w = torch.ones(n, d)  # expect: AL101 safe
    w.normal_(mean=0.0, std=0.02)
    return w


def new_zeros_method(x, n):
    out = x.new_zeros(n, x.shape[-1])  # expect: AL101 safe
    out.copy_(x[:n])
    return out


def new_full_method(x, n):
    out = x.new_full((n,), -1)  # expect: AL101 safe
    out.copy_(x[:n])
    return out


def full_keyword_fill(n, src):
    # The fill value is dropped; dtype= keeps the dtype.
    mask = torch.full((n, n), fill_value=float("-inf"), dtype=torch.float32)  # expect: AL101 safe
    mask.copy_(src)
    return mask


def full_float_fill(n, src):
    # A float fill infers the default float dtype, like torch.empty.
    scale = torch.full((n,), 1.0)  # expect: AL101 safe
    scale.copy_(src)
    return scale


def int_fill_keeps_dtype(n, src):
    # torch.full infers int64 from -1: the fix says so with dtype=.
    slot_mapping = torch.full((n,), -1, device=src.device)  # expect: AL101 safe
    slot_mapping.copy_(src)
    return slot_mapping


def bool_fill_keeps_dtype(n, src):
    valid = torch.full((n,), fill_value=True)  # expect: AL101 safe
    valid.copy_(src)
    return valid


def from_import_zeros(src):
    # `zeros` from `from torch import zeros`: the fix calls torch.empty.
    buf = zeros(src.shape)  # expect: AL101 safe
    buf.copy_(src)
    return buf


def ones_like_from_import(x):
    weights = ones_like(x)  # expect: AL101 safe
    weights.uniform_(-0.1, 0.1)
    return weights


def with_block(x, stream):
    buf = torch.zeros_like(x)  # expect: AL101 safe
    with torch.cuda.stream(stream):
        buf.copy_(x, non_blocking=True)
    return buf


def try_finally(x, lock):
    out = torch.zeros_like(x)  # expect: AL101 safe
    lock.acquire()
    try:
        out.copy_(x)
    finally:
        lock.release()
    return out


def alloc_in_loop(chunks, n):
    # A fresh buffer each iteration, written before it is read.
    results = []
    for chunk in chunks:
        tmp = torch.zeros(n, chunk.shape[-1])  # expect: AL101 safe
        tmp.copy_(chunk[:n])
        results.append(tmp.sum())
    return results


def head_and_tail_after_resize(n, x):
    # Both halves are written whatever `n` became: the split covers all.
    buf = torch.zeros(n)  # expect: AL101 safe
    n = n // 2
    buf[:n] = x[:n]
    buf[n:] = 1.0
    return buf


def rows_per_size(sizes, x):
    # The loop's own target sizes each pass's buffer before the pass
    # writes it: its rows are covered.
    out = []
    for size in sizes:
        buf = torch.zeros(size)  # expect: AL101 safe
        for i in range(size):
            buf[i] = x[i]
        out.append(buf)
    return out
