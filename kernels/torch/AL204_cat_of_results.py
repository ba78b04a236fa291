"""AL204: a concatenation of elementwise results of one tensor.

    emb = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
 -> emb = args.new_empty((*args.shape[:-1], 2 * args.shape[-1]))
    torch.cos(args, out=emb.narrow(-1, 0, args.shape[-1]))
    torch.sin(args, out=emb.narrow(-1, args.shape[-1], args.shape[-1]))

the sinusoidal timestep embedding of diffusion and audio models (fp32,
128 frequencies a row), eager and replayed from a CUDA graph, and the
same along dim 0 in bf16 (`torch.cat([torch.neg(h), torch.exp(h)], 0)`).
Fresh memory is poisoned before each rewritten form runs, so a slice the
ops did not write would show.
"""

import sys

from pairs import Report, bench, graphed, poison_pool, require_gpu, same_bits

require_gpu()

import torch  # noqa: E402


def original_last(a):
    return torch.cat([torch.cos(a), torch.sin(a)], dim=-1)


def rewritten_last(a):
    emb = a.new_empty((*a.shape[:-1], 2 * a.shape[-1]))
    torch.cos(a, out=emb.narrow(-1, 0, a.shape[-1]))
    torch.sin(a, out=emb.narrow(-1, a.shape[-1], a.shape[-1]))
    return emb


def original_first(h):
    return torch.cat([torch.neg(h), torch.exp(h)], 0)


def rewritten_first(h):
    out = h.new_empty((2 * h.shape[0], *h.shape[1:]))
    torch.neg(h, out=out.narrow(0, 0, h.shape[0]))
    torch.exp(h, out=out.narrow(0, h.shape[0], h.shape[0]))
    return out


def main(argv):
    rep = Report("AL204_cat_of_results", argv)
    torch.manual_seed(rep.seed)
    rows = [1, 1024] if rep.check_only else [1, 64, 1024, 16384, 262144]
    with torch.inference_mode():
        for n in rows:
            t = torch.rand(n, device="cuda") * 1000
            freqs = torch.exp(-torch.arange(128, device="cuda", dtype=torch.float32) / 128 * 9.2)
            args = t[:, None] * freqs[None]
            nbytes = 2 * args.numel() * 4
            ref = original_last(args)
            poison_pool(nbytes)
            got = rewritten_last(args)
            rep.check("AL204", "cat(cos, sin, -1) == out= narrows", n * 256, True,
                      same_bits(ref, got))
            h = torch.randn(n, 1024, device="cuda", dtype=torch.bfloat16)
            ref = original_first(h)
            poison_pool(2 * h.numel() * 2)
            got = rewritten_first(h)
            rep.check("AL204", "cat(neg, exp, 0) == out= narrows", n * 2048, True,
                      same_bits(ref, got))
            # A rewrite that forgets a part must be caught.
            bad = rewritten_last(args)
            bad.narrow(-1, 0, args.shape[-1]).fill_(float("nan"))
            rep.check("AL204", "a part left unwritten differs", n * 256, False,
                      same_bits(original_last(args), bad))
            if rep.check_only:
                continue
            # Bytes moved: the ops read args and write their parts, cat
            # reads the parts and writes them again (4x the output's
            # bytes); the rewrite reads args and writes the output (2x).
            case = "timestep embedding, fp32 [n,128] -> [n,256], eager"
            rep.row("AL204", case, "original", n * 256, nbytes,
                    *bench(lambda i: original_last(args), 1), 4 * nbytes)
            rep.row("AL204", case, "rewritten", n * 256, nbytes,
                    *bench(lambda i: rewritten_last(args), 1), 2 * nbytes)
            go = graphed(lambda: original_last(args))
            gn = graphed(lambda: rewritten_last(args))
            case = "timestep embedding, graph replay"
            rep.row("AL204", case, "original", n * 256, nbytes,
                    *bench(lambda i: go.replay(), 1), 4 * nbytes)
            rep.row("AL204", case, "rewritten", n * 256, nbytes,
                    *bench(lambda i: gn.replay(), 1), 2 * nbytes)
            hbytes = 2 * h.numel() * 2
            case = "cat(neg, exp) along dim 0, bf16 [n,1024], eager"
            rep.row("AL204", case, "original", n * 2048, hbytes,
                    *bench(lambda i: original_first(h), 1), 4 * hbytes)
            rep.row("AL204", case, "rewritten", n * 2048, hbytes,
                    *bench(lambda i: rewritten_first(h), 1), 2 * hbytes)
    return rep.finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
