import torch

from tinyengine.runner import (
    CachedRunner,
    PagedRunner,
    PatchedRunner,
    StepRunner,
    SwitchedRunner,
)


class ResidualRunner(StepRunner):
    def fill(self, buf, x):
        buf.add_(x)

    def write_out(self, out, x):
        torch.mul(x, 2.0, out=out)


class ChunkedPagedRunner(PagedRunner):
    def load(self, out, x):
        out.copy_(x * 2.0)


class CheckedPagedRunner(ChunkedPagedRunner):
    def load(self, out, x):
        assert float(out.sum()) == 0.0
        out.copy_(x)


class PrefixCachedRunner(CachedRunner):
    def _gather(self, out, x):
        out[: x.shape[0] // 2].copy_(x[: x.shape[0] // 2])


class EagerRunner(SwitchedRunner):
    def __init__(self):
        # A subclass's own attribute: the base's `self.emit(...)` runs it.
        super().__init__(False)
        self.emit = _accumulate_twice


def _accumulate_twice(out, x):
    out.add_(x)
    out.add_(x)


def patch(runner: PatchedRunner):
    runner.write_rows = _accumulate_twice
