"""AL302 triton-loop-invariant: tl.arange inside a loop, hoisted.

    for start in range(0, n_cols, BLOCK):          ar = tl.arange(0, BLOCK)
        offs = start + tl.arange(0, BLOCK)   ->    for start in range(0, n_cols, BLOCK):
        ...                                            offs = start + ar

A row-sum over a matrix; outputs poisoned first, and the pair must agree
bit for bit (the summation order is the same).
"""

import sys

from common import Report, bench, require_gpu, rotation_sets

require_gpu()

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402


@triton.jit
def rowsum_arange_in_loop(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def rowsum_arange_hoisted(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    ar = tl.arange(0, BLOCK)
    for start in range(0, n_cols, BLOCK):
        offs = start + ar
        acc += tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


def main(argv):
    rep = Report("AL302_loop_invariant", argv)
    torch.manual_seed(rep.seed)
    shapes = [(64, 4096), (1024, 1000)] if rep.check_only else [
        (16, 160), (64, 4096), (1024, 4096), (4096, 4096), (8192, 8192), (16384, 16384)]
    for rows, cols in shapes:
        n = rows * cols
        nbytes = n * 4
        sets = 1 if rep.check_only else rotation_sets(nbytes)
        x = [torch.randn(rows, cols, device="cuda") for _ in range(sets)]
        out = [torch.empty(rows, device="cuda") for _ in range(sets)]

        def orig(i):
            rowsum_arange_in_loop[(rows,)](x[i], out[i], cols, BLOCK=1024)

        def new(i):
            rowsum_arange_hoisted[(rows,)](x[i], out[i], cols, BLOCK=1024)

        out[0].fill_(float("nan"))
        orig(0)
        ref = out[0].clone()
        out[0].fill_(float("nan"))
        new(0)
        equal = bool(torch.equal(ref.view(torch.int32), out[0].view(torch.int32)))
        rep.check("AL302", f"hoisted arange == in-loop ({rows}x{cols})", n, True, equal)
        if not rep.check_only:
            rep.row("AL302", "tl.arange in loop vs hoisted", "original", n, nbytes, *bench(orig, sets), nbytes)
            rep.row("AL302", "tl.arange in loop vs hoisted", "rewritten", n, nbytes, *bench(new, sets), nbytes)
    return rep.finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
