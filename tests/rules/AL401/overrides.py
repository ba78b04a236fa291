# golden-args: --select AL401
# AL401 through `self.<method>(...)`: the method of self's class, which a
# subclass of the project may override. Every override is met.
import torch


class Scorer:
    @torch.inference_mode()
    def run(self, x):
        # A subclass returns the tensor it keeps: updating it would change
        # its cache.
        y = self.score(x)
        y = torch.clamp(y, min=0)  # expect: none
        return y

    def score(self, x):
        return torch.mul(x, 2.0)


class CachedScorer(Scorer):
    def __init__(self):
        self.cache = None

    def score(self, x):
        if self.cache is None:
            self.cache = torch.mul(x, 2.0)
        return self.cache


class Normaliser:
    @torch.inference_mode()
    def run(self, x):
        # Every `norm` of Normaliser's line returns a new tensor.
        y = self.norm(x)
        y = torch.clamp(y, min=0)  # expect: AL401 safe
        return y

    def norm(self, x):
        return torch.div(x, 2.0)


class RmsNormaliser(Normaliser):
    def norm(self, x):
        return torch.rsqrt(torch.mul(x, x) + 1.0)
