"""AL101, zeroing only what is left: a buffer padded past its rows

    buf = x.new_zeros(n + k, hidden); buf[:n].copy_(x)
 -> buf = x.new_empty(n + k, hidden); buf[:n].copy_(x); buf[n:].zero_()

(padding a batch to the size a CUDA graph was captured at), eager and
replayed from a CUDA graph. The rewrite's fresh memory is poisoned, and
both forms must agree bit for bit; the wrong rewrite, `empty` without the
rest's zeros, must be seen to differ.
"""

import sys

from pairs import Report, bench, graphed, poison_pool, require_gpu, same_bits

require_gpu()

import torch  # noqa: E402


def main(argv):
    rep = Report("AL101_zero_the_rest", argv)
    torch.manual_seed(rep.seed)
    hidden = 4096
    sizes = [(1, 7), (200, 56)] if rep.check_only else \
        [(1, 7), (24, 8), (200, 56), (1000, 24), (4000, 96), (16000, 384)]
    for n, k in sizes:
        x = torch.randn(n, hidden, device="cuda", dtype=torch.bfloat16)
        nbytes = (n + k) * hidden * 2

        def orig():
            buf = x.new_zeros(n + k, hidden)
            buf[:n].copy_(x)
            return buf

        def new():
            buf = x.new_empty(n + k, hidden)
            buf[:n].copy_(x)
            buf[n:].zero_()
            return buf

        def wrong():
            buf = x.new_empty(n + k, hidden)
            buf[:n].copy_(x)
            return buf

        a = orig()
        poison_pool(nbytes)
        b = new()
        rep.check("AL101", "zeros + [:n].copy_ == empty + [:n].copy_ + [n:].zero_()", n, True,
                  same_bits(a, b))
        poison_pool(nbytes)
        c = wrong()
        rep.check("AL101", "empty without the rest's zeros differs", n, False, same_bits(a, c))
        del a, b, c
        if rep.check_only:
            continue
        label = f"pad {n} rows to {n + k}"
        rep.row("AL101", f"eager: {label}", "original", n, nbytes,
                *bench(lambda i: orig(), 1), nbytes + 2 * n * hidden * 2)
        rep.row("AL101", f"eager: {label}", "rewritten", n, nbytes,
                *bench(lambda i: new(), 1), nbytes + n * hidden * 2)
        go, gn = graphed(orig), graphed(new)
        rep.row("AL101", f"graph replay: {label}", "original", n, nbytes,
                *bench(lambda i: go.replay(), 1), nbytes + 2 * n * hidden * 2)
        rep.row("AL101", f"graph replay: {label}", "rewritten", n, nbytes,
                *bench(lambda i: gn.replay(), 1), nbytes + n * hidden * 2)
    return rep.finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
