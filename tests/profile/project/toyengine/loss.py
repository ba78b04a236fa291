"""A fused linear + cross-entropy loss computed in chunks of rows, as
training libraries write it to keep the logits small."""
import torch


def chunked_linear_cross_entropy(hidden, weight, target, chunk_size):
    num_rows = hidden.shape[0]
    # Every chunk writes its rows of the gradient: the fill is wasted, but
    # only a proof over the chunk loop shows it.
    grad_hidden = torch.zeros_like(hidden)
    # Accumulated over the chunks: the zeros are needed.
    grad_weight = torch.zeros_like(weight)
    loss = torch.zeros((), dtype=torch.float32, device=hidden.device)
    for start in range(0, num_rows, chunk_size):
        end = min(start + chunk_size, num_rows)
        logits = hidden[start:end] @ weight.t()
        probs = torch.softmax(logits.float(), dim=-1)
        rows = torch.arange(end - start, device=hidden.device)
        picked = probs[rows, target[start:end]]
        loss += -torch.log(picked).sum()
        probs[rows, target[start:end]] -= 1.0
        grad_logits = probs.to(hidden.dtype)
        grad_hidden[start:end] = grad_logits @ weight
        grad_weight += grad_logits.t() @ hidden[start:end]
    return loss / num_rows, grad_hidden, grad_weight
