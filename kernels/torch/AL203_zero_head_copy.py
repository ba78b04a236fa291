"""AL203: a CUDA-graph state buffer whose element 0 stays zero.

    self.cu[: bs + 1].copy_(F.pad(torch.cumsum(lens, 0, dtype=int32), (1, 0)))
 -> self.cu[1 : bs + 1].copy_(torch.cumsum(lens, 0, dtype=int32))

at decode batch sizes, eager and replayed from a CUDA graph (as the
attention backends run it). The rewritten buffer starts as zeros with
elements 1.. poisoned, so every element it must write is checked.
"""

import sys

from pairs import Report, bench, graphed, require_gpu, same_bits

require_gpu()

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402


def main(argv):
    rep = Report("AL203_zero_head_copy", argv)
    torch.manual_seed(rep.seed)
    sizes = [1, 256] if rep.check_only else [1, 8, 64, 256, 1024, 4096]
    for bs in sizes:
        max_bs = 4096
        lens = torch.randint(1, 4096, (bs,), device="cuda", dtype=torch.int32)
        a = torch.zeros(max_bs + 1, dtype=torch.int32, device="cuda")
        b = torch.zeros(max_bs + 1, dtype=torch.int32, device="cuda")
        b[1:].fill_(-1)

        def orig():
            a[: bs + 1].copy_(F.pad(torch.cumsum(lens, dim=0, dtype=torch.int32), (1, 0)))

        def new():
            b[1: bs + 1].copy_(torch.cumsum(lens, dim=0, dtype=torch.int32))

        orig()
        new()
        rep.check("AL203", "padded copy == copy into [1:]", bs, True,
                  same_bits(a[: bs + 1], b[: bs + 1]))
        if rep.check_only:
            continue
        nbytes = (bs + 1) * 4
        rep.row("AL203", "eager: copy_(F.pad(cumsum)) vs [1:].copy_", "original", bs, nbytes,
                *bench(lambda i: orig(), 1), 3 * nbytes)
        rep.row("AL203", "eager: copy_(F.pad(cumsum)) vs [1:].copy_", "rewritten", bs, nbytes,
                *bench(lambda i: new(), 1), 2 * nbytes)
        go, gn = graphed(orig), graphed(new)
        rep.row("AL203", "graph replay: copy_(F.pad(cumsum)) vs [1:].copy_", "original", bs,
                nbytes, *bench(lambda i: go.replay(), 1), 3 * nbytes)
        rep.row("AL203", "graph replay: copy_(F.pad(cumsum)) vs [1:].copy_", "rewritten", bs,
                nbytes, *bench(lambda i: gn.replay(), 1), 2 * nbytes)
    return rep.finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
