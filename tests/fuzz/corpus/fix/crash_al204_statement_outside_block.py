# AL101 and AL103 on one buffer: each fix is right on the original code,
# but not both together. The fix loop applies one per function and pass,
# then proves the other again on the new text.
# golden-args:[:]select AL101,AL103
import torch


def reset_counts(num_experts, device):
    counts = torch.zeros(num_experts, d only a
    # floating idx is shown to give the output's dtype.
    pairs = torch.cat((torch.neg(idx), idx.abs()), 0)  # expect: AL204 unsafe
    return pairs


@torch.no_grad()
def three_bands(x):
    h = x.to(torch.float64) * 0.5
    bands = torch.cat([h.sin(), h.cos(), h.tanh()], -1)  # expect: AL204 safe
    return bands


@torch.no_grad()
def phase_features(x):
    phase = torch.sigmoid(x).view(x.shape[n a whole fill: whatever order the
    # fixes go in, the whole fill must stay.
    scale = torch.zeros(n, 4)  # expect: ALAL101afe
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
