# AL101 fixtures: a buffer written on a prefix of one dimension, the
# dimensions before it whole: only the elements past the prefix need the
# zero fill, in that dimension.
import torch


def padded_attention_mask(scores, batch, q_len, kv_len):
    mask = torch.zeros(batch, 1, q_len, kv_len)  # expect: AL101 safe
    mask[:, :, :, :q_len] = scores
    return mask


def padded_last_dim(hidden_states, n, width):
    out = torch.zeros(n, width)  # expect: AL101 safe
    out[..., :hidden_states.shape[-1]] = hidden_states
    return out


def padded_columns(hidden_states, n, width):
    out = torch.zeros(n, width)  # expect: AL101 safe
    out[:, :hidden_states.shape[1]].copy_(hidden_states)
    return out


def not_whole_before_it(hidden_states, n, width):
    # Row 0 is never written: the zeros there are needed too.
    out = torch.zeros(n, width)  # expect: none
    out[1:, :3] = hidden_states[1:, :3]
    return out


def the_value_reads_the_buffer(hidden_states, n, width):
    out = torch.zeros(n, width)  # expect: none
    out[:, :2] = out[:, 2:4] + hidden_states[:, :2]
    return out


def end_changes_before_the_zeros(hidden_states, n, width):
    out = torch.zeros(n, width)  # expect: none
    out[:, :next(iter([2]))] = hidden_states[:, :2]
    return out
