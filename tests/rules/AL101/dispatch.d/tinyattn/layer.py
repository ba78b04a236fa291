# The attention layer picks its backend at construction; calls go through
# `self.impl`, whose class is known only at run time.
import torch

from tinyattn.backends.chunked import ChunkedAttentionImpl
from tinyattn.backends.dense import DenseAttentionImpl


class Attention(torch.nn.Module):
    def __init__(self, scale, chunked, num_scheduled):
        super().__init__()
        self.impl = ChunkedAttentionImpl(scale) if chunked else DenseAttentionImpl(scale)
        self.projector = None
        self.num_scheduled = num_scheduled

    def forward(self, query, key, value):
        # One backend leaves the padded tokens alone: the zeros are needed.
        output = torch.zeros_like(query)  # expect: none
        self.impl.forward(self, query, key, value, output=output)
        return output

    def project(self, x):
        # Every `project` of the project writes all of `out`, but which one
        # runs is chosen at run time.
        out = torch.zeros_like(x)  # expect: AL101 unsafe
        self.projector.project(x, out)
        return out
