import torch
from torch import nn


class ColumnLinear(nn.Module):
    def __init__(self, hidden, out):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out, hidden))
        self.bias = nn.Parameter(torch.zeros(out))

    def forward(self, x):
        out = torch.matmul(x, self.weight.t())
        return out, self.bias


class Gate(nn.Module):
    def __init__(self, hidden, enabled):
        super().__init__()
        self.enabled = enabled
        self.proj = ColumnLinear(hidden, hidden)

    def forward(self, x):
        if self.enabled:
            x, _ = self.proj(x)
        return x


class Block(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.proj = ColumnLinear(hidden, hidden)
        self.gate = Gate(hidden, False)

    @torch.inference_mode()
    def forward(self, x, residual):
        h, _ = self.proj(x)
        h = h.clamp(min=0)
        g = self.gate(x)
        g = g + residual
        return h, g

    @torch.inference_mode()
    def gated(self, x):
        h, _ = self.proj(x)
        g = self.gate(h)
        g = g.clamp(min=0)
        return g
