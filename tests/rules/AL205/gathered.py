# Elements read out of a tensor: the same shape and dtype on every
# iteration when the tensor is, and only the loop's index or what the loop
# does not change picks them. The result is made from the first element.
import torch
import torch.nn.functional as F


def gather_expert_rows(w: torch.Tensor, idx: torch.Tensor, num_experts: int):
    # Each expert's rows, permuted: one gather per expert.
    rows = []
    for e in range(num_experts):
        rows.append(w[e][idx])  # expect: AL205 unsafe
    return torch.stack(rows)


def transposed_slices(w: torch.Tensor, n: int):
    # A named element, a view made float: the stack rebinds the list.
    outs = []
    for i in range(n):
        s = w[:, i].float().t()
        outs.append(s)  # expect: AL205 unsafe
    outs = torch.stack(outs)
    return outs * 2


def rows_of_a_buffer(n: int, width: int):
    # The source is a buffer made here; each row a float copy of it.
    table = torch.arange(n * width, dtype=torch.int32).reshape(n, width)
    picked = []
    for r in range(n):
        picked.append(table[r].float().unsqueeze(0))  # expect: AL205 unsafe
    out = torch.stack(picked, dim=0)
    return out


def gather_from_a_list(ws, n: int):
    # A list of tensors, not a tensor: each element may have its own shape.
    rows = []
    for e in range(n):
        rows.append(ws[e].float())  # expect: AL205 nofix
    return torch.stack(rows)


def windows(w: torch.Tensor, n: int, k: int):
    # The index inside a slice: the last windows are shorter.
    parts = []
    for i in range(n):
        parts.append(w[i : i + k] * 2)  # expect: AL205 nofix
    return torch.stack(parts)


def source_written_before_the_stack(w: torch.Tensor, n: int):
    # w[i].float() is w[i] itself when w is float32: a view of w, zeroed
    # before the stack reads it; a copy in the loop would keep the values.
    views = []
    for i in range(n):
        views.append(w[i].float())  # expect: AL205 nofix
    w.zero_()
    return torch.stack(views)


def element_written_in_the_loop(w: torch.Tensor, n: int):
    # The element is written after it is appended: the stack sees it.
    acc = []
    for i in range(n):
        row = w[i].clone()
        acc.append(row)  # expect: AL205 nofix
        row.mul_(2)
    return torch.stack(acc)


def picked_by_a_tensor_element(w: torch.Tensor, order: torch.Tensor, n: int):
    # order[i] is a tensor: a bool one would add a dimension, not pick one.
    rows = []
    for i in range(n):
        rows.append(w[order[i]])  # expect: AL205 nofix
    return torch.stack(rows)


def ragged_prefixes(w: torch.Tensor, lengths: torch.Tensor, n: int):
    # Each row cut to its own length: shapes differ.
    rows = []
    for i in range(n):
        rows.append(w[i][: lengths[i]] * 2)  # expect: AL205 nofix
    return torch.stack(rows)


def unknown_method(w: torch.Tensor, n: int):
    # nonzero's shape depends on the values.
    rows = []
    for i in range(n):
        rows.append(w[i].nonzero())  # expect: AL205 nofix
    return torch.stack(rows)


def expert_projections(x: torch.Tensor, w: torch.Tensor, num_experts: int, scale):
    # A library result of invariant operands: F.linear's shape and dtype
    # follow from x's and w[e]'s; scale is the same on every iteration.
    ys = []
    for e in range(num_experts):
        ys.append(F.linear(x, w[e]) * scale)  # expect: AL205 unsafe
    return torch.stack(ys)


def scaled_by_a_list(w: torch.Tensor, factors, n: int):
    # factors[i] may be an int on one iteration and a float on the next:
    # the dtype may change.
    rows = []
    for i in range(n):
        rows.append(w[i] * factors[i])  # expect: AL205 nofix
    return torch.stack(rows)


def written_through_out(w: torch.Tensor, scratch: torch.Tensor, n: int):
    # out= writes scratch on every iteration: every element is scratch.
    rows = []
    for i in range(n):
        rows.append(torch.mul(w[i], 2, out=scratch))  # expect: AL205 nofix
    return torch.stack(rows)


def annotated_then_rebound(w: torch.Tensor, n: int):
    # The annotation no longer holds: w is a list of differently shaped
    # tensors by the loop.
    w = [w[: k + 1] for k in range(n)]
    rows = []
    for i in range(n):
        rows.append(w[i].float())  # expect: AL205 nofix
    return torch.stack(rows)


def rows_counted_by_len(w: torch.Tensor):
    # len(w) gives the same count when the fix reads it again.
    rows = []
    for i in range(len(w)):
        rows.append(w[i].t() * 2)  # expect: AL205 unsafe
    return torch.stack(rows)


def count_drawn_from_an_iterator(w: torch.Tensor, sizes):
    # The fix would call next() a second time: another count.
    it = iter(sizes)
    rows = []
    for i in range(next(it)):
        rows.append(w[i] + 1)  # expect: AL205 nofix
    return torch.stack(rows)


def both_names_taken(w: torch.Tensor, n: int, row, elem):
    # An element appended itself needs a name in the fix; these are the
    # function's parameters.
    rows = []
    for i in range(n):
        rows.append(w[i] + row + elem)  # expect: AL205 nofix
    return torch.stack(rows)


def count_named_like_the_element(w: torch.Tensor, n: int):
    # The element is bound to n, the count's name: read again in the first
    # pass, n would be the first row, not the count.
    rows = []
    for i in range(n):
        n = w[i].sum()
        rows.append(n)  # expect: AL205 nofix
    return torch.stack(rows)


def views_of_a_parameter(w: torch.Tensor, n: int):
    # Views of a tensor the caller holds: the list keeps no memory of its
    # own, there is no peak to halve.
    rows = []
    for i in range(n):
        rows.append(w[i].t())  # expect: none
    return torch.stack(rows)


def windows_of_a_parameter(w: torch.Tensor, n: int, k: int):
    # Slices are views, whatever their bounds.
    parts = []
    for i in range(n):
        parts.append(w[i : i + k])  # expect: none
    return torch.stack(parts)


def module_weights(experts, n: int):
    # Each expert's weight exists anyway.
    weights = []
    for e in range(n):
        weights.append(experts[e].weight)  # expect: none
    return torch.stack(weights)


def concat_expert_rows(w: torch.Tensor, idx: torch.Tensor, num_experts: int):
    # torch.cat of elements of one shape: n equal blocks of rows.
    parts = []
    for e in range(num_experts):
        parts.append(w[e][idx])  # expect: AL205 unsafe
    return torch.cat(parts)


def concat_counted_by_a_sum(w: torch.Tensor, idx: torch.Tensor, m: int, k: int):
    # The count as a factor goes in parentheses.
    parts = []
    for e in range(m - k + 1):
        parts.append(w[e][idx] * 2)  # expect: AL205 unsafe
    return torch.cat(parts, dim=0)


def concat_of_ragged_rows(w: torch.Tensor, lengths: torch.Tensor, n: int):
    # Each block its own length: the sizes along dimension 0 differ.
    parts = []
    for i in range(n):
        parts.append(w[i][: lengths[i]] * 2)  # expect: AL205 nofix
    return torch.cat(parts)
