# A dense backend: computes every token's output.
import torch


class DenseAttentionImpl:
    def __init__(self, scale):
        self.scale = scale

    def forward(self, layer, query, key, value, output=None):
        scores = torch.softmax(query @ key.transpose(-1, -2) * self.scale, dim=-1)
        output.copy_(scores @ value)
        return output


class DenseProjector:
    def project(self, x, out):
        out.copy_(x * 2.0)
        return out
