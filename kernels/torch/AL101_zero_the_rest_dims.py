"""AL101, zeroing only what is left in a dimension that is not the first:
a buffer padded in its last dimension, written on the leading part of it

    buf = torch.zeros(E, N, K + k); buf[:, :, :K] = w
 -> buf = torch.empty(E, N, K + k); buf[:, :, :K] = w; buf[:, :, K:].zero_()

(MoE weights padded to a kernel's alignment at load time, an attention
mask padded past the query length). The tail is not contiguous: each row's
last k elements. The rewrite's fresh memory is poisoned, and both forms
must agree bit for bit; the wrong rewrite, `empty` without the rest's
zeros, must be seen to differ.
"""

import sys

from pairs import Report, bench, poison_pool, require_gpu, same_bits

require_gpu()

import torch  # noqa: E402


def main(argv):
    rep = Report("AL101_zero_the_rest_dims", argv)
    torch.manual_seed(rep.seed)
    # (leading dims, written length, padding): a decode mask row, MoE
    # weights (experts, rows, columns), their scales.
    shapes = [((4, 1, 16), 16, 8), ((8, 256), 1000, 24)] if rep.check_only else [
        ((4, 1, 16), 16, 8),          # (B, 1, S, T) mask, T = S + 8
        ((64, 1, 512), 512, 64),
        ((8, 256), 1000, 24),         # scales: (E, N, K/32) padded
        ((64, 2048), 7168, 128),      # weights: (E, 2N, K) padded 2 %
        ((64, 2048), 7168, 1024),     # ... padded 14 %
        ((256, 4096), 1408, 128),     # (E, N, K) of an MoE with 256 experts
    ]
    for lead, n, k in shapes:
        w = torch.randn(*lead, n, device="cuda", dtype=torch.bfloat16)
        full = (*lead, n + k)
        nbytes = w.numel() // n * (n + k) * 2

        def orig():
            buf = torch.zeros(full, device="cuda", dtype=torch.bfloat16)
            buf[..., :n] = w
            return buf

        def new():
            buf = torch.empty(full, device="cuda", dtype=torch.bfloat16)
            buf[..., :n] = w
            buf[..., n:].zero_()
            return buf

        def wrong():
            buf = torch.empty(full, device="cuda", dtype=torch.bfloat16)
            buf[..., :n] = w
            return buf

        a = orig()
        poison_pool(nbytes)
        b = new()
        label = f"{'x'.join(map(str, lead))}x{n} padded by {k}"
        rep.check("AL101", f"zeros + [..., :n] = w == empty + write + [..., n:].zero_() ({label})",
                  n, True, same_bits(a, b))
        poison_pool(nbytes)
        c = wrong()
        rep.check("AL101", f"empty without the rest's zeros differs ({label})", n, False,
                  same_bits(a, c))
        del a, b, c
        if rep.check_only:
            continue
        moved = w.numel() * 2
        rep.row("AL101", f"eager: {label}", "original", n, nbytes, *bench(lambda i: orig(), 1),
                nbytes + 2 * moved)
        rep.row("AL101", f"eager: {label}", "rewritten", n, nbytes, *bench(lambda i: new(), 1),
                2 * moved + (nbytes - moved))
    return rep.finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
