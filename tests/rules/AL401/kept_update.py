# AL401: an out-of-place update kept on a tensor parameter
# (`logits = logits / temperature`: the caller's tensor must not change)
# makes a new tensor; every later update of the name may then reuse it.
# The parameter's annotation says it is a tensor: for a list or a number,
# `x + y` would make something else.
import torch


@torch.inference_mode()
def scale_and_cap(logits: torch.Tensor, temperature: torch.Tensor) -> torch.Tensor:
    logits = logits / temperature.unsqueeze(-1)
    logits = logits.clamp(min=-30, max=30)  # expect: AL401 safe
    return logits


@torch.inference_mode()
def scale_and_cap_untyped(logits, temperature):
    # Nothing says `logits` is a tensor.
    logits = logits / temperature.unsqueeze(-1)
    logits = logits.clamp(min=-30, max=30)  # expect: none
    return logits


@torch.inference_mode()
def scale_if_given(logits: torch.Tensor, temperature) -> torch.Tensor:
    # Without a temperature the caller's logits reach the clamp.
    if temperature is not None:
        logits = logits / temperature
    logits = logits.clamp(min=-30, max=30)  # expect: none
    return logits


@torch.inference_mode()
def scale_and_keep(logits: torch.Tensor, temperature: torch.Tensor, history: list):
    # The scaled logits are kept in the history before the clamp.
    logits = logits / temperature.unsqueeze(-1)
    history.append(logits)
    logits = logits.clamp(min=-30, max=30)  # expect: none
    return logits
