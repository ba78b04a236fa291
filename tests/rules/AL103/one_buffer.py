# AL101 and AL103 on one buffer: each fix is right on the original code,
# but not both together. The fix loop applies one per function and pass,
# then proves the other again on the new text.
# golden-args: --select AL101,AL103
import torch


def reset_counts(num_experts, device):
    counts = torch.zeros(num_experts, dtype=torch.int32, device=device)  # expect: AL101 safe
    counts.zero_()  # expect: AL103 safe
    return counts


def pad_tokens(token_ids, max_len):
    padded = torch.zeros(max_len, dtype=token_ids.dtype)  # expect: AL101 safe
    padded.fill_(0)  # expect: AL103 safe
    padded[: token_ids.numel()] = token_ids
    return padded


def refill_scale(n, value):
    # zeros, a redundant zero fill, then a whole fill: whatever order the
    # fixes go in, the whole fill must stay.
    scale = torch.zeros(n, 4)  # expect: AL101 safe
    scale.zero_()  # expect: AL103 safe
    scale.fill_(value)
    return scale


def separate_buffers(x, n):
    # Two buffers in one function: the scopes meet, so the fixes go in two
    # passes, and both still apply.
    out = torch.zeros_like(x)  # expect: AL101 safe
    out.copy_(x)
    idx = torch.zeros(n, dtype=torch.long)  # expect: AL101 safe
    idx.copy_(torch.arange(n))
    return out, idx
