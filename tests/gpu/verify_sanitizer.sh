#!/bin/sh
# `alloclint verify --sanitizer` on a GPU (torch 2.x, Triton,
# compute-sanitizer): three projects, each with a wrong change first and
# its correct twin second, verified in parallel:
#   triton  a Triton kernel that stores only the first half of an
#           `empty_like` buffer / one that stores all of it
#   cumsum  `empty` + cumsum(out=b[1:]) leaving b[0] / the same with b[0] = 0
#   graph   a CUDA graph whose replay reads an `empty` buffer nothing wrote /
#           one copied into before capture (outputs preallocated: capture
#           cannot allocate under PYTORCH_NO_CUDA_MEMORY_CACHING=1)
# Usage: verify_sanitizer.sh ALLOCLINT OUTDIR. Not part of ctest (CI has no
# GPU); its output is committed under bench/results/.
set -u
alloclint=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$(cd "$2" && pwd)
py=${PYTHON:-python3}
work=$(mktemp -d)

mk() { mkdir -p "$work/$1"; }

mk triton
cat >"$work/triton/model.py" <<'PY'
import torch
import triton
import triton.language as tl


@triton.jit
def _double(out_ptr, x_ptr, n, limit, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x * 2, mask=offs < limit)


def first_half(x):
    out = torch.zeros_like(x)
    n = x.numel()
    _double[(triton.cdiv(n, 256),)](out, x, n, n // 2, BLOCK=256)
    return out


def whole(x):
    out = torch.zeros_like(x)
    n = x.numel()
    _double[(triton.cdiv(n, 256),)](out, x, n, n, BLOCK=256)
    return out
PY
cat >"$work/triton/check.py" <<'PY'
import torch

import model

x = torch.ones(4096, device="cuda")
h = model.first_half(x)
assert h[:2048].eq(2).all() and h[2048:].eq(0).all()
assert model.whole(x).eq(2).all()
torch.cuda.synchronize()
PY
cat >"$work/triton/change.diff" <<'PY'
--- a/model.py
+++ b/model.py
@@ -12,5 +12,5 @@
 
 def first_half(x):
-    out = torch.zeros_like(x)
+    out = torch.empty_like(x)
     n = x.numel()
     _double[(triton.cdiv(n, 256),)](out, x, n, n // 2, BLOCK=256)
@@ -19,5 +19,5 @@
 
 def whole(x):
-    out = torch.zeros_like(x)
+    out = torch.empty_like(x)
     n = x.numel()
     _double[(triton.cdiv(n, 256),)](out, x, n, n, BLOCK=256)
PY

mk cumsum
cat >"$work/cumsum/model.py" <<'PY'
import torch


def offsets(lens):
    b = torch.zeros(lens.numel() + 1, dtype=torch.int64, device=lens.device)
    torch.cumsum(lens, 0, out=b[1:])
    return b


def offsets_twin(lens):
    b = torch.zeros(lens.numel() + 1, dtype=torch.int64, device=lens.device)
    torch.cumsum(lens, 0, out=b[1:])
    return b
PY
cat >"$work/cumsum/check.py" <<'PY'
import torch

import model

lens = torch.tensor([3, 1, 2], device="cuda")
assert model.offsets(lens).tolist() == [0, 3, 4, 6]
assert model.offsets_twin(lens).tolist() == [0, 3, 4, 6]
PY
cat >"$work/cumsum/change.diff" <<'PY'
--- a/model.py
+++ b/model.py
@@ -4,5 +4,5 @@
 def offsets(lens):
-    b = torch.zeros(lens.numel() + 1, dtype=torch.int64, device=lens.device)
+    b = torch.empty(lens.numel() + 1, dtype=torch.int64, device=lens.device)
     torch.cumsum(lens, 0, out=b[1:])
     return b
 
@@ -10,4 +10,5 @@
 def offsets_twin(lens):
-    b = torch.zeros(lens.numel() + 1, dtype=torch.int64, device=lens.device)
+    b = torch.empty(lens.numel() + 1, dtype=torch.int64, device=lens.device)
+    b[0] = 0
     torch.cumsum(lens, 0, out=b[1:])
     return b
PY

mk graph
cat >"$work/graph/model.py" <<'PY'
import torch


def replay_count(n):
    static = torch.zeros(n, device="cuda")
    mask = torch.zeros(n, dtype=torch.bool, device="cuda")
    count = torch.zeros((), dtype=torch.int64, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        torch.gt(static, 0, out=mask)
        torch.sum(mask, 0, dtype=torch.int64, out=count)
    g.replay()
    torch.cuda.synchronize()
    return int(count)


def replay_count_twin(n):
    static = torch.zeros(n, device="cuda")
    static.copy_(torch.arange(n, device="cuda"))
    mask = torch.zeros(n, dtype=torch.bool, device="cuda")
    count = torch.zeros((), dtype=torch.int64, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        torch.gt(static, 0, out=mask)
        torch.sum(mask, 0, dtype=torch.int64, out=count)
    g.replay()
    torch.cuda.synchronize()
    return int(count)
PY
cat >"$work/graph/check.py" <<'PY'
import model

assert model.replay_count(1024) == 0
assert model.replay_count_twin(1024) == 1023
PY
cat >"$work/graph/change.diff" <<'PY'
--- a/model.py
+++ b/model.py
@@ -4,5 +4,5 @@
 def replay_count(n):
-    static = torch.zeros(n, device="cuda")
+    static = torch.empty(n, device="cuda")
     mask = torch.zeros(n, dtype=torch.bool, device="cuda")
     count = torch.zeros((), dtype=torch.int64, device="cuda")
     g = torch.cuda.CUDAGraph()
@@ -17,5 +17,5 @@
 def replay_count_twin(n):
-    static = torch.zeros(n, device="cuda")
+    static = torch.empty(n, device="cuda")
     static.copy_(torch.arange(n, device="cuda"))
     mask = torch.zeros(n, dtype=torch.bool, device="cuda")
     count = torch.zeros((), dtype=torch.int64, device="cuda")
PY

for case in ${CASES:-triton cumsum graph}; do
    (
        cd "$work/$case" || exit 2
        start=$(date +%s)
        for mode in "" "--sanitizer"; do
            # CUDA-graph capture needs the caching allocator.
            [ "$case" = graph ] && export PYTORCH_NO_CUDA_MEMORY_CACHING=0
            "$alloclint" verify change.diff $mode --timeout 240 -- "$py" check.py \
                >"$out/$case${mode:+-sanitizer}.txt" 2>"$out/$case${mode:+-sanitizer}.log"
            echo "exit $? after $(( $(date +%s) - start )) s" >>"$out/$case${mode:+-sanitizer}.txt"
        done
    ) &
done
wait
rm -rf "$work"
