# A block whose layers come from base classes in another file.
import torch
from torch import nn

import fastkern
import outside_lib

from engine.layers import Passthrough, ProjectedBase, Scaler

from . import Halver


class Doubler(Scaler):
    def __init__(self):
        super().__init__(2.0)


class MaybeSkip(Passthrough):
    pass


class Quarter(Halver):
    # Its base comes from the package itself (`from . import Halver`).
    pass


class External(outside_lib.Layer):
    # Its forward may come from a base alloclint cannot read.
    pass


class Block(ProjectedBase):
    def __init__(self, dim):
        super().__init__(dim)
        # Named like Tensor.expand: a module attribute, not the tensor method.
        self.expand = Doubler()
        self.skip = MaybeSkip()
        self.ext = External()
        self.quarter = Quarter()

    @torch.inference_mode()
    def forward(self, x):
        # `self.proj` is the base class's nn.Linear.
        h = self.proj(x)
        h = h.clamp(min=0)  # expect: AL401 safe
        # Doubler inherits Scaler's forward: a new tensor.
        d = self.expand(h)
        d = d.clamp(min=1)  # expect: AL401 safe
        # MaybeSkip inherits a forward that returns its input.
        s = self.skip(h)
        s = s.clamp(min=1)  # expect: none
        e = self.ext(h)
        e = e.clamp(min=1)  # expect: AL401 unsafe
        q = self.quarter(h)
        q = q.clamp(min=1)  # expect: AL401 safe
        # The library's word, not a proof.
        n = fastkern.fused_norm(h)
        n = n.clamp(min=0)  # expect: AL401 unsafe
        return h + d + s + e + q + n
