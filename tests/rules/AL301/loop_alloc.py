# AL301 fixtures (off by default): the same temporary allocated every
# iteration, never outliving it.
import torch


def chunked_matmul(x, w, out, n_chunks):
    for i in range(n_chunks):
        tmp = torch.empty_like(out)  # expect: AL301 unsafe
        torch.matmul(x[i], w, out=tmp)
        out.add_(tmp)
    return out


def ping_pong(x, layers):
    for layer in layers:
        scratch = torch.empty(x.shape, dtype=x.dtype, device=x.device)  # expect: AL301 unsafe
        layer(x, out=scratch)
        x.copy_(scratch)
    return x


def zeroed_each_time(rows, width, acc):
    # Partly written each iteration: the hoisted buffer is re-zeroed.
    for r in rows:
        buf = torch.zeros(width)  # expect: AL301 unsafe
        buf[: r.numel()] = r
        acc.add_(buf)
    return acc


def filled_each_time(items, n, out):
    for it in items:
        mask = torch.full((n,), -1.0)  # expect: AL301 unsafe
        mask.masked_fill_(it > 0, 0.0)
        out.add_(mask)
    return out


def while_loop(state, n):
    while state.running:
        tmp = torch.zeros(n)  # expect: AL301 unsafe
        state.step(out=tmp)
        state.total.add_(tmp)
    return state


def shape_changes(chunks):
    # The shape depends on the loop variable.
    for c in chunks:
        tmp = torch.empty_like(c)  # expect: none
        tmp.copy_(c)
        c.add_(tmp)


def appended(chunks, n):
    # The value outlives the iteration.
    outs = []
    for c in chunks:
        t = torch.empty(n)  # expect: none
        t.copy_(c)
        outs.append(t)
    return outs


def returned(chunks, n):
    for c in chunks:
        t = torch.zeros(n)  # expect: none
        if c.any():
            return t
    return None


def stored(self, chunks, n):
    for i, c in enumerate(chunks):
        t = torch.empty(n)  # expect: none
        self.cache[i] = t


def used_after_the_loop(chunks, n):
    for c in chunks:
        t = torch.empty(n)  # expect: none
        t.copy_(c)
    return t


def size_grows(chunks):
    n = 1
    for c in chunks:
        n = n * 2
        t = torch.empty(n)  # expect: none
        c.add_(t.sum())


def passed_to_unknown(chunks, n, helper):
    # A call that may keep it: hoisted only as an assumption the message names.
    for c in chunks:
        t = torch.empty(n)  # expect: AL301 unsafe
        helper(t)


def not_in_a_loop(n):
    t = torch.empty(n)  # expect: none
    return t


def random_each_time(steps, n, acc):
    for s in steps:
        noise = torch.randn(n)  # expect: none
        acc.add_(noise)
    return acc


def receiver_changes(steps, build):
    # new_empty takes dtype and device from its receiver, rebound each step.
    for step in steps:
        qkv, gate = build(step)
        out = qkv.new_empty(4, 8)  # expect: none
        out.copy_(gate)
        step.sink.add_(out)


def content_bearing_factory(steps, acc):
    # arange has content: an in-place update would carry to the next step.
    for s in steps:
        idx = torch.arange(8)  # expect: none
        idx.add_(s)
        acc.add_(idx)
    return acc


def captured(chunks, n, hooks):
    for c in chunks:
        t = torch.empty(n)  # expect: none
        hooks.append(lambda: t)


def accumulate_chunks(chunks, n):
    # `output += tmp` updates output in place: the shape, dtype and device
    # that empty_like reads do not change between iterations.
    output = torch.zeros(n)
    for chunk in chunks:
        tmp = torch.empty_like(output)  # expect: AL301 unsafe
        torch.mul(chunk, 2, out=tmp)
        output += tmp
    return output


def rebinds_its_template(chunks, n):
    # output is rebound to a new tensor each iteration: its shape may change.
    output = torch.zeros(n)
    for chunk in chunks:
        tmp = torch.empty_like(output)  # expect: none
        torch.mul(chunk, 2, out=tmp)
        output = torch.cat([output, tmp])
    return output


def merge_chunks(chunks, merge):
    # The prefix state is merged with each chunk into a new buffer that then
    # takes its place: not hoistable (it outlives the iteration), but two
    # buffers swapped each iteration would do. Display only.
    output = None
    for chunk in chunks:
        if output is None:
            output = chunk
        else:
            merged = torch.empty_like(output)  # expect: AL301 nofix
            merge(out=merged, prefix=output, suffix=chunk)
            output = merged
    return output


def swapped_and_rebound(chunks, merge):
    # output also takes another value in the same branch: its shape may change.
    output = chunks[0]
    for chunk in chunks:
        merged = torch.empty_like(output)  # expect: none
        merge(out=merged, prefix=output, suffix=chunk)
        output = merged
        output = torch.cat([output, chunk])
    return output


def accumulate_experts(hidden, expert_out, num_experts):
    # A scratch made from the accumulator's shape; the accumulator is only
    # updated in place, so its shape, dtype and device stay.
    for e in range(num_experts):
        scratch = expert_out.new_empty(expert_out.shape)  # expect: AL301 unsafe
        torch.mul(hidden, float(e), out=scratch)
        expert_out += scratch
    return expert_out


def accumulate_rows(hidden, acc, steps):
    # The row count grows each step: `n += 1` rebinds an int, not a tensor.
    n = 1
    for _ in range(steps):
        rows = acc.new_zeros(n, acc.shape[1])  # expect: none
        rows += hidden[:n]
        acc[:n] += rows
        n += 1
    return acc


def accumulate_rebound(hidden, acc, steps):
    # `acc = acc + part` makes a new tensor each step: its shape may differ.
    for _ in range(steps):
        part = acc.new_empty(acc.shape)  # expect: none
        torch.mul(hidden, 2.0, out=part)
        acc = acc + part
    return acc
