"""Token sampler for a decode step: temperature, top-k and top-p."""

import torch


def apply_top_k(logits: torch.Tensor, top_k: torch.Tensor) -> torch.Tensor:
    # Rows of the mask are filled one by one; each row is written whole.
    batch, vocab = logits.shape
    keep = torch.ones(batch, vocab, dtype=torch.bool, device=logits.device)
    for i in range(batch):
        keep[i] = logits[i] >= torch.topk(logits[i], int(top_k[i])).values[-1]
    return logits.masked_fill(~keep, float("-inf"))


def apply_top_p(logits: torch.Tensor, top_p: torch.Tensor) -> torch.Tensor:
    probs, order = torch.sort(torch.softmax(logits, dim=-1), dim=-1, descending=True)
    cumulative = torch.zeros_like(probs)
    torch.cumsum(probs, dim=-1, out=cumulative)
    drop_sorted = cumulative - probs > top_p.unsqueeze(-1)
    # Scatter writes only where `order` points; the mask starts all-False.
    drop = torch.zeros_like(drop_sorted)
    drop.scatter_(-1, order, drop_sorted)
    return logits.masked_fill(drop, float("-inf"))


def sample(logits: torch.Tensor, temperature: torch.Tensor, top_k: torch.Tensor,
           top_p: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    scaled = torch.zeros(logits.shape, dtype=torch.float32, device=logits.device)
    torch.div(logits, temperature.unsqueeze(-1), out=scaled)
    scaled = apply_top_p(apply_top_k(scaled, top_k), top_p)
    probs = torch.softmax(scaled, dim=-1)
    # Exponential noise for the Gumbel-max trick: exponential_ overwrites all.
    noise = torch.ones_like(probs)
    noise.exponential_(generator=generator)
    return torch.argmax(probs / noise, dim=-1)


def greedy_tokens(logits: torch.Tensor, num_reqs: int, max_reqs: int) -> torch.Tensor:
    # Padded to the CUDA-graph batch size: the tail must stay 0.
    out = torch.zeros(max_reqs, dtype=torch.int64, device=logits.device)
    out[:num_reqs] = torch.argmax(logits[:num_reqs], dim=-1)
    return out


def clear_finished_rows(output_ids: torch.Tensor, finished: list) -> torch.Tensor:
    # Finished requests are compacted to the front; one launch per row.
    for i in range(len(finished)):
        output_ids[i].fill_(-1)
    return output_ids

