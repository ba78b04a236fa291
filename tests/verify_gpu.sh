#!/bin/sh
# `alloclint verify` on a GPU with real Triton: alloclint's own patch of
# tests/verify_gpu/ (a hoist inside a @triton.jit body, AL302, and an
# `empty` for a buffer a kernel covers, AL101), verified by a command that
# launches both kernels and compares them with torch. The kernel's changed
# lines must be verified as launched (the hook on Triton's launcher), the
# Python line as executed. Skipped (77) without torch, CUDA and Triton.
# ALLOCLINT_RESULTS=DIR keeps the patch and verify's JSON there.
set -u
alloclint=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
py=${ALLOCLINT_PYTHON:-python3}
here=$(cd "$(dirname "$0")" && pwd)
if ! "$py" -c "import torch, triton; assert torch.cuda.is_available()" 2>/dev/null; then
    echo "verify_gpu: no CUDA device with torch and Triton; skipped"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
say() { echo "verify_gpu: $*" >&2; fail=1; }
cp -r "$here/verify_gpu/." "$work/"
cd "$work" || exit 2
git init -q . 2>/dev/null
"$alloclint" check --select AL101,AL302 --diff --no-cache . >change.diff 2>err.txt
grep -q '^+.* = tl.arange(0, BLOCK)$' change.diff || { say "no AL302 hoist in the patch"; cat change.diff err.txt >&2; }
grep -q '^+.*out = torch.empty(n' change.diff || { say "no AL101 fix in the patch"; cat change.diff >&2; }
"$alloclint" verify change.diff --output-format json -- "$py" check_rowops.py >verify.json 2>err.txt
rc=$?
[ $rc -eq 0 ] || { say "verify exit code $rc, expected 0"; cat verify.json err.txt >&2; }
"$py" - verify.json <<'PY' || say "verdicts wrong"
import json, sys
rows = json.load(open(sys.argv[1]))
kernel = [r for r in rows if r["line"] < 25]
python = [r for r in rows if r["line"] >= 25]
assert kernel and python, rows
for r in kernel:
    assert r["verdict"] == "verified" and r["reason"].startswith("launched: ") and \
        "`_scale_rows_kernel`" in r["reason"], r
for r in python:
    assert r["verdict"] == "verified" and r["reason"].startswith("executed"), r
PY
if [ -n "${ALLOCLINT_RESULTS:-}" ]; then
    mkdir -p "$ALLOCLINT_RESULTS"
    cp change.diff verify.json "$ALLOCLINT_RESULTS/"
    "$alloclint" verify change.diff -- "$py" check_rowops.py >"$ALLOCLINT_RESULTS/verify.txt" 2>&1
fi
exit $fail
