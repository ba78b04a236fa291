import torch


def expert_rows(w: torch.Tensor, order: torch.Tensor, num_experts: int):
    rows = []
    for e in range(num_experts):
        rows.append(w[e][order].t())
    return torch.stack(rows)
