# A chunked backend: writes only the tokens scheduled this step; padded
# tokens at the end of `output` keep what they held.
import torch


class ChunkedAttentionImpl:
    def __init__(self, scale):
        self.scale = scale

    def forward(self, layer, query, key, value, output=None):
        n = layer.num_scheduled
        scores = torch.softmax(query[:n] @ key[:n].transpose(-1, -2) * self.scale, dim=-1)
        output[:n] = scores @ value[:n]
        return output


class RowProjector:
    def project(self, x, out):
        torch.mul(x, 2.0, out=out)
        return out
