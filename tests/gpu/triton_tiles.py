"""Runs the Triton tile fixture (tests/rules/AL101/triton_tiles.d) on a GPU
before and after alloclint's fixes, with freshly allocated memory poisoned
(share/sitecustomize.py, ALLOCLINT_POISON=nan), and compares what each
launch wrapper returns.

  - every safe fix (triton_tiles.d.diff) must compute what the original
    computes, bit for bit;
  - the unsafe fixes (triton_tiles.d.unsafe.diff) are run too, to show which
    traps are real: a trap whose kernel leaves elements unwritten must
    differ after its unsafe fix (NaN where the fill was), and the ones
    alloclint merely cannot prove (a grouped tile order, a lower bound of
    0) must not.

With --initcheck, the safe and the unsafe tree run once more under
compute-sanitizer's initcheck, device memory left unpoisoned
(ALLOCLINT_POISON_HOST_ONLY=1), so that a read of memory no one wrote is
reported by the tool itself: none in the safe tree, some in the unsafe
one (the control).

Usage: triton_tiles.py REPO OUT_JSON [--initcheck]. Exit 77 without torch, CUDA and
Triton; 1 on any disagreement. The committed diffs are applied with
`git apply`; tests/golden_tree.sh checks that alloclint writes exactly
those diffs.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

# What each wrapper is called with: deterministic inputs whose sizes are
# not multiples of the blocks, so that masks and partial tiles matter.
CALLS = {
    "gemm": "a, b",
    "gemm_split_k": "a, b, 2",
    "scale_rows": "x, s",
    "scale_rows_like": "xt, s",
    "gemm_missing_axis": "a, b",
    "gemm_axes_swapped": "a, b",
    "gemm_into_taller": "a, b",
    "gemm_padded_rows": "a, b",
    "gemm_strided_columns": "a, b",
    "double_grouped": "x",
    "double_grouped_own": "x",
    "double_grouped_rows_of_n": "x",
    "copy_split_by_rows": "x",
    "band": "x, 8",
    "repeated": "x, 0",
    "copy_like": "x",
    "copy_band_from_zero": "x",
    "scale": "x, 0.5",
    "first_columns": "x",
    "copied": "x",
    "copied_rows_of": "x",
    "copy_first_plane": "x3",
    "first_plane": "x3",
    "plus_one": "x",
    "doubled_3d": "x3",
    "plus_one_short_grid": "x",
    "plus_one_axes_swapped": "x",
}
# Unsafe fixes that must change the result (the kernel leaves elements),
# and those that must not (complete, but not proved).
REAL_TRAPS = {"copy_first_plane", "first_plane", "scale_rows_like", "double_grouped_rows_of_n", "gemm_missing_axis", "gemm_axes_swapped", "gemm_into_taller",
              "gemm_padded_rows", "gemm_strided_columns", "copy_split_by_rows", "band",
              "repeated", "first_columns"}
UNPROVED_BUT_COMPLETE = {"double_grouped", "copy_band_from_zero", "copied_rows_of"}
# A trap whose launch races (the wrong strides make programs store to one
# element): no two runs agree bit for bit, so what is compared is whether
# poisoned elements survive: none where the fill stays, some after the
# unsafe fix.
RACY = {"scale_rows_like"}

RUNNER = r'''
import sys, torch
sys.path.insert(0, sys.argv[1])
from tilegemm.layers import linear
torch.manual_seed(0)
a = torch.randn(200, 48, device="cuda")
b = torch.randn(48, 72, device="cuda")
x = torch.randn(200, 72, device="cuda")
s = torch.randn(200, device="cuda")
xt = torch.randn(72, 200, device="cuda").t()  # (200, 72), column-major
x3 = torch.randn(200, 72, 3, device="cuda")
calls = %s
out = {}
for name, args in calls.items():
    out[name] = eval("linear.%%s(%%s)" %% (name, args)).cpu()
torch.save(out, sys.argv[2])
'''


def main():
    repo, out_json = sys.argv[1], sys.argv[2]
    try:
        import torch
        import triton  # noqa: F401
        if not torch.cuda.is_available():
            raise ImportError("no CUDA device")
    except ImportError as e:
        print("triton_tiles: skipped (%s)" % e)
        return 77
    fixture = os.path.join(repo, "tests/rules/AL101/triton_tiles.d")
    work = tempfile.mkdtemp()
    env = dict(os.environ, ALLOCLINT_POISON="nan",
               PYTHONPATH=os.path.join(repo, "share") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    results = {}
    for label, diff in (("original", None), ("safe", fixture + ".diff"),
                        ("unsafe", fixture + ".unsafe.diff")):
        tree = os.path.join(work, label)
        shutil.copytree(fixture, tree)
        if diff:
            subprocess.run(["git", "apply", "-p1", os.path.abspath(diff)], cwd=tree, check=True)
        pt = os.path.join(work, label + ".pt")
        with open(os.path.join(work, "runner.py"), "w") as f:
            f.write(RUNNER % repr(CALLS))
        subprocess.run([sys.executable, os.path.join(work, "runner.py"), tree, pt], env=env,
                       check=True)
        results[label] = torch.load(pt)
    report, fail = [], 0

    def same(p, q):
        return p.shape == q.shape and bool(torch.equal(torch.nan_to_num(p, nan=1e30),
                                                       torch.nan_to_num(q, nan=1e30)))

    for name in CALLS:
        orig = results["original"][name]
        row = {"function": name,
               "safe_fix_same": same(orig, results["safe"][name]),
               "unsafe_fix_same": same(orig, results["unsafe"][name]),
               "original_has_nan": bool(torch.isnan(orig).any())}
        if name in RACY:
            row["safe_tree_has_nan"] = bool(torch.isnan(results["safe"][name]).any())
            row["unsafe_tree_has_nan"] = bool(torch.isnan(results["unsafe"][name]).any())
            if row["safe_tree_has_nan"] or row["original_has_nan"] or not row["unsafe_tree_has_nan"]:
                fail = 1
                row["error"] = "racy trap: poison where the fill stays, or none after the unsafe fix"
        elif not row["safe_fix_same"] or row["original_has_nan"]:
            fail = 1
            row["error"] = "the safe fixes changed what it computes"
        if name in REAL_TRAPS and name not in RACY and row["unsafe_fix_same"]:
            fail = 1
            row["error"] = "a trap whose unsafe fix computes the same: not a real trap"
        if name in UNPROVED_BUT_COMPLETE and not row["unsafe_fix_same"]:
            fail = 1
            row["error"] = "complete, yet its unsafe fix changed the result"
        report.append(row)
    initcheck = None
    if "--initcheck" in sys.argv[3:]:
        # The unsafe tree is the control: there the tool must see the
        # unwritten elements read.
        initcheck = {}
        for label, want in (("safe", 0), ("unsafe", 3)):
            run = subprocess.run(["compute-sanitizer", "--tool", "initcheck", "--error-exitcode",
                                  "3", sys.executable, os.path.join(work, "runner.py"),
                                  os.path.join(work, label), os.path.join(work, "ic.pt")],
                                 env=dict(env, ALLOCLINT_POISON_HOST_ONLY="1"),
                                 capture_output=True, text=True)
            summary = [l for l in run.stdout.splitlines() if "ERROR SUMMARY" in l]
            initcheck[label] = {"exit": run.returncode, "summary": summary[-1] if summary else None}
            if run.returncode != want:
                fail = 1
                print(run.stdout[-3000:], run.stderr[-3000:])
    for row in report:
        print(json.dumps(row))
    print(json.dumps({"initcheck": initcheck}))
    with open(out_json, "w") as f:
        json.dump({"device": torch.cuda.get_device_name(0), "torch": torch.__version__,
                   "triton": __import__("triton").__version__, "functions": report,
                   "initcheck": initcheck}, f, indent=1)
    shutil.rmtree(work)
    return fail


if __name__ == "__main__":
    sys.exit(main())
