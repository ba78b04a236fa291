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
