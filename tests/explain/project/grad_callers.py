"""Autograd off at every call of a private helper, two deep."""
import torch


def _explain_rescaled(x: torch.Tensor) -> torch.Tensor:
    s = torch.softmax(x, dim=-1)
    s = s * 0.5
    return s


def _explain_scaled_twice(x: torch.Tensor) -> torch.Tensor:
    return _explain_rescaled(x) + _explain_rescaled(x * 2.0)


def explain_eval_scores(x: torch.Tensor) -> torch.Tensor:
    with torch.no_grad():
        return _explain_scaled_twice(x)


def explain_overlap(x: torch.Tensor, alt_stream) -> torch.Tensor:
    with torch.inference_mode():
        h = torch.exp(x)
        with torch.cuda.stream(alt_stream):
            shared = torch.sigmoid(h)
        h = h * 2.0
        return h + shared
