"""AL401, the forms added: out = out.clamp(min=0, max=6) -> out.clamp_(0, 6)
and s = s.masked_fill(s < 1, 0) -> s.masked_fill_(s < 1, 0), bf16 as in
decoder activations, under torch.inference_mode()."""

import sys

from pairs import Report, bench, require_gpu, rotation_sets, same_bits

require_gpu()

import torch  # noqa: E402


def main(argv):
    rep = Report("AL401_inplace_forms", argv)
    torch.manual_seed(rep.seed)
    sizes = [4096, 1 << 20] if rep.check_only else [4096, 1 << 16, 1 << 20, 16 << 20, 64 << 20]
    with torch.inference_mode():
        for n in sizes:
            nbytes = n * 2
            sets = 1 if rep.check_only else rotation_sets(2 * nbytes)
            src = [torch.randn(n, device="cuda", dtype=torch.bfloat16) * 8 for _ in range(sets)]
            work = [s.clone() for s in src]
            for name, out_of_place, in_place in (
                    ("clamp", lambda t: t.clamp(min=0, max=6), lambda t: t.clamp_(min=0, max=6)),
                    ("masked_fill", lambda t: t.masked_fill(t < 1, 0),
                     lambda t: t.masked_fill_(t < 1, 0))):
                ref = out_of_place(src[0])
                got = src[0].clone()
                in_place(got)
                rep.check("AL401", f"x = x.{name}(...) == x.{name}_(...)", n, True,
                          same_bits(ref, got))
                if rep.check_only:
                    continue
                # The rewritten form updates a fresh copy each time, as the
                # original's input is fresh each time in the model.
                rep.row("AL401", f"x.{name}(...) vs x.{name}_(...)", "original", n, nbytes,
                        *bench(lambda i: out_of_place(work[i]), sets), 2 * nbytes)
                rep.row("AL401", f"x.{name}(...) vs x.{name}_(...)", "rewritten", n, nbytes,
                        *bench(lambda i: in_place(work[i]), sets), 2 * nbytes)
    return rep.finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
