# AL101 fixtures: split-K decoding as paged-attention backends write it.
# A first kernel stores each split's partial result only where the split
# holds keys (`if end > start:`); a second kernel reduces the splits and
# loads only where the same condition, computed from the same inputs,
# holds. The elements the first leaves out are never read, so the zeros
# are dead: safe. At the end, a kernel that loads a whole block and keeps
# only the lanes `tl.where` selects. Each trap changes one thing the proof
# rests on.
import torch
import triton
import triton.language as tl


@triton.jit
def _split_partial(Q, Lens, Splits, Part, Lse, stride_qb, stride_qh, stride_pb, stride_ph,
                   stride_ps, HEAD_DIM: tl.constexpr, BLOCK_D: tl.constexpr,
                   MIN_CHUNK: tl.constexpr):
    batch = tl.program_id(0)
    head = tl.program_id(1)
    split = tl.program_id(2)
    seq_len = tl.load(Lens + batch)
    n_splits = tl.load(Splits + batch)
    chunk = tl.cdiv(tl.cdiv(seq_len, n_splits), MIN_CHUNK) * MIN_CHUNK
    start = chunk * split
    end = tl.minimum(start + chunk, seq_len)
    offs_d = tl.arange(0, BLOCK_D)
    mask_d = offs_d < HEAD_DIM
    if end > start:
        q = tl.load(Q + batch * stride_qb + head * stride_qh + offs_d, mask=mask_d, other=0.0)
        acc = q * (end - start).to(tl.float32)
        row = batch * stride_pb + head * stride_ph + split * stride_ps
        tl.store(Part + row + offs_d, acc, mask=mask_d)
        tl.store(Lse + row // HEAD_DIM, tl.sum(acc, 0))


@triton.jit
def _reduce_splits(Part, Lse, Lens, Splits, Out, stride_pb, stride_ph, stride_ps, stride_ob,
                   stride_oh, HEAD_DIM: tl.constexpr, BLOCK_D: tl.constexpr,
                   MIN_CHUNK: tl.constexpr, MAX_SPLITS: tl.constexpr):
    batch = tl.program_id(0)
    head = tl.program_id(1)
    seq_len = tl.load(Lens + batch)
    n_splits = tl.load(Splits + batch)
    chunk = tl.cdiv(tl.cdiv(seq_len, n_splits), MIN_CHUNK) * MIN_CHUNK
    offs_d = tl.arange(0, BLOCK_D)
    mask_d = offs_d < HEAD_DIM
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    total = 0.0
    for split in range(0, MAX_SPLITS):
        start = chunk * split
        end = tl.minimum(start + chunk, seq_len)
        if end > start:
            base = batch * stride_pb + head * stride_ph + split * stride_ps
            acc += tl.load(Part + offs_d + base, mask=mask_d, other=0.0)
            total += tl.load(Lse + base // HEAD_DIM)
    tl.store(Out + batch * stride_ob + head * stride_oh + offs_d, acc / total, mask=mask_d)


def split_decode(q, lens, splits, max_splits, min_chunk=16):
    # The proof: the reduction loads Part and Lse at the addresses, under
    # the mask and the condition the partial kernel stores them at, over
    # the same (batch, head, split) triples.
    batch, heads, head_dim = q.shape
    part = torch.zeros((batch, heads, max_splits, head_dim), dtype=torch.float32, device=q.device)  # expect: AL101 safe
    lse = torch.zeros((batch, heads, max_splits), dtype=torch.float32, device=q.device)  # expect: AL101 safe
    block_d = triton.next_power_of_2(head_dim)
    grid = (batch, heads, max_splits)
    _split_partial[grid](q, lens, splits, part, lse, q.stride(0), q.stride(1), part.stride(0),
                         part.stride(1), part.stride(2), HEAD_DIM=head_dim, BLOCK_D=block_d,
                         MIN_CHUNK=min_chunk)
    # Between the launches: what only makes a tensor or reads a size.
    out = torch.empty((batch, heads, head_dim), dtype=torch.float32, device=q.device)
    reduce_grid = (batch, heads)
    _reduce_splits[reduce_grid](part, lse, lens, splits, out, part.stride(0), part.stride(1),
                                part.stride(2), out.stride(0), out.stride(1),
                                HEAD_DIM=head_dim, BLOCK_D=block_d, MIN_CHUNK=min_chunk,
                                MAX_SPLITS=max_splits)
    return out


@triton.jit
def _reduce_nonempty(Part, Lse, Lens, Splits, Out, stride_pb, stride_ph, stride_ps, stride_ob,
                     stride_oh, HEAD_DIM: tl.constexpr, BLOCK_D: tl.constexpr,
                     MIN_CHUNK: tl.constexpr, MAX_SPLITS: tl.constexpr):
    # Another condition: `end >= start` also holds for an empty split,
    # whose elements the partial kernel never stored.
    batch = tl.program_id(0)
    head = tl.program_id(1)
    seq_len = tl.load(Lens + batch)
    n_splits = tl.load(Splits + batch)
    chunk = tl.cdiv(tl.cdiv(seq_len, n_splits), MIN_CHUNK) * MIN_CHUNK
    offs_d = tl.arange(0, BLOCK_D)
    mask_d = offs_d < HEAD_DIM
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    total = 0.0
    for split in range(0, MAX_SPLITS):
        start = chunk * split
        end = tl.minimum(start + chunk, seq_len)
        if end >= start:
            base = batch * stride_pb + head * stride_ph + split * stride_ps
            acc += tl.load(Part + offs_d + base, mask=mask_d, other=0.0)
            total += tl.load(Lse + base // HEAD_DIM)
    tl.store(Out + batch * stride_ob + head * stride_oh + offs_d, acc / total, mask=mask_d)


def other_predicate(q, lens, splits, max_splits, min_chunk=16):
    batch, heads, head_dim = q.shape
    part = torch.zeros((batch, heads, max_splits, head_dim), dtype=torch.float32, device=q.device)  # expect: none
    lse = torch.zeros((batch, heads, max_splits), dtype=torch.float32, device=q.device)  # expect: none
    out = torch.empty((batch, heads, head_dim), dtype=torch.float32, device=q.device)
    block_d = triton.next_power_of_2(head_dim)
    grid = (batch, heads, max_splits)
    _split_partial[grid](q, lens, splits, part, lse, q.stride(0), q.stride(1), part.stride(0),
                         part.stride(1), part.stride(2), HEAD_DIM=head_dim, BLOCK_D=block_d,
                         MIN_CHUNK=min_chunk)
    _reduce_nonempty[(batch, heads)](part, lse, lens, splits, out, part.stride(0),
                                     part.stride(1), part.stride(2), out.stride(0),
                                     out.stride(1), HEAD_DIM=head_dim, BLOCK_D=block_d,
                                     MIN_CHUNK=min_chunk, MAX_SPLITS=max_splits)
    return out


def other_lengths(q, lens, new_lens, splits, max_splits, min_chunk=16):
    # The reduction is handed other lengths: its condition reads other data.
    batch, heads, head_dim = q.shape
    part = torch.zeros((batch, heads, max_splits, head_dim), dtype=torch.float32, device=q.device)  # expect: none
    lse = torch.zeros((batch, heads, max_splits), dtype=torch.float32, device=q.device)  # expect: none
    out = torch.empty((batch, heads, head_dim), dtype=torch.float32, device=q.device)
    block_d = triton.next_power_of_2(head_dim)
    grid = (batch, heads, max_splits)
    _split_partial[grid](q, lens, splits, part, lse, q.stride(0), q.stride(1), part.stride(0),
                         part.stride(1), part.stride(2), HEAD_DIM=head_dim, BLOCK_D=block_d,
                         MIN_CHUNK=min_chunk)
    _reduce_splits[(batch, heads)](part, lse, new_lens, splits, out, part.stride(0),
                                   part.stride(1), part.stride(2), out.stride(0), out.stride(1),
                                   HEAD_DIM=head_dim, BLOCK_D=block_d, MIN_CHUNK=min_chunk,
                                   MAX_SPLITS=max_splits)
    return out


def lengths_grow_between(q, lens, splits, max_splits, min_chunk=16):
    # The lengths change between the two launches: a split empty for the
    # first kernel may hold keys for the second.
    batch, heads, head_dim = q.shape
    part = torch.zeros((batch, heads, max_splits, head_dim), dtype=torch.float32, device=q.device)  # expect: none
    lse = torch.zeros((batch, heads, max_splits), dtype=torch.float32, device=q.device)  # expect: none
    out = torch.empty((batch, heads, head_dim), dtype=torch.float32, device=q.device)
    block_d = triton.next_power_of_2(head_dim)
    grid = (batch, heads, max_splits)
    _split_partial[grid](q, lens, splits, part, lse, q.stride(0), q.stride(1), part.stride(0),
                         part.stride(1), part.stride(2), HEAD_DIM=head_dim, BLOCK_D=block_d,
                         MIN_CHUNK=min_chunk)
    lens.add_(1)
    _reduce_splits[(batch, heads)](part, lse, lens, splits, out, part.stride(0), part.stride(1),
                                   part.stride(2), out.stride(0), out.stride(1),
                                   HEAD_DIM=head_dim, BLOCK_D=block_d, MIN_CHUNK=min_chunk,
                                   MAX_SPLITS=max_splits)
    return out


def more_splits_read(q, lens, splits, max_splits, min_chunk=16):
    # The reduction runs over one split more than the grid launched.
    batch, heads, head_dim = q.shape
    part = torch.zeros((batch, heads, max_splits + 1, head_dim), dtype=torch.float32, device=q.device)  # expect: none
    lse = torch.zeros((batch, heads, max_splits + 1), dtype=torch.float32, device=q.device)  # expect: none
    out = torch.empty((batch, heads, head_dim), dtype=torch.float32, device=q.device)
    block_d = triton.next_power_of_2(head_dim)
    grid = (batch, heads, max_splits)
    _split_partial[grid](q, lens, splits, part, lse, q.stride(0), q.stride(1), part.stride(0),
                         part.stride(1), part.stride(2), HEAD_DIM=head_dim, BLOCK_D=block_d,
                         MIN_CHUNK=min_chunk)
    _reduce_splits[(batch, heads)](part, lse, lens, splits, out, part.stride(0), part.stride(1),
                                   part.stride(2), out.stride(0), out.stride(1),
                                   HEAD_DIM=head_dim, BLOCK_D=block_d, MIN_CHUNK=min_chunk,
                                   MAX_SPLITS=max_splits + 1)
    return out


def partials_returned(q, lens, splits, max_splits, min_chunk=16):
    # The caller gets the partial results too: the empty splits' zeros.
    batch, heads, head_dim = q.shape
    part = torch.zeros((batch, heads, max_splits, head_dim), dtype=torch.float32, device=q.device)  # expect: none
    lse = torch.zeros((batch, heads, max_splits), dtype=torch.float32, device=q.device)  # expect: AL101 safe
    out = torch.empty((batch, heads, head_dim), dtype=torch.float32, device=q.device)
    block_d = triton.next_power_of_2(head_dim)
    grid = (batch, heads, max_splits)
    _split_partial[grid](q, lens, splits, part, lse, q.stride(0), q.stride(1), part.stride(0),
                         part.stride(1), part.stride(2), HEAD_DIM=head_dim, BLOCK_D=block_d,
                         MIN_CHUNK=min_chunk)
    _reduce_splits[(batch, heads)](part, lse, lens, splits, out, part.stride(0), part.stride(1),
                                   part.stride(2), out.stride(0), out.stride(1),
                                   HEAD_DIM=head_dim, BLOCK_D=block_d, MIN_CHUNK=min_chunk,
                                   MAX_SPLITS=max_splits)
    return out, part


def partial_on_one_path(q, lens, splits, max_splits, fast, min_chunk=16):
    # On one path the partial kernel does not run at all.
    batch, heads, head_dim = q.shape
    part = torch.zeros((batch, heads, max_splits, head_dim), dtype=torch.float32, device=q.device)  # expect: none
    lse = torch.zeros((batch, heads, max_splits), dtype=torch.float32, device=q.device)  # expect: none
    out = torch.empty((batch, heads, head_dim), dtype=torch.float32, device=q.device)
    block_d = triton.next_power_of_2(head_dim)
    grid = (batch, heads, max_splits)
    if not fast:
        _split_partial[grid](q, lens, splits, part, lse, q.stride(0), q.stride(1),
                             part.stride(0), part.stride(1), part.stride(2), HEAD_DIM=head_dim,
                             BLOCK_D=block_d, MIN_CHUNK=min_chunk)
    _reduce_splits[(batch, heads)](part, lse, lens, splits, out, part.stride(0), part.stride(1),
                                   part.stride(2), out.stride(0), out.stride(1),
                                   HEAD_DIM=head_dim, BLOCK_D=block_d, MIN_CHUNK=min_chunk,
                                   MAX_SPLITS=max_splits)
    return out


@triton.jit
def _reduce_into_lengths(Part, Lse, Lens, Splits, Out, stride_pb, stride_ph, stride_ps,
                         stride_ob, stride_oh, HEAD_DIM: tl.constexpr, BLOCK_D: tl.constexpr,
                         MIN_CHUNK: tl.constexpr, MAX_SPLITS: tl.constexpr):
    # Also writes the lengths it reads its condition from.
    batch = tl.program_id(0)
    head = tl.program_id(1)
    seq_len = tl.load(Lens + batch)
    n_splits = tl.load(Splits + batch)
    chunk = tl.cdiv(tl.cdiv(seq_len, n_splits), MIN_CHUNK) * MIN_CHUNK
    offs_d = tl.arange(0, BLOCK_D)
    mask_d = offs_d < HEAD_DIM
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    for split in range(0, MAX_SPLITS):
        start = chunk * split
        end = tl.minimum(start + chunk, seq_len)
        if end > start:
            base = batch * stride_pb + head * stride_ph + split * stride_ps
            acc += tl.load(Part + offs_d + base, mask=mask_d, other=0.0)
            acc += tl.load(Lse + base // HEAD_DIM)
    tl.store(Out + batch * stride_ob + head * stride_oh + offs_d, acc, mask=mask_d)
    tl.store(Splits + batch, n_splits + 1)


def condition_input_written(q, lens, splits, max_splits, min_chunk=16):
    # The reduction writes `splits`, which its own condition loads: a
    # program that runs late sees another split count.
    batch, heads, head_dim = q.shape
    part = torch.zeros((batch, heads, max_splits, head_dim), dtype=torch.float32, device=q.device)  # expect: none
    lse = torch.zeros((batch, heads, max_splits), dtype=torch.float32, device=q.device)  # expect: none
    out = torch.empty((batch, heads, head_dim), dtype=torch.float32, device=q.device)
    block_d = triton.next_power_of_2(head_dim)
    grid = (batch, heads, max_splits)
    _split_partial[grid](q, lens, splits, part, lse, q.stride(0), q.stride(1), part.stride(0),
                         part.stride(1), part.stride(2), HEAD_DIM=head_dim, BLOCK_D=block_d,
                         MIN_CHUNK=min_chunk)
    _reduce_into_lengths[(batch, heads)](part, lse, lens, splits, out, part.stride(0),
                                         part.stride(1), part.stride(2), out.stride(0),
                                         out.stride(1), HEAD_DIM=head_dim, BLOCK_D=block_d,
                                         MIN_CHUNK=min_chunk, MAX_SPLITS=max_splits)
    return out


@triton.jit
def _reduce_unmasked(Part, Lse, Lens, Splits, Out, stride_pb, stride_ph, stride_ps, stride_ob,
                     stride_oh, HEAD_DIM: tl.constexpr, BLOCK_D: tl.constexpr,
                     MIN_CHUNK: tl.constexpr, MAX_SPLITS: tl.constexpr):
    # Loads every lane of the block: past HEAD_DIM, lanes the partial
    # kernel's mask left out.
    batch = tl.program_id(0)
    head = tl.program_id(1)
    seq_len = tl.load(Lens + batch)
    n_splits = tl.load(Splits + batch)
    chunk = tl.cdiv(tl.cdiv(seq_len, n_splits), MIN_CHUNK) * MIN_CHUNK
    offs_d = tl.arange(0, BLOCK_D)
    mask_d = offs_d < HEAD_DIM
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    for split in range(0, MAX_SPLITS):
        start = chunk * split
        end = tl.minimum(start + chunk, seq_len)
        if end > start:
            base = batch * stride_pb + head * stride_ph + split * stride_ps
            acc += tl.load(Part + offs_d + base)
    tl.store(Out + batch * stride_ob + head * stride_oh + offs_d, acc, mask=mask_d)


def lanes_past_the_mask(q, lens, splits, max_splits, min_chunk=16):
    batch, heads, head_dim = q.shape
    part = torch.zeros((batch, heads, max_splits, head_dim), dtype=torch.float32, device=q.device)  # expect: none
    lse = torch.zeros((batch, heads, max_splits), dtype=torch.float32, device=q.device)  # expect: none
    out = torch.empty((batch, heads, head_dim), dtype=torch.float32, device=q.device)
    block_d = triton.next_power_of_2(head_dim)
    grid = (batch, heads, max_splits)
    _split_partial[grid](q, lens, splits, part, lse, q.stride(0), q.stride(1), part.stride(0),
                         part.stride(1), part.stride(2), HEAD_DIM=head_dim, BLOCK_D=block_d,
                         MIN_CHUNK=min_chunk)
    _reduce_unmasked[(batch, heads)](part, lse, lens, splits, out, part.stride(0),
                                     part.stride(1), part.stride(2), out.stride(0),
                                     out.stride(1), HEAD_DIM=head_dim, BLOCK_D=block_d,
                                     MIN_CHUNK=min_chunk, MAX_SPLITS=max_splits)
    return out


# Lanes loaded and dropped: the second kernel loads the whole block, but
# keeps only the lanes `tl.where` selects, those the first kernel stored.
@triton.jit
def _scores(Lens, Scores, stride_s, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    length = tl.load(Lens + row)
    offs = tl.arange(0, BLOCK)
    # Negative scores: a zero left in a lane would be every row's maximum.
    tl.store(Scores + row * stride_s + offs, -(offs + 1).to(tl.float32) / length,
             mask=offs < length)


@triton.jit
def _row_max(Lens, Scores, Out, stride_s, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    length = tl.load(Lens + row)
    offs = tl.arange(0, BLOCK)
    s = tl.load(Scores + row * stride_s + offs)
    kept = tl.where(offs < length, s, float("-inf"))
    tl.store(Out + row, tl.max(kept, 0))


def row_max(lens, block=128):
    rows = lens.shape[0]
    scores = torch.zeros((rows, block), device=lens.device)  # expect: AL101 safe
    out = torch.empty(rows, device=lens.device)
    _scores[(rows,)](lens, scores, scores.stride(0), BLOCK=block)
    _row_max[(rows,)](lens, scores, out, scores.stride(0), BLOCK=block)
    return out


@triton.jit
def _row_max_one_more(Lens, Scores, Out, stride_s, BLOCK: tl.constexpr):
    # Keeps lane `length` too, which the first kernel left.
    row = tl.program_id(0)
    length = tl.load(Lens + row)
    offs = tl.arange(0, BLOCK)
    s = tl.load(Scores + row * stride_s + offs)
    kept = tl.where(offs <= length, s, float("-inf"))
    tl.store(Out + row, tl.max(kept, 0))


def row_max_one_more(lens, block=128):
    rows = lens.shape[0]
    scores = torch.zeros((rows, block), device=lens.device)  # expect: none
    out = torch.empty(rows, device=lens.device)
    _scores[(rows,)](lens, scores, scores.stride(0), BLOCK=block)
    _row_max_one_more[(rows,)](lens, scores, out, scores.stride(0), BLOCK=block)
    return out


@triton.jit
def _row_range(Lens, Scores, Out, stride_s, BLOCK: tl.constexpr):
    # The loaded block is also used whole: its maximum sees every lane.
    row = tl.program_id(0)
    length = tl.load(Lens + row)
    offs = tl.arange(0, BLOCK)
    s = tl.load(Scores + row * stride_s + offs)
    kept = tl.where(offs < length, s, float("-inf"))
    tl.store(Out + row, tl.max(kept, 0) - tl.max(s, 0))


def row_range(lens, block=128):
    rows = lens.shape[0]
    scores = torch.zeros((rows, block), device=lens.device)  # expect: none
    out = torch.empty(rows, device=lens.device)
    _scores[(rows,)](lens, scores, scores.stride(0), BLOCK=block)
    _row_range[(rows,)](lens, scores, out, scores.stride(0), BLOCK=block)
    return out


# The same two kernels, each launched by a wrapper of its own, as most
# engines write them: the wrappers' regions are carried to their caller,
# each wrapper parameter replaced by what the caller hands it.
def _launch_partial(q, lens, splits, part, lse, min_chunk):
    batch, heads, max_splits, head_dim = part.shape
    block_d = triton.next_power_of_2(head_dim)
    _split_partial[(batch, heads, max_splits)](q, lens, splits, part, lse, q.stride(0),
                                               q.stride(1), part.stride(0), part.stride(1),
                                               part.stride(2), HEAD_DIM=head_dim,
                                               BLOCK_D=block_d, MIN_CHUNK=min_chunk)


def _launch_reduce(part, lse, lens, splits, out, min_chunk):
    batch, heads, max_splits, head_dim = part.shape
    block_d = triton.next_power_of_2(head_dim)
    _reduce_splits[(batch, heads)](part, lse, lens, splits, out, part.stride(0), part.stride(1),
                                   part.stride(2), out.stride(0), out.stride(1),
                                   HEAD_DIM=head_dim, BLOCK_D=block_d, MIN_CHUNK=min_chunk,
                                   MAX_SPLITS=max_splits)
    return out


def split_decode_wrapped(q, lens, splits, max_splits, min_chunk=16):
    batch, heads, head_dim = q.shape
    part = torch.zeros((batch, heads, max_splits, head_dim), dtype=torch.float32, device=q.device)  # expect: AL101 safe
    lse = torch.zeros((batch, heads, max_splits), dtype=torch.float32, device=q.device)  # expect: AL101 safe
    out = torch.empty((batch, heads, head_dim), dtype=torch.float32, device=q.device)
    _launch_partial(q, lens, splits, part, lse, min_chunk)
    return _launch_reduce(part, lse, lens, splits, out, min_chunk)


def wrapped_other_lengths(q, lens, new_lens, splits, max_splits, min_chunk=16):
    # The wrappers are handed other lengths.
    batch, heads, head_dim = q.shape
    part = torch.zeros((batch, heads, max_splits, head_dim), dtype=torch.float32, device=q.device)  # expect: none
    lse = torch.zeros((batch, heads, max_splits), dtype=torch.float32, device=q.device)  # expect: none
    out = torch.empty((batch, heads, head_dim), dtype=torch.float32, device=q.device)
    _launch_partial(q, lens, splits, part, lse, min_chunk)
    return _launch_reduce(part, lse, new_lens, splits, out, min_chunk)


def _launch_reduce_grown(part, lse, lens, splits, out, min_chunk):
    # Moves the lengths before it launches.
    batch, heads, max_splits, head_dim = part.shape
    block_d = triton.next_power_of_2(head_dim)
    lens.add_(1)
    _reduce_splits[(batch, heads)](part, lse, lens, splits, out, part.stride(0), part.stride(1),
                                   part.stride(2), out.stride(0), out.stride(1),
                                   HEAD_DIM=head_dim, BLOCK_D=block_d, MIN_CHUNK=min_chunk,
                                   MAX_SPLITS=max_splits)
    return out


def wrapped_lengths_grow(q, lens, splits, max_splits, min_chunk=16):
    batch, heads, head_dim = q.shape
    part = torch.zeros((batch, heads, max_splits, head_dim), dtype=torch.float32, device=q.device)  # expect: none
    lse = torch.zeros((batch, heads, max_splits), dtype=torch.float32, device=q.device)  # expect: none
    out = torch.empty((batch, heads, head_dim), dtype=torch.float32, device=q.device)
    _launch_partial(q, lens, splits, part, lse, min_chunk)
    return _launch_reduce_grown(part, lse, lens, splits, out, min_chunk)


def _decode_both(q, lens, splits, part, lse, out, min_chunk):
    # Launches both kernels and hands the partial results back.
    _launch_partial(q, lens, splits, part, lse, min_chunk)
    _launch_reduce(part, lse, lens, splits, out, min_chunk)
    return part


def partials_from_a_wrapper(q, lens, splits, max_splits, min_chunk=16):
    # The wrapper reads only what it stored, but returns the partials,
    # whose empty splits keep the caller's zeros.
    batch, heads, head_dim = q.shape
    part = torch.zeros((batch, heads, max_splits, head_dim), dtype=torch.float32, device=q.device)  # expect: none
    lse = torch.zeros((batch, heads, max_splits), dtype=torch.float32, device=q.device)  # expect: AL101 safe
    out = torch.empty((batch, heads, head_dim), dtype=torch.float32, device=q.device)
    partials = _decode_both(q, lens, splits, part, lse, out, min_chunk)
    return out, partials


def _reduce_then_partial(q, lens, splits, part, lse, out, min_chunk):
    # Reduces first: the caller's zeros are read before anything is stored.
    _launch_reduce(part, lse, lens, splits, out, min_chunk)
    _launch_partial(q, lens, splits, part, lse, min_chunk)
    _launch_reduce(part, lse, lens, splits, out, min_chunk)


def reduced_before_stored(q, lens, splits, max_splits, min_chunk=16):
    batch, heads, head_dim = q.shape
    part = torch.zeros((batch, heads, max_splits, head_dim), dtype=torch.float32, device=q.device)  # expect: none
    lse = torch.zeros((batch, heads, max_splits), dtype=torch.float32, device=q.device)  # expect: none
    out = torch.empty((batch, heads, head_dim), dtype=torch.float32, device=q.device)
    _reduce_then_partial(q, lens, splits, part, lse, out, min_chunk)
    return out
