import torch


def expert_rows(w: torch.Tensor, order: torch.Tensor, num_experts: int):
    rows = []
    for e in range(num_experts):
        rows.append(w[e][order].t())
    return torch.stack(rows)


def head_slices(weight: torch.Tensor, num_heads: int, head_dim: int):
    parts = []
    for h in range(num_heads):
        parts.append(weight[h * head_dim : (h + 1) * head_dim, :])
    return torch.stack(parts)
