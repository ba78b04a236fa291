# AL101 fixtures: uses that read a buffer's shape, dtype, device or
# strides, and none of its elements, come before its full write: the
# fill is still wasted. What reads an element, or hands the storage out,
# keeps it.
import torch


def positions_and_a_mask(input_ids, n):
    positions = torch.zeros(n, dtype=torch.int64)  # expect: AL101 safe
    attention_mask = torch.ones_like(positions)
    positions.copy_(input_ids)
    return positions, attention_mask


def scratch_like(hidden_states, n):
    out = torch.zeros(n, hidden_states.shape[-1])  # expect: AL101 safe
    scratch = torch.empty_like(out)
    out.copy_(hidden_states)
    return out, scratch


def zeros_of_its_shape(hidden_states, n):
    out = torch.zeros(n, hidden_states.shape[-1])  # expect: AL101 safe
    acc = torch.zeros_like(out)
    out.copy_(hidden_states)
    return out, acc


def sizes_and_kinds(hidden_states, n):
    out = torch.zeros(n, hidden_states.shape[-1])  # expect: AL101 safe
    rows = out.shape[0] + out.size(0) + out.numel() + out.dim() + len(out)
    kind = (out.dtype, out.device, out.stride())
    out.copy_(hidden_states)
    return out, rows, kind


def a_new_tensor_of_its_kind(hidden_states, n):
    out = torch.zeros(n, hidden_states.shape[-1])  # expect: AL101 safe
    lens = out.new_zeros(n, dtype=torch.int32)
    out.copy_(hidden_states)
    return out, lens


def cloned_before(hidden_states, n):
    out = torch.zeros(n, hidden_states.shape[-1])  # expect: none
    before = out.clone()
    out.copy_(hidden_states)
    return out, before


def summed_before(hidden_states, n):
    out = torch.zeros(n, hidden_states.shape[-1])  # expect: none
    total = out.sum()
    out.copy_(hidden_states)
    return out, total


def element_read_before(hidden_states, n):
    out = torch.zeros(n, hidden_states.shape[-1])  # expect: none
    first = out[0, 0].item()
    out.copy_(hidden_states)
    return out, first


def storage_handed_out(hidden_states, n):
    out = torch.zeros(n, hidden_states.shape[-1])  # expect: none
    address = out.data_ptr()
    out.copy_(hidden_states)
    return out, address != 0


def like_with_the_buffer_as_fill(hidden_states, n):
    # The buffer is full_like's fill value here, not its input: a read.
    out = torch.zeros((), dtype=torch.float32)  # expect: none
    filled = torch.full_like(hidden_states, out)
    out.copy_(hidden_states.sum())
    return out, filled
