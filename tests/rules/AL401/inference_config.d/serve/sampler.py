# golden-args: --select AL401
# The project's configuration says `inference = true`: no decorator needed.
import torch


def apply_penalty(logits):
    scores = torch.softmax(logits, dim=-1)
    scores = scores.clamp(min=0, max=1)  # expect: AL401 safe
    return scores


def apply_temperature(logits, temperature):
    # The shape and dtype proof still applies.
    probs = torch.softmax(logits, dim=-1)
    probs = probs / temperature  # expect: AL401 unsafe
    return probs
