# AL303 fixtures: a buffer filled one index per loop iteration.
import torch


def reset_kv_rows(k_buffer: torch.Tensor, n):
    # One kernel launch per row; a slice fills them in one. But n < 0 makes
    # the loop empty and the slice `[:n]` everything but the last -n rows.
    for i in range(n):
        k_buffer[i].zero_()  # expect: AL303 unsafe
    return k_buffer


def reset_first_rows(k_buffer: torch.Tensor, v_buffer):
    # A shape is never negative.
    for i in range(v_buffer.shape[0] // 2):
        k_buffer[i].zero_()  # expect: AL303 safe
    return k_buffer


def reset_slots(cache: torch.Tensor, start, num_slots):
    # The bounds are names: a negative one would turn the slice around.
    for slot in range(start, start + num_slots):
        cache[slot].zero_()  # expect: AL303 unsafe
    return cache


def fill_pages(table: torch.Tensor, x):
    for p in range(2, x.shape[0], 2):
        table[p].fill_(-1)  # expect: AL303 safe
    return table


class LayerState:
    def __init__(self, num_layers, width):
        self.state = torch.zeros(num_layers, width)

    def reset(self, layers):
        for layer in range(len(layers)):
            self.state[layer].fill_(0.0)  # expect: AL303 safe
        return self.state


def reset_layer_state(x):
    # Drives LayerState for the execution test.
    state = LayerState(x.shape[0], 4)
    state.state.add_(x[:, :1])
    return state.reset([0, 1])


def list_of_layers(kv_buffer: list, num_layers):
    # One tensor per layer in a list: a list has no zero_(), no rewrite.
    for layer_id in range(num_layers):
        kv_buffer[layer_id].zero_()  # expect: none
    return kv_buffer


def not_known_to_be_a_tensor(pool, num_layers):
    # pool.kv_buffer may be a list of tensors (it often is): no finding.
    for layer_id in range(num_layers):
        pool.kv_buffer[layer_id].zero_()  # expect: none
    return pool


def made_here(n):
    rows = torch.ones(8, 4)
    for i in range(2, 6):
        rows[i].zero_()  # expect: AL303 safe
    return rows


def index_read_after(buf: torch.Tensor, n):
    for i in range(n):
        buf[i].zero_()  # expect: AL303 nofix
    return buf, i


def backwards(buf: torch.Tensor, n):
    # A negative step: slicing a tensor backwards is not allowed.
    for i in range(n, 0, -1):
        buf[i].zero_()  # expect: AL303 nofix
    return buf


def value_read_from_the_buffer(buf: torch.Tensor):
    # buf[0] is read on every iteration, after the first one wrote it.
    for i in range(buf.shape[0]):
        buf[i].fill_(buf[0] + 1)  # expect: none
    return buf


def value_is_a_tensor(buf: torch.Tensor, pad_value):
    # pad_value may be a view of buf: the fix is offered as unsafe.
    for i in range(buf.shape[0]):
        buf[i].fill_(pad_value)  # expect: AL303 unsafe
    return buf


def value_depends_on_index(buf: torch.Tensor, n):
    for i in range(n):
        buf[i].fill_(i)  # expect: none
    return buf


def two_statements(buf: torch.Tensor, out, n):
    for i in range(n):
        buf[i].zero_()
        out[i] = 1  # expect: none
    return buf, out


def over_a_list(buf: torch.Tensor, rows):
    # Not a range: rows may repeat or be out of order, which a constant
    # fill does not mind; what rows is (1-D ints?) nothing here says.
    for r in rows:
        buf[r].zero_()  # expect: AL303 unsafe
    return buf


def column_index(buf: torch.Tensor, n):
    for i in range(n):
        buf[:, i].zero_()  # expect: none
    return buf


def else_clause(buf: torch.Tensor, n):
    for i in range(n):
        buf[i].zero_()  # expect: none
    else:
        buf.add_(1)
    return buf


def index_read_by_eval(k_buffer: torch.Tensor, v_buffer):
    # eval reads `i` after the loop by name: the loop stays.
    for i in range(v_buffer.shape[0] // 2):
        k_buffer[i].zero_()  # expect: AL303 nofix
    return k_buffer, eval("i")
