#!/bin/sh
# `alloclint verify` on the CPU with Debian's python3-torch: one hunk that
# holds a wrong change (a cumsum that leaves element 0 of an `empty`
# buffer), a right one, and one in code the command never runs; a baseline
# that fails; a baseline that fails only when poisoned; changes inside
# Triton kernels, one launched (through a CPU stand-in for Triton's
# launcher) and one not. Skipped (77)
# without torch under /usr/bin/python3.
set -u
alloclint=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
py=/usr/bin/python3
if ! "$py" -c "import torch" 2>/dev/null; then
    echo "verify: /usr/bin/python3 has no torch (apt-get install python3-torch); skipped"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
say() { echo "verify test: $*" >&2; fail=1; }
cd "$work" || exit 2

cat >model.py <<'PY'
import torch


def build(lens, x, debug=False):
    offsets = torch.zeros(lens.numel() + 1, dtype=torch.long)
    total = int(lens.sum())
    scaled = torch.zeros_like(x)
    if debug:
        dump = torch.zeros(x.shape)
        dump.copy_(x)
        print(total, dump)
    torch.cumsum(lens, 0, out=offsets[1:])
    scaled.copy_(x * 2)
    return offsets, scaled
PY
cat >check.py <<'PY'
import torch

import model

offsets, scaled = model.build(torch.tensor([3, 1, 2]), torch.ones(4))
assert offsets.tolist() == [0, 3, 4, 6], offsets
assert torch.equal(scaled, torch.full((4,), 2.0)), scaled
PY
cp model.py model.py.orig
cat >change.diff <<'PY'
--- a/model.py
+++ b/model.py
@@ -2,10 +2,10 @@
 
 
 def build(lens, x, debug=False):
-    offsets = torch.zeros(lens.numel() + 1, dtype=torch.long)
+    offsets = torch.empty(lens.numel() + 1, dtype=torch.long)
     total = int(lens.sum())
-    scaled = torch.zeros_like(x)
+    scaled = torch.empty_like(x)
     if debug:
-        dump = torch.zeros(x.shape)
+        dump = torch.empty(x.shape)
         dump.copy_(x)
         print(total, dump)
PY

"$alloclint" verify change.diff -o verified.diff -- "$py" check.py >out.txt 2>err.txt
rc=$?
[ $rc -eq 1 ] || { say "exit code $rc, expected 1"; cat err.txt >&2; }
cat >want.txt <<'EOF2'
model.py:5: rejected: the command fails with this change: exit code 1: AssertionError: tensor([9223372036854775807, 3, 4,
model.py:7: verified: executed; the command passed with fresh memory poisoned
model.py:9: untested: the command never executed it
EOF2
cmp -s want.txt out.txt || { say "text output differs:"; diff -u want.txt out.txt >&2; }
cmp -s model.py model.py.orig || say "the user's file was modified"
grep -q "baseline run" err.txt || say "no progress on stderr"
cat >want.diff <<'EOF2'
--- a/model.py
+++ b/model.py
@@ -4,7 +4,7 @@
 def build(lens, x, debug=False):
     offsets = torch.zeros(lens.numel() + 1, dtype=torch.long)
     total = int(lens.sum())
-    scaled = torch.zeros_like(x)
+    scaled = torch.empty_like(x)
     if debug:
         dump = torch.zeros(x.shape)
         dump.copy_(x)
EOF2
cmp -s want.diff verified.diff || { say "-o patch differs:"; diff -u want.diff verified.diff >&2; }

"$alloclint" verify change.diff --output-format json -- "$py" check.py >out.json 2>/dev/null
"$py" - out.json <<'PY' || say "JSON output wrong"
import json, sys
rows = json.load(open(sys.argv[1]))
assert [sorted(r) for r in rows] == [["file", "line", "reason", "verdict"]] * 3, rows
assert [(r["file"], r["line"], r["verdict"]) for r in rows] == [
    ("model.py", 5, "rejected"), ("model.py", 7, "verified"), ("model.py", 9, "untested")], rows
PY

# A baseline that fails stops with 2.
"$alloclint" verify change.diff -- "$py" -c "raise SystemExit(3)" >/dev/null 2>err.txt
rc=$?
[ $rc -eq 2 ] || say "failing baseline: exit code $rc, expected 2"
grep -q "fails without the patch" err.txt || say "failing baseline not explained"

# A baseline that fails only when poisoned: its own `empty` buffer is read
# where nothing wrote it (unpoisoned garbage is almost never NaN).
cat >norm.py <<'PY'
import torch


def row_scale(x):
    scale = torch.empty(x.shape[0] + 1)
    scale[1:] = x.abs().amax(dim=1)
    return scale
PY
cat >check2.py <<'PY'
import torch

import norm

assert not torch.isnan(norm.row_scale(torch.ones(3, 4))).any()
PY
cat >change2.diff <<'PY'
--- a/norm.py
+++ b/norm.py
@@ -5,3 +5,3 @@
     scale = torch.empty(x.shape[0] + 1)
-    scale[1:] = x.abs().amax(dim=1)
+    scale[1:] = x.abs().amax(dim=1).clamp(min=1e-6)
     return scale
PY
"$alloclint" verify change2.diff -- "$py" check2.py >/dev/null 2>err.txt
rc=$?
[ $rc -eq 2 ] || say "poison-only baseline: exit code $rc, expected 2"
grep -q "fails only with poisoning on, even without the patch" err.txt ||
    { say "poison-only baseline not explained:"; cat err.txt >&2; }

# A change inside a @triton.jit body runs on the device, where no line is
# traced: the launch of its kernel stands for it ("launched"). On the CPU a
# stand-in for Triton (our own, below) has the launcher's shape that the
# hook patches, triton.runtime.jit.JITFunction.run, and does the kernel's
# work with torch; a kernel never launched stays untested.
mkdir -p triton/runtime
cat >triton/__init__.py <<'PY'
# A CPU stand-in for Triton's launch path: `@jit` makes a JITFunction,
# `kernel[grid](...)` calls its `run`, which does the device's work with
# the reference the test registers (the body itself is never executed).
from .runtime.jit import JITFunction


def jit(fn):
    return JITFunction(fn)
PY
: >triton/runtime/__init__.py
cat >triton/runtime/jit.py <<'PY'
class JITFunction:
    def __init__(self, fn):
        self.fn = fn
        self.reference = None

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)

    def run(self, *args, grid=None, **kwargs):
        return self.reference(*args, **kwargs)
PY
cat >triton/language.py <<'PY'
constexpr = int
PY
cat >scale.py <<'PY'
import torch
import triton
import triton.language as tl


@triton.jit
def _scale_rows_kernel(out_ptr, x_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols)
        tl.store(out_ptr + row * n_cols + cols, x * 2, mask=cols < n_cols)


@triton.jit
def _unused_kernel(out_ptr, n, BLOCK: tl.constexpr):
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, 0, mask=offs < n)


def scale_rows(x):
    out = torch.empty_like(x)
    _scale_rows_kernel[(x.shape[0],)](out, x, x.shape[1], BLOCK=4)
    return out
PY
cat >check3.py <<'PY'
import torch

import scale

scale._scale_rows_kernel.reference = lambda out, x, n, BLOCK: out.copy_(x * 2)
assert torch.equal(scale.scale_rows(torch.ones(2, 3)), torch.full((2, 3), 2.0))
PY
# AL302's hoist in both kernels (the patch as `check --diff` writes it).
"$py" - <<'PY'
src = open("scale.py").read()
for var in ("cols", "offs"):
    src = src.replace("        %s = start + tl.arange(0, BLOCK)" % var,
                      "        %s = start + arange_block" % var)
src = src.replace("    for start in range(", "    arange_block = tl.arange(0, BLOCK)\n    for start in range(")
open("scale.new", "w").write(src)
PY
diff -u --label a/scale.py --label b/scale.py scale.py scale.new >change3.diff
"$alloclint" verify change3.diff -- "$py" check3.py >out3.txt 2>err.txt
rc=$?
[ $rc -eq 1 ] || { say "Triton stand-in: exit code $rc, expected 1 (one change untested)"; cat err.txt >&2; }
cat >want3.txt <<'EOF2'
scale.py:9: verified: launched: the command launched the Triton kernel `_scale_rows_kernel` holding it and passed with fresh memory poisoned
scale.py:11: verified: launched: the command launched the Triton kernel `_scale_rows_kernel` holding it and passed with fresh memory poisoned
scale.py:18: untested: the command never executed it
scale.py:20: untested: the command never executed it
EOF2
cmp -s want3.txt out3.txt || { say "Triton stand-in: output differs:"; diff -u want3.txt out3.txt >&2; }
# Without the hook's record (no launch seen), the same change is untested:
# the verdict comes from the launch, not from the kernel's lines.
sed -i 's/return self.reference/return type(self).reference_of(self)/' triton/runtime/jit.py
cat >>triton/runtime/jit.py <<'PY'


JITFunction.reference_of = staticmethod(lambda jit: jit.reference)
JITFunction.launch = JITFunction.run
del JITFunction.run
JITFunction.__getitem__ = lambda self, grid: (lambda *a, **k: self.launch(*a, grid=grid, **k))
PY
"$alloclint" verify change3.diff -- "$py" check3.py >out3b.txt 2>err.txt
grep -q '^scale.py:9: untested' out3b.txt ||
    { say "a launcher the hook does not know still counted as launched:"; cat out3b.txt >&2; }

# Bad patches are named and exit 2.
printf 'not a patch\n' >bad.diff
"$alloclint" verify bad.diff -- true >/dev/null 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "bad.diff" err.txt || say "bad patch: exit $rc"
"$alloclint" verify missing.diff -- true >/dev/null 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "missing.diff" err.txt || say "missing patch: exit $rc"
exit $fail
