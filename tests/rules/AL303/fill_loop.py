# AL303 fixtures: a buffer filled one index per loop iteration.
import torch


def reset_kv_rows(k_buffer, n):
    # One kernel launch per row; a slice fills them in one. But n < 0 makes
    # the loop empty and the slice `[:n]` everything but the last -n rows.
    for i in range(n):
        k_buffer[i].zero_()  # expect: AL303 unsafe
    return k_buffer


def reset_first_rows(k_buffer, v_buffer):
    # A shape is never negative.
    for i in range(v_buffer.shape[0] // 2):
        k_buffer[i].zero_()  # expect: AL303 safe
    return k_buffer


def reset_slots(cache, start, num_slots):
    # The bounds are names: a negative one would turn the slice around.
    for slot in range(start, start + num_slots):
        cache[slot].zero_()  # expect: AL303 unsafe
    return cache


def fill_pages(table, x):
    for p in range(2, x.shape[0], 2):
        table[p].fill_(-1)  # expect: AL303 safe
    return table


def reset_layers(self_like, layers):
    for layer in range(len(layers)):
        self_like.state[layer].fill_(0.0)  # expect: AL303 safe
    return self_like


def index_read_after(buf, n):
    for i in range(n):
        buf[i].zero_()  # expect: AL303 nofix
    return buf, i


def backwards(buf, n):
    # A negative step: slicing a tensor backwards is not allowed.
    for i in range(n, 0, -1):
        buf[i].zero_()  # expect: AL303 nofix
    return buf


def value_depends_on_index(buf, n):
    for i in range(n):
        buf[i].fill_(i)  # expect: none
    return buf


def two_statements(buf, out, n):
    for i in range(n):
        buf[i].zero_()
        out[i] = 1  # expect: none
    return buf, out


def over_a_list(buf, rows):
    # Not a range: rows may repeat or be out of order.
    for r in rows:
        buf[r].zero_()  # expect: none
    return buf


def column_index(buf, n):
    for i in range(n):
        buf[:, i].zero_()  # expect: none
    return buf


def else_clause(buf, n):
    for i in range(n):
        buf[i].zero_()  # expect: none
    else:
        buf.add_(1)
    return buf
