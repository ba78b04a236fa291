import torch
from torch import nn


class Halver(nn.Module):
    def forward(self, x):
        return torch.mul(x, 0.5)
