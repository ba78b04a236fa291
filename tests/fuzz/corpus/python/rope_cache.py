import torch


class RotaryCache:
    def __init__(self, dim, max_pos, device="cuda"):
        self.cos = torch.zeros(max_pos, dim // 2, device=device)
        self.sin = torch.zeros(max_pos, dim // 2, device=device)
        pos = torch.arange(max_pos, device=device)
        inv = 1.0 / (10000 ** (torch.arange(0, dim, 2, device=device) / dim))
        freqs = torch.outer(pos, inv)
        self.cos.copy_(freqs.cos())
        self.sin[:] = freqs.sin()

    def forward(self, q, k, positions):
        out_q = torch.empty_like(q)
        for i in range(q.shape[0]):
            tmp = torch.zeros_like(q[i])
            tmp.copy_(q[i] * self.cos[positions[i]])
            out_q[i] = tmp
        return out_q, k
