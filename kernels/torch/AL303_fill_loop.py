"""AL303: for i in range(n): buf[i].zero_()  ->  buf[:n].zero_()

KV-cache-like rows of 4096 bf16 values; n rows out of 4096.
"""

import sys

from pairs import Report, bench, require_gpu, same_bits

require_gpu()

import torch  # noqa: E402


def main(argv):
    rep = Report("AL303_fill_loop", argv)
    torch.manual_seed(rep.seed)
    width = 4096
    counts = [4, 128] if rep.check_only else [1, 4, 32, 128, 1024]
    a = torch.empty(4096, width, device="cuda", dtype=torch.bfloat16)
    b = torch.empty_like(a)
    for n in counts:
        a.fill_(float("nan"))
        b.fill_(float("nan"))

        def orig():
            for i in range(n):
                a[i].zero_()

        def new():
            b[:n].zero_()

        orig()
        new()
        rep.check("AL303", "loop of zero_ == slice zero_", n * width, True, same_bits(a, b))
        if rep.check_only:
            continue
        nbytes = n * width * 2
        rep.row("AL303", "loop of buf[i].zero_() vs buf[:n].zero_()", "original", n, nbytes,
                *bench(lambda i: orig(), 1), nbytes)
        rep.row("AL303", "loop of buf[i].zero_() vs buf[:n].zero_()", "rewritten", n, nbytes,
                *bench(lambda i: new(), 1), nbytes)
    return rep.finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
