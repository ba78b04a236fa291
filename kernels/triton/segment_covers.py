"""AL101's segment covers, run: the paged-KV index builders of the fixture
tests/rules/AL101/segment_covers.d, as written (zeros), as alloclint fixes
them (its golden patch, segment_covers.d.diff, applied with `patch`), and
with every `kv_indices` zero fill forced to `empty`, each on a pool of
poisoned memory (0xFF), on a real GPU with Triton.

What must hold: where alloclint's fix is safe, the fixed builder returns
the same bits as the original; where alloclint stays silent (the gap
traps: padded starts, a store past each segment's start, an early exit),
forcing `empty` changes the result, so the zeros were needed; the fixed
tree leaves those untouched. `--check` is the same run (it is small)."""

import importlib
import os
import shutil
import subprocess
import sys
import tempfile

from common import require_gpu

require_gpu()

import torch  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CASE = os.path.join(HERE, "..", "..", "tests", "rules", "AL101", "segment_covers.d")
SAFE = ["build_kv_indices", "build_kv_indices_cat"]
TRAPS = ["build_kv_indices_padded", "build_kv_indices_with_sink", "build_kv_indices_sparse"]


def load(root):
    for name in [m for m in sys.modules if m == "pagedkv" or m.startswith("pagedkv.")]:
        del sys.modules[name]
    sys.path.insert(0, root)
    try:
        return importlib.import_module("pagedkv.backends.indices")
    finally:
        sys.path.remove(root)


def poison(nbytes):
    junk = [torch.empty(nbytes, dtype=torch.uint8, device="cuda") for _ in range(8)]
    for j in junk:
        j.fill_(0xFF)
    del junk


def call(mod, name, args):
    fn = getattr(mod, name)
    if name in ("build_kv_indices_with_sink", "build_kv_indices_sparse"):
        out = fn(args["slot_table"], args["seq_lens"])
    else:
        out = fn(args["slot_table"], args["req_ids"], args["seq_lens"])
    out = out[1] if isinstance(out, tuple) else out
    torch.cuda.synchronize()
    return out.clone()


def main(argv):
    work = tempfile.mkdtemp()
    trees = {}
    for form in ("original", "fixed", "forced"):
        trees[form] = os.path.join(work, form)
        shutil.copytree(CASE, trees[form])
    subprocess.run(["patch", "-s", "-p1", "-i", os.path.abspath(CASE + ".diff")],
                   cwd=trees["fixed"], check=True)
    path = os.path.join(trees["forced"], "pagedkv", "backends", "indices.py")
    text = open(path).read().replace("kv_indices = torch.zeros(", "kv_indices = torch.empty(")
    open(path, "w").write(text)

    torch.manual_seed(0)
    max_reqs, max_len, bs = 64, 3000, 48
    slot_table = torch.randint(0, 1 << 20, (max_reqs, max_len), dtype=torch.int32, device="cuda")
    slot_table[3, 0] = -1  # a free first slot: the sparse builder skips request 3
    slot_table[17, 0] = -1
    seq_lens = torch.randint(1, max_len, (bs,), dtype=torch.int32, device="cuda")
    seq_lens[5] = 0  # an empty request
    args = {"slot_table": slot_table, "seq_lens": seq_lens,
            "req_ids": torch.randperm(max_reqs, device="cuda")[:bs].to(torch.int32)}
    total_bytes = int(seq_lens.sum().item()) * 4

    results = {}
    for form, root in trees.items():
        mod = load(root)
        for name in SAFE + TRAPS:
            poison(total_bytes)
            poison(total_bytes + bs * 4)
            try:
                results[(form, name)] = call(mod, name, args)
            except Exception as e:  # a kernel Triton cannot build is reported, not hidden
                results[(form, name)] = e
    ok = True
    print(f"segment covers on {torch.cuda.get_device_name()} (torch {torch.__version__})")
    print("| builder | alloclint | fixed == original | forced empty == original |")
    print("|---|---|---|---|")
    for name in SAFE + TRAPS:
        ref, fixed, forced = (results[(f, name)] for f in ("original", "fixed", "forced"))
        if any(isinstance(r, Exception) for r in (ref, fixed, forced)):
            err = next(r for r in (ref, fixed, forced) if isinstance(r, Exception))
            print(f"| `{name}` | {'safe fix' if name in SAFE else 'silent'} | error: "
                  f"{type(err).__name__}: {str(err).splitlines()[0][:80]} | |")
            ok = False
            continue
        same_fixed = ref.shape == fixed.shape and bool(torch.equal(ref, fixed))
        same_forced = ref.shape == forced.shape and bool(torch.equal(ref, forced))
        print(f"| `{name}` | {'safe fix' if name in SAFE else 'silent'} | {same_fixed} | {same_forced} |")
        ok &= same_fixed
        if name in TRAPS:
            ok &= not same_forced  # the trap is real: empty leaves poison behind
    shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
