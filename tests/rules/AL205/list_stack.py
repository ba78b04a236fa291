# Loops that gather one tensor per iteration and stack them afterwards.
import torch


def prepare_expert_weights(experts, num_experts):
    # Weight preparation: each expert's weight is converted and transposed;
    # the list keeps all of them until the stack copies them.
    weights = []
    for e in range(num_experts):
        w = experts[e].weight.float().t()
        weights.append(w)  # expect: AL205 nofix
    return torch.stack(weights)


def project_per_head(x, w, num_heads, head_dim):
    # Each head's projection is written into a fresh buffer of one shape.
    outs = []
    for h in range(num_heads):
        buf = torch.empty(x.shape[0], head_dim, dtype=x.dtype, device=x.device)
        torch.matmul(x, w[h], out=buf)
        outs.append(buf)  # expect: AL205 unsafe
    return torch.stack(outs)


def zero_padded_rows(rows, num_rows, width):
    # zeros, then a prefix written: the preallocated zeros keep the rest.
    padded = []
    for r in range(num_rows):
        row = torch.zeros((width,), dtype=torch.float32)
        n = min(width, rows[r].numel())
        row[:n] = rows[r][:n]
        padded.append(row)  # expect: AL205 unsafe
    out = torch.stack(padded, dim=0)
    return out


def concat_chunks(chunks):
    # cat joins along a dimension the chunks already have.
    parts = []
    for c in chunks:
        parts.append(c * 2)  # expect: AL205 nofix
    return torch.cat(parts)


def until_padding(tokens, n):
    # The loop may stop early: the number of rows is not known before it.
    rows = []
    for i in range(n):
        if tokens[i] < 0:
            break
        rows.append(torch.ones(4) * tokens[i])  # expect: AL205 nofix
    return torch.stack(rows)


def kept_list(xs, n):
    # The list is handed on as well as stacked.
    ys = []
    for i in range(n):
        ys.append(torch.zeros(3))  # expect: AL205 nofix
    stacked = torch.stack(ys)
    return stacked, ys


def conditional_append(xs, n):
    # Only some iterations append: not one element per iteration.
    ys = []
    for i in range(n):
        if xs[i].sum() > 0:
            ys.append(xs[i])
    return torch.stack(ys)  # expect: none


def two_appends(xs, n):
    # Two elements per iteration.
    ys = []
    for i in range(n):
        ys.append(xs[i])
        ys.append(-xs[i])
    return torch.stack(ys)  # expect: none


def stacked_later(xs, n):
    # Something else runs between the loop and the stack.
    ys = []
    for i in range(n):
        ys.append(xs[i] + 1)
    print(len(ys))
    return torch.stack(ys)  # expect: none


def rebound_element(x, w, n):
    # The element is rebound after the factory: the slice would not hold it.
    outs = []
    for i in range(n):
        buf = torch.empty(4, 4)
        torch.mm(x, w, out=buf)
        buf = buf.relu()
        outs.append(buf)  # expect: AL205 nofix
    return torch.stack(outs)


def element_kept_after(x, w, n):
    # The last element is changed after the loop; the stacked copy must not
    # see that, a slice of a preallocated result would.
    outs = []
    for i in range(n):
        buf = torch.empty(4, 4)
        torch.mm(x, w[i], out=buf)
        outs.append(buf)  # expect: AL205 nofix
    y = torch.stack(outs)
    buf.zero_()
    return y


def shuffled_expert_weights(w13, w2, num_experts, tile):
    # Several lists made together, settings between, stacked well after the
    # loop: each is still collected and copied whole.
    w13_shuffled = []
    w2_shuffled = []
    block = tile * 2
    for i in range(num_experts):
        w13_shuffled.append(w13[i].flip(0).contiguous())  # expect: AL205 nofix
        w2_shuffled.append(w2[i][:block].contiguous())  # expect: AL205 nofix
    scale = float(block)
    w13_out = torch.stack(w13_shuffled)
    w2_out = torch.stack(w2_shuffled) * scale
    return w13_out, w2_out


def factory_stacked_later(x, w, n, d):
    # Unrelated statements after the loop do not stop the rewrite.
    parts = []
    for i in range(n):
        buf = torch.empty(x.shape[0], d, dtype=x.dtype, device=x.device)
        torch.matmul(x, w[i], out=buf)
        parts.append(buf)  # expect: AL205 unsafe
    width = d * n
    return torch.stack(parts), width


def draft_logits_rebound(hidden, steps: int, vocab: int):
    # The stack takes the list's own name: nothing reads the list after.
    logits = []
    for i in range(steps):
        step = torch.empty(hidden.shape[0], vocab, dtype=hidden.dtype)
        step.copy_(hidden[:, :vocab] * i)
        logits.append(step)  # expect: AL205 unsafe
    logits = torch.stack(logits)
    return logits


def draft_logits_rebound_then_list(hidden, steps: int, vocab: int):
    # The list is read again after the stack (its length).
    logits = []
    for i in range(steps):
        step = torch.empty(hidden.shape[0], vocab, dtype=hidden.dtype)
        step.copy_(hidden[:, :vocab] * i)
        logits.append(step)  # expect: AL205 nofix
    stacked = torch.stack(logits)
    return stacked, len(logits)


def per_head_blocks(x, w, num_heads, rows, head_dim):
    # Each head writes a block of `rows` rows; cat joins the blocks.
    outs = []
    for h in range(num_heads):
        buf = torch.empty(rows, head_dim, dtype=x.dtype, device=x.device)
        torch.matmul(x[:rows], w[h], out=buf)
        outs.append(buf)  # expect: AL205 unsafe
    return torch.cat(outs)


def per_head_blocks_listed_sizes(x, w, num_heads, rows, head_dim):
    # Sizes as a list: not the tuple the fix rewrites.
    outs = []
    for h in range(num_heads):
        buf = torch.empty([rows, head_dim], dtype=x.dtype, device=x.device)
        torch.matmul(x[:rows], w[h], out=buf)
        outs.append(buf)  # expect: AL205 nofix
    return torch.cat(outs)
