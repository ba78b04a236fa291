"""AL101's guarded pairs, run: the split-K decoders of the fixture
tests/rules/AL101/guarded_pairs.py as written (zeros), as alloclint fixes
them (its golden `.fixed`), and with every zero fill forced to `empty`,
each on memory poisoned with 0xFF, on a real GPU with Triton.

What must hold: where alloclint's fix is safe, the fixed decoder returns
the same bits as the original; for each trap alloclint stays silent on,
forcing `empty` changes the result (the zeros were read), except the
four whose difference this output cannot show, which the table says
and does not count: a reduction run without its partials (0 / 0 either
way), one racing with its own write of the split counts, a reduction
whose result the next one overwrites, and lanes past the mask that are
loaded but never stored (guarded_pairs_initcheck.py shows the loads). `--check` is
the same run (it is small)."""

import importlib.util
import os
import sys
import tempfile

from common import require_gpu

require_gpu()

import torch  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CASE = os.path.join(HERE, "..", "..", "tests", "rules", "AL101", "guarded_pairs.py")
SAFE = ["split_decode", "partials_returned", "row_max", "split_decode_wrapped",
        "partials_from_a_wrapper"]
TRAPS = ["other_predicate", "other_lengths", "lengths_grow_between", "more_splits_read",
         "partials_returned", "row_max_one_more", "row_range", "wrapped_other_lengths",
         "wrapped_lengths_grow", "partials_from_a_wrapper"]
NOT_SHOWN = {"partial_on_one_path": "with the partial kernel skipped, the reduction divides "
                                    "0 by 0: NaN from zeros and from poison alike",
             "condition_input_written": "races with its own write of the split counts",
             "reduced_before_stored": "its first reduction, overwritten by the second, is "
                                      "not in the output (initcheck sees its loads)",
             "lanes_past_the_mask": "the lanes read past the mask are never stored"}


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def poison():
    # Blocks of the small pool (up to 1 MiB, where these buffers come
    # from) and of the large one, filled and handed back to the allocator.
    sizes = [1 << s for s in range(12, 21)] + [1 << 22]
    junk = [torch.empty(n, dtype=torch.uint8, device="cuda") for n in sizes for _ in range(8)]
    for j in junk:
        j.fill_(0xFF)
    del junk


def bits(x):
    if isinstance(x, tuple):
        return tuple(bits(t) for t in x)
    return x.view(torch.int32).clone()


def same(a, b):
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a.shape == b.shape and bool(torch.equal(a, b))


def inputs():
    g = torch.Generator(device="cuda").manual_seed(0)
    batch, heads, head_dim, max_splits = 16, 4, 80, 8
    q = torch.randn((batch, heads, head_dim), device="cuda", generator=g)
    lens = torch.randint(1, 300, (batch,), dtype=torch.int32, device="cuda", generator=g)
    splits = torch.randint(1, max_splits + 1, (batch,), dtype=torch.int32, device="cuda",
                           generator=g)
    # Rows whose last split ends exactly at the length: an empty split
    # follows, stored by nobody.
    lens[:4] = 64
    splits[:4] = 8
    return q, lens, splits, max_splits


def call(mod, name):
    q, lens, splits, max_splits = inputs()
    fn = getattr(mod, name)
    if name.startswith("row_"):
        # Rows of 1 to 127 scores in blocks of 128: lanes left in each.
        out = fn(torch.remainder(lens, 127) + 1)
    elif name in ("other_lengths", "wrapped_other_lengths"):
        out = fn(q, lens, lens + 16, splits, max_splits)
    elif name == "more_splits_read":
        splits[4:8] = max_splits + 1  # a ninth split, past the grid
        out = fn(q, lens, splits, max_splits)
    elif name == "partial_on_one_path":
        out = fn(q, lens, splits, max_splits, True)
    else:
        out = fn(q, lens, splits, max_splits)
    torch.cuda.synchronize()
    return bits(out)


def main(argv):
    work = tempfile.mkdtemp()
    text = open(CASE).read()
    forced, fixed = os.path.join(work, "forced.py"), os.path.join(work, "fixed.py")
    open(forced, "w").write(text.replace("torch.zeros(", "torch.empty("))
    open(fixed, "w").write(open(CASE + ".fixed").read())
    mods = {"original": load(CASE, "guarded_original"),
            "fixed": load(fixed, "guarded_fixed"),
            "forced": load(forced, "guarded_forced")}
    names = list(dict.fromkeys(SAFE + TRAPS + list(NOT_SHOWN)))
    results = {}
    for form, mod in mods.items():
        for name in names:
            poison()
            try:
                results[(form, name)] = call(mod, name)
            except Exception as e:  # a kernel Triton cannot build is reported, not hidden
                results[(form, name)] = e
    ok = True
    print(f"guarded pairs on {torch.cuda.get_device_name()} (torch {torch.__version__})")
    print("| decoder | alloclint | fixed == original | forced empty == original |")
    print("|---|---|---|---|")
    for name in names:
        ref, fixed, forced_r = (results[(f, name)] for f in ("original", "fixed", "forced"))
        verdict = "safe fix" if name in SAFE else "silent"
        if name in ("partials_returned", "partials_from_a_wrapper"):
            verdict = "safe fix (`lse`), silent (`part`)"
        if any(isinstance(r, Exception) for r in (ref, fixed, forced_r)):
            err = next(r for r in (ref, fixed, forced_r) if isinstance(r, Exception))
            print(f"| `{name}` | {verdict} | error: {type(err).__name__}: "
                  f"{str(err).splitlines()[0][:80]} | |")
            ok = False
            continue
        same_fixed, same_forced = same(ref, fixed), same(ref, forced_r)
        note = f" (not counted: {NOT_SHOWN[name]})" if name in NOT_SHOWN else ""
        print(f"| `{name}` | {verdict} | {same_fixed} | {same_forced}{note} |")
        ok &= same_fixed
        if name in TRAPS:
            ok &= not same_forced  # the trap is real: empty leaves poison behind
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
