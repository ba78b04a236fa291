"""AL201, a cumsum cast to int32 after it (issue 43):

    cu = torch.cat([torch.zeros(1, dtype=int32), torch.cumsum(x, 0).to(torch.int32)])
 -> cu = torch.empty(n + 1, dtype=int32); cu[:1].zero_()
    torch.cumsum(x, 0, dtype=torch.int32, out=cu[1:])

The fix sums in int32 instead of summing in int64 and casting: the same
bits for any integer x (two's complement, mod 2^32), also when the sums
overflow int32, which these checks drive them to. For float x the fix is
wrong (the cast truncates each sum, the int32 sum truncates each element
first): a check shows the two differ, which is why the fix is unsafe
unless x is known to hold integers. Eager and replayed from a CUDA graph.
"""

import sys

from pairs import Report, bench, graphed, poison_pool, require_gpu, same_bits

require_gpu()

import torch  # noqa: E402


def main(argv):
    rep = Report("AL201_cumsum_cast", argv)
    torch.manual_seed(rep.seed)
    sizes = [8, 65536] if rep.check_only else [8, 256, 4096, 65536, 1 << 20, 16 << 20]
    for n in sizes:
        nbytes = n * 8
        out = {}
        for dtype in (torch.int64, torch.int32):
            x = torch.randint(1, 64, (n,), device="cuda", dtype=dtype)
            big = torch.randint(1 << 28, 1 << 30, (n,), device="cuda", dtype=dtype)

            def orig(v):
                out["v"] = torch.cat([torch.zeros(1, dtype=torch.int32, device=v.device),
                                      torch.cumsum(v, 0).to(torch.int32)])

            def new(v):
                cu = torch.empty(v.shape[0] + 1, dtype=torch.int32, device=v.device)
                cu[:1].zero_()
                torch.cumsum(v, 0, dtype=torch.int32, out=cu[1:])
                out["v"] = cu

            name = str(dtype).replace("torch.", "")
            for label, v in ((f"{name} lengths", x), (f"{name} overflowing int32", big)):
                orig(v)
                ref = out["v"]
                poison_pool(nbytes + 8)
                new(v)
                rep.check("AL201", f"cat(zeros, cumsum.to(int32)) == int32 buffer: {label}", n,
                          True, same_bits(ref, out["v"]))
            if rep.check_only or dtype is not torch.int64:
                continue
            label = "cat([zeros(1), cumsum(x).to(int32)]) vs int32 buffer"
            rep.row("AL201", "eager: " + label, "original", n, nbytes,
                    *bench(lambda i: orig(x), 1), 2 * nbytes)
            rep.row("AL201", "eager: " + label, "rewritten", n, nbytes,
                    *bench(lambda i: new(x), 1), 2 * nbytes)
            go, gn = graphed(lambda: orig(x)), graphed(lambda: new(x))
            rep.row("AL201", "graph replay: " + label, "original", n, nbytes,
                    *bench(lambda i: go.replay(), 1), 2 * nbytes)
            rep.row("AL201", "graph replay: " + label, "rewritten", n, nbytes,
                    *bench(lambda i: gn.replay(), 1), 2 * nbytes)
        # Floats: the cast truncates each sum, the int32 sum each element.
        f = torch.rand(n, device="cuda") * 3
        a = torch.cumsum(f, 0).to(torch.int32)
        b = torch.cumsum(f, 0, dtype=torch.int32)
        rep.check("AL201", "float input: the int32 sum differs from the cast sums", n, False,
                  same_bits(a, b))
    return rep.finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
