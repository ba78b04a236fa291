# AL101 fixtures: buffers written chunk by chunk, as fused losses and
# prefill paths write them: a loop's passes together cover the whole
# extent, so the zero fill is wasted. Each pass's write must be a
# statement of the loop body, the chunk size not negative (a zero one
# raises; a negative one would run no pass and leave the zeros).
import math

import torch

CHUNK = 1024


def cdiv(a, b):
    return (a + b - 1) // b


def chunked_grad_of_param(hidden_states, weight, chunk_size):
    # The chunk size is the caller's: of unknown sign, so an assumption.
    num_rows = hidden_states.shape[0]
    grad_hidden = torch.zeros_like(hidden_states)  # expect: AL101 unsafe
    for start in range(0, num_rows, chunk_size):
        end = min(start + chunk_size, num_rows)
        grad_hidden[start:end] = hidden_states[start:end] @ weight
    return grad_hidden


def chunked_grad_of_constant(hidden_states, weight):
    num_rows = hidden_states.shape[0]
    grad_hidden = torch.zeros_like(hidden_states)  # expect: AL101 safe
    for start in range(0, num_rows, CHUNK):
        end = min(start + CHUNK, num_rows)
        grad_hidden[start:end] = hidden_states[start:end] @ weight
    return grad_hidden


def past_the_end_stops(x, n):
    out = torch.zeros(n, x.shape[1])  # expect: AL101 safe
    for s in range(0, n, 64):
        out[s:s + 64] = x[s:s + 64] * 2
    return out


def cdiv_helper(logits, n):
    probs = torch.zeros(n, logits.shape[1])  # expect: AL101 safe
    for c in range(cdiv(n, 16)):
        s = c * 16
        e = min(s + 16, n)
        probs[s:e] = torch.softmax(logits[s:e], dim=-1)
    return probs


def ceil_div_by_hand(x, n, block):
    size = max(1, block)
    out = torch.zeros(n, x.shape[1])  # expect: AL101 safe
    for c in range((n + size - 1) // size):
        start, end = c * size, min((c + 1) * size, n)
        out[start:end] = x[start:end] + 1
    return out


def math_ceil(x, n):
    out = torch.zeros(n, x.shape[1])  # expect: AL101 safe
    for c in range(math.ceil(n / 32)):
        out[c * 32:(c + 1) * 32] = x[c * 32:(c + 1) * 32]
    return out


def rows_of_len(x):
    out = torch.zeros_like(x)  # expect: AL101 safe
    for i in range(len(x)):
        out[i] = x[i].flip(0)
    return out


def second_dimension(x, n, m):
    # The chunks run along columns; rows are whole.
    out = torch.zeros(n, m)  # expect: AL101 safe
    for s in range(0, m, 8):
        out[:, s:s + 8] = x[:, s:s + 8]
    return out


def floor_division_leaves_the_tail(x, n):
    # range(n // 64) stops before the last partial chunk: its rows keep the zeros.
    out = torch.zeros(n, x.shape[1])  # expect: none
    for c in range(n // 64):
        out[c * 64:(c + 1) * 64] = x[c * 64:(c + 1) * 64]
    return out


def step_wider_than_the_chunk(x, n):
    out = torch.zeros(n, x.shape[1])  # expect: none
    for s in range(0, n, 128):
        out[s:s + 64] = x[s:s + 64]
    return out


def bound_is_not_the_extent(x, n, m):
    out = torch.zeros(n, x.shape[1])  # expect: none
    for s in range(0, m, 8):
        e = min(s + 8, m)
        out[s:e] = x[s:e]
    return out


def negative_step_runs_no_pass(x, n):
    out = torch.zeros(n, x.shape[1])  # expect: none
    for s in range(0, n, -8):
        out[s:s + 8] = x[s:s + 8]
    return out


def accumulated_per_chunk(x, n):
    out = torch.zeros(n, x.shape[1])  # expect: none
    for s in range(0, n, 8):
        out[s:s + 8] += x[s:s + 8]
    return out


def write_under_a_condition(x, n, flag):
    out = torch.zeros(n, x.shape[1])  # expect: none
    for s in range(0, n, 8):
        if flag:
            out[s:s + 8] = x[s:s + 8]
    return out


def end_bound_after_the_write(x, n):
    # `e` is the previous pass's end: the first pass writes nothing.
    out = torch.zeros(n, x.shape[1])  # expect: none
    e = 0
    for s in range(0, n, 8):
        out[s:e] = x[s:e]
        e = min(s + 8, n)
    return out


def leaves_early(x, n):
    out = torch.zeros(n, x.shape[1])  # expect: none
    for s in range(0, n, 8):
        if x[s].sum() < 0:
            break
        out[s:s + 8] = x[s:s + 8]
    return out


def read_before_the_pass_writes(x, n):
    out = torch.zeros(n, x.shape[1])  # expect: none
    for s in range(0, n, 8):
        x[s:s + 8] += out[s:s + 8]
        out[s:s + 8] = x[s:s + 8]
    return out
