"""AL201, the forms added for cat-with-zeros:

(a) torch.cat((zeros(n, a), x, zeros(n, b)), 1)  ->  F.pad(x, (a, b))
    zeros on both sides (convolution halos); three allocations become one.
(b) F.pad(torch.cumsum(x, 0, dtype=int32), (1, 0))  ->  an n + 1 buffer,
    buf[..., :1].zero_(), torch.cumsum(x, 0, dtype=int32, out=buf[..., 1:]);
(c) torch.cat([zeros(1), torch.cumsum(...)])  ->  the same buffer (1-D).
Both eager and replayed from a CUDA graph. The element is zeroed with
zero_() on a slice: `buf[0] = 0` copies a host scalar (15 us eager on an
H200) and cannot be captured in a CUDA graph at all.
"""

import sys

from pairs import Report, bench, graphed, poison_pool, require_gpu, rotation_sets, same_bits

require_gpu()

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402


def main(argv):
    rep = Report("AL201_pad_forms", argv)
    torch.manual_seed(rep.seed)
    halo = 3
    rows = [16, 4096] if rep.check_only else [16, 256, 4096, 65536]
    width = 1024
    for n in rows:
        nbytes = n * (width + 2 * halo) * 2
        sets = 1 if rep.check_only else rotation_sets(2 * nbytes)
        xs = [torch.randn(n, width, device="cuda", dtype=torch.bfloat16) for _ in range(sets)]

        def orig(i):
            x = xs[i]
            return torch.cat((torch.zeros(n, halo, dtype=x.dtype, device=x.device), x,
                              torch.zeros(n, halo, dtype=x.dtype, device=x.device)), 1)

        def new(i):
            return F.pad(xs[i], (halo, halo))

        ref = orig(0)
        poison_pool(nbytes)
        rep.check("AL201", "cat(zeros, x, zeros) == F.pad", n * width, True, same_bits(ref, new(0)))
        if not rep.check_only:
            rep.row("AL201", "cat(zeros, x, zeros) vs F.pad", "original", n * width, nbytes,
                    *bench(orig, sets), 2 * nbytes)
            rep.row("AL201", "cat(zeros, x, zeros) vs F.pad", "rewritten", n * width, nbytes,
                    *bench(new, sets), 2 * nbytes)

    sizes = [8, 65536] if rep.check_only else [8, 256, 4096, 65536, 1 << 20, 16 << 20]
    for n in sizes:
        nbytes = n * 4
        x = torch.randint(1, 64, (n,), device="cuda", dtype=torch.int32)
        out = {}

        def pad():
            out["v"] = F.pad(torch.cumsum(x, dim=0, dtype=torch.int32), (1, 0))

        def cat():
            out["v"] = torch.cat([torch.zeros(1, dtype=torch.int32, device=x.device),
                                  torch.cumsum(x, 0, dtype=torch.int32)])

        def buffer_nd():
            cu = torch.empty(*x.shape[:-1], x.shape[-1] + 1, dtype=torch.int32, device=x.device)
            cu[..., :1].zero_()
            torch.cumsum(x, 0, dtype=torch.int32, out=cu[..., 1:])
            out["v"] = cu

        def buffer_1d():
            cu = torch.empty(x.shape[0] + 1, dtype=torch.int32, device=x.device)
            cu[:1].zero_()
            torch.cumsum(x, 0, dtype=torch.int32, out=cu[1:])
            out["v"] = cu

        for label, orig, new in (("F.pad(cumsum, (1, 0)) vs buffer", pad, buffer_nd),
                                 ("cat([zeros(1), cumsum]) vs buffer", cat, buffer_1d)):
            orig()
            ref = out["v"]
            poison_pool(nbytes + 4)
            new()
            rep.check("AL201", label, n, True, same_bits(ref, out["v"]))
            if rep.check_only:
                continue
            rep.row("AL201", "eager: " + label, "original", n, nbytes, *bench(lambda i: orig(), 1),
                    2 * nbytes)
            rep.row("AL201", "eager: " + label, "rewritten", n, nbytes, *bench(lambda i: new(), 1),
                    2 * nbytes)
            go, gn = graphed(orig), graphed(new)
            rep.row("AL201", "graph replay: " + label, "original", n, nbytes,
                    *bench(lambda i: go.replay(), 1), 2 * nbytes)
            rep.row("AL201", "graph replay: " + label, "rewritten", n, nbytes,
                    *bench(lambda i: gn.replay(), 1), 2 * nbytes)
    return rep.finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
