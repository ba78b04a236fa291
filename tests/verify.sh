#!/bin/sh
# `alloclint verify` on the CPU with Debian's python3-torch: one hunk that
# holds a wrong change (a cumsum that leaves element 0 of an `empty`
# buffer), a right one, and one in code the command never runs; a baseline
# that fails; a baseline that fails only when poisoned. Skipped (77)
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

# Bad patches are named and exit 2.
printf 'not a patch\n' >bad.diff
"$alloclint" verify bad.diff -- true >/dev/null 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "bad.diff" err.txt || say "bad patch: exit $rc"
"$alloclint" verify missing.diff -- true >/dev/null 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "missing.diff" err.txt || say "missing patch: exit $rc"
exit $fail
