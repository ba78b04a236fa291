# Combiners: one of them adds into what it is given.
class Combine:
    def finalize(self, out, expert_out):
        raise NotImplementedError


class SumCombine(Combine):
    def finalize(self, out, expert_out):
        out.copy_(expert_out.sum(dim=1))


class ResidualCombine(SumCombine):
    def finalize(self, out, expert_out):
        out += expert_out.sum(dim=1)
