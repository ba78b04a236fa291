import torch

from tinyengine.runner import PagedRunner, StepRunner


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
