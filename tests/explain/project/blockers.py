"""Buffers that several uses need zeroed: explain names the use that needs
the zeros most (the sum that starts from them), not the return after it."""
import torch


def weight_gradient(hidden_states, grad_logits, chunk):
    grad_weight = torch.zeros(grad_logits.shape[1], hidden_states.shape[1])
    for start in range(0, hidden_states.shape[0], chunk):
        grad_weight += grad_logits[start:start + chunk].t() @ hidden_states[start:start + chunk]
    return grad_weight
