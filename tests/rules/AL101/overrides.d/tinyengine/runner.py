# golden-args: --select AL101
# `self.<method>(buf)` runs the method of self's class, which may be a
# subclass that overrides it: every override in the project is met.
import torch


class StepRunner:
    def run(self, x):
        # A subclass adds into the buffer: the zeros are needed.
        buf = torch.zeros_like(x)  # expect: none
        self.fill(buf, x)
        return buf

    def fill(self, buf, x):
        buf.copy_(x)

    def project(self, x):
        # Every `write_out` of StepRunner's line writes all of it.
        out = torch.zeros_like(x)  # expect: AL101 safe
        self.write_out(out, x)
        return out

    def write_out(self, out, x):
        out.copy_(x)


class PagedRunner:
    def gather(self, x):
        # Only a subclass two levels down reads what it is handed.
        out = torch.zeros_like(x)  # expect: none
        self.load(out, x)
        return out

    def load(self, out, x):
        out.copy_(x)


class CachedRunner:
    def lookup(self, x):
        # A private method is overridden like any other (variants.py).
        out = torch.zeros_like(x)  # expect: none
        self._gather(out, x)
        return out

    def _gather(self, out, x):
        out.copy_(x)

    def scatter(self, x):
        # `__name` is mangled per class: no subclass replaces it.
        out = torch.zeros_like(x)  # expect: AL101 safe
        self.__place(out, x)
        return out

    def __place(self, out, x):
        out.copy_(x)


class SwitchedRunner:
    def __init__(self, accumulate):
        if accumulate:
            self.emit = _accumulate

    def step(self, x):
        # The instance's own `emit` hides the method when it is set.
        out = torch.zeros_like(x)  # expect: none
        self.emit(out, x)
        return out

    def emit(self, out, x):
        out.copy_(x)


def _accumulate(out, x):
    out.add_(x)


class PatchedRunner:
    def step(self, x):
        # variants.py sets `write_rows` on an instance from outside.
        out = torch.zeros_like(x)  # expect: none
        self.write_rows(out, x)
        return out

    def write_rows(self, out, x):
        out.copy_(x)
