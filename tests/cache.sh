#!/bin/sh
# The cache (.alloclint_cache): a warm run says exactly what a cold one
# and --no-cache say; a changed file, a changed callee in another file and
# a changed option are analysed again; a corrupt cache file is discarded
# with a warning naming it; concurrent runs leave a cache that reads back.
#
# Usage: tests/cache.sh ALLOCLINT
set -u
tests=$(cd "$(dirname "$0")" && pwd)
alloclint=${1:?usage: tests/cache.sh ALLOCLINT}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
say() { echo "cache: $*" >&2; fail=1; }
unset ALLOCLINT_CACHE_DIR

mkdir -p "$work/proj/pkg"
cd "$work/proj" || exit 2
git init -q . 2>/dev/null
# A helper in another module that writes its whole output: the caller's
# zeros buffer is overwritten before it is read (AL101, proved through the
# call). Changing the helper to read the buffer first removes the proof.
cat >pkg/fill.py <<'EOF'
import torch


def write_rows(out: torch.Tensor, src: torch.Tensor) -> None:
    out.copy_(src)
EOF
cat >pkg/model.py <<'EOF'
import torch

from pkg.fill import write_rows


def decode_step(hidden: torch.Tensor) -> torch.Tensor:
    buf = torch.zeros(hidden.shape, dtype=hidden.dtype)
    write_rows(buf, hidden)
    return buf * 2
EOF
cat >pkg/plain.py <<'EOF'
import torch


def scales(n: int) -> torch.Tensor:
    s = torch.zeros(n)
    s[:] = 1.0
    return s
EOF
cat >pkg/empty.py <<'EOF'
def nothing():
    return 1
EOF
touch pkg/__init__.py
# A notebook: cached by the hash of its whole JSON, like any source.
cat >pkg/sampler.ipynb <<'EOF'
{
 "cells": [
  {
   "cell_type": "code",
   "execution_count": 1,
   "metadata": {},
   "outputs": [],
   "source": [
    "import torch\n",
    "\n",
    "def scale_logits(logits, temperature):\n",
    "    scaled = torch.zeros(logits.shape, dtype=torch.float32)\n",
    "    torch.div(logits, temperature.unsqueeze(-1), out=scaled)\n",
    "    return scaled"
   ]
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}
EOF

# CRLF lines, characters of two bytes before a finding on its line, a
# finding spanning three lines: a warm run reports these from the lines
# the cache kept (columns count characters; the excerpt must agree).
printf 'import torch\r\n\r\n\r\ndef norme(x: torch.Tensor) -> torch.Tensor:\r\n    \303\251 = 1; buf = torch.zeros(x.shape)  # \302\253tampon\302\273\r\n    buf.copy_(x)\r\n    tall = torch.zeros(\r\n        x.shape,\r\n    )\r\n    tall.copy_(x)\r\n    return buf * \303\251 + tall\r\n' >pkg/wide.py

check() { "$alloclint" check --output-format concise "$@" . 2>"$work/stderr.txt"; }

check --no-cache >"$work/nocache.txt"
check >"$work/cold.txt"
check >"$work/warm.txt"
grep -q 'AL101' "$work/nocache.txt" || say "the fixture has no AL101 finding"
cmp -s "$work/nocache.txt" "$work/cold.txt" || say "a cold run differs from --no-cache"
cmp -s "$work/cold.txt" "$work/warm.txt" || say "a warm run differs from the cold one"
[ -s "$work/stderr.txt" ] && { say "a warm run wrote to stderr:"; cat "$work/stderr.txt" >&2; }
grep -q 'sampler.ipynb.*AL10' "$work/warm.txt" || say "the notebook's finding is missing from a warm run"
[ "$(grep -c 'wide.py.*AL101' "$work/nocache.txt")" = 2 ] || say "the CRLF fixture lacks its two AL101"
for format in text json sarif github json-lines; do
    check --no-cache --output-format "$format" >"$work/nocache.$format"
    check --output-format "$format" >"$work/warm.$format"
    cmp -s "$work/nocache.$format" "$work/warm.$format" ||
        { say "a warm run differs from --no-cache in $format:";
          diff "$work/nocache.$format" "$work/warm.$format" >&2; }
done
ALLOCLINT_CACHE_STATS=1 check >/dev/null
grep -q 'cache: 7 hits, 0 analysed' "$work/stderr.txt" ||
    { say "a warm run analysed files again:"; cat "$work/stderr.txt" >&2; }
[ -f .alloclint_cache/.gitignore ] || say "no .gitignore in the cache folder"
grep -qx '\*' .alloclint_cache/.gitignore || say "the cache's .gitignore does not ignore it all"
[ -f .alloclint_cache/CACHEDIR.TAG ] || say "no CACHEDIR.TAG"
[ -z "$(git status --porcelain --untracked-files=all | grep alloclint_cache)" ] ||
    say "git sees the cache folder"

# The file itself changes: its new findings, not the cached ones.
sed -i 's/s\[:\] = 1.0/s[:2] = 1.0/' pkg/plain.py
check >"$work/edited.txt"
check --no-cache >"$work/edited_ref.txt"
cmp -s "$work/edited.txt" "$work/edited_ref.txt" || say "an edited file gave cached findings"
cmp -s "$work/edited.txt" "$work/warm.txt" && say "the edit changed nothing (fixture broken)"

# An edited notebook: analysed again, its new findings reported.
sed -i 's/out=scaled)/out=scaled[:1])/' pkg/sampler.ipynb
check >"$work/nb_edited.txt"
check --no-cache >"$work/nb_edited_ref.txt"
cmp -s "$work/nb_edited.txt" "$work/nb_edited_ref.txt" || say "an edited notebook gave cached findings"
grep -q 'sampler.ipynb.*AL10' "$work/nb_edited.txt" && say "the edited notebook kept its finding"

# A callee in another file changes: the caller's proof is redone, also
# when only the caller is named, so that the callee's file is no file of
# the run and is read again to see it changed.
one() { "$alloclint" check --output-format concise pkg/model.py 2>>"$work/stderr.txt"; }
one >"$work/one_cold.txt"
one >"$work/one_warm.txt"
grep -q 'model.py.*AL101' "$work/one_warm.txt" || say "pkg/model.py alone has no AL101 finding"
cat >pkg/fill.py <<'EOF'
import torch


def write_rows(out: torch.Tensor, src: torch.Tensor) -> None:
    out.add_(src)
EOF
one >"$work/one_callee.txt"
grep -q 'model.py.*AL101' "$work/one_callee.txt" &&
    say "a changed callee outside the run left the caller's cached finding"
check >"$work/callee.txt"
check --no-cache >"$work/callee_ref.txt"
cmp -s "$work/callee.txt" "$work/callee_ref.txt" ||
    { say "a changed callee left the caller's cached finding:"; diff "$work/callee_ref.txt" "$work/callee.txt" >&2; }
grep -q 'model.py.*AL101' "$work/callee.txt" && say "AL101 kept after the callee reads the buffer"

# Options change: another rule selection is not answered from the cache.
check --select AL900 >"$work/select.txt"
check --no-cache --select AL900 >"$work/select_ref.txt"
cmp -s "$work/select.txt" "$work/select_ref.txt" || say "--select was answered from the cache"

# A corrupt cache file: discarded with a warning naming it; same output.
for f in .alloclint_cache/*.bin; do
    printf 'garbage' | dd of="$f" bs=1 seek=40 conv=notrunc 2>/dev/null
done
check >"$work/corrupt.txt"
grep -q 'warning: .*alloclint_cache/.*\.bin: not a whole cache' "$work/stderr.txt" ||
    { say "no warning for a corrupt cache file:"; cat "$work/stderr.txt" >&2; }
cmp -s "$work/corrupt.txt" "$work/callee_ref.txt" || say "a corrupt cache changed the findings"
check >/dev/null
[ -s "$work/stderr.txt" ] && say "the rewritten cache still warns"

# Another build of alloclint (here: this one without its build-id note,
# so identified by its bytes) does not take this build's results: a
# rebuilt rule keeps the version string but may say something else.
if command -v objcopy >/dev/null 2>&1; then
    objcopy --remove-section .note.gnu.build-id "$alloclint" "$work/rebuilt" 2>/dev/null &&
        chmod +x "$work/rebuilt"
    if [ -x "$work/rebuilt" ]; then
        check >/dev/null
        ALLOCLINT_CACHE_STATS=1 "$work/rebuilt" check --output-format concise . >/dev/null \
            2>"$work/rebuilt.err"
        grep -q 'cache: 0 hits' "$work/rebuilt.err" ||
            { say "another build took this build's cached results:"; cat "$work/rebuilt.err" >&2; }
        ALLOCLINT_CACHE_STATS=1 check >/dev/null
        grep -q ' 0 analysed' "$work/stderr.txt" ||
            { say "this build lost its own cache to another:"; cat "$work/stderr.txt" >&2; }
    fi
fi

# A file the stamp vouches for (unchanged for seconds before it was
# seen) is not read again; rewritten in place with the same size and its
# modification time set back, it is: the status-change time moved.
cat >pkg/stamp.py <<'EOF'
import torch


def ones_row(n: int) -> torch.Tensor:
    s = torch.zeros(n)
    s[1:] = 2.
    return s
EOF
sleep 3
check >/dev/null
check >"$work/stamp_before.txt"
grep -q 'stamp.py' "$work/stamp_before.txt" && say "the stamp fixture has a finding before the edit"
old_mtime=$(stat -c %y pkg/stamp.py)
edited=$(sed 's/s\[1:\] = 2\./s[:] = 1.0/' pkg/stamp.py)
printf '%s\n' "$edited" >pkg/stamp.py
touch -d "$old_mtime" pkg/stamp.py
check >"$work/stamp_after.txt"
check --no-cache >"$work/stamp_ref.txt"
grep -q 'stamp.py.*AL101' "$work/stamp_ref.txt" || say "the edited stamp fixture has no AL101"
cmp -s "$work/stamp_after.txt" "$work/stamp_ref.txt" ||
    { say "a rewrite that kept size and mtime was answered from the stamp:";
      diff "$work/stamp_ref.txt" "$work/stamp_after.txt" >&2; }
rm pkg/stamp.py

# A first run (an empty cache) reads each file once: its job's read gives
# the hash the cache keeps, with the stamp taken before it; the next run
# takes those stamps and reads no file without findings. (The files are
# seconds old by now, so their stamps vouch.)
if command -v strace >/dev/null 2>&1; then
    opens() { grep -c "\"$1\"" "$2" || true; }
    strace -f -e trace=open,openat -o "$work/first.trace" "$alloclint" check \
        --output-format concise --cache-dir "$work/first" . >"$work/first.txt" 2>/dev/null
    check --no-cache >"$work/nocache_now.txt"
    cmp -s "$work/first.txt" "$work/nocache_now.txt" || say "a first run differs from --no-cache"
    [ "$(opens pkg/empty.py "$work/first.trace")" = 1 ] ||
        say "a first run read pkg/empty.py $(opens pkg/empty.py "$work/first.trace") times (once wanted)"
    strace -f -e trace=open,openat -o "$work/second.trace" "$alloclint" check \
        --output-format concise --cache-dir "$work/first" . >/dev/null 2>&1
    [ "$(opens pkg/empty.py "$work/second.trace")" = 0 ] ||
        say "the run after a first run read pkg/empty.py again: no stamp was kept"
    # A file with findings is reported from the lines the cache kept.
    grep -q 'wide.py.*AL101' "$work/first.txt" || say "pkg/wide.py lost its findings"
    [ "$(opens pkg/wide.py "$work/second.trace")" = 0 ] ||
        say "a warm run read pkg/wide.py, a file with cached findings"
    # Checked just after it was written, a file's stamp cannot vouch; seen
    # again unchanged once it has settled, it does, and is not read after.
    cat >pkg/fresh.py <<'EOF'
import torch


def gather_rows(src: torch.Tensor) -> torch.Tensor:
    rows = torch.zeros(src.shape, dtype=src.dtype)
    rows.copy_(src)
    return rows
EOF
    "$alloclint" check --output-format concise --cache-dir "$work/first" . >/dev/null 2>&1
    sleep 3
    "$alloclint" check --output-format concise --cache-dir "$work/first" . >/dev/null 2>&1
    strace -f -e trace=open,openat -o "$work/settled.trace" "$alloclint" check \
        --output-format concise --cache-dir "$work/first" . >"$work/settled.txt" 2>/dev/null
    [ "$(opens pkg/fresh.py "$work/settled.trace")" = 0 ] ||
        say "a file checked while fresh is read on every run after it settled"
    grep -q 'fresh.py.*AL101' "$work/settled.txt" || say "pkg/fresh.py lost its finding"
    rm pkg/fresh.py
else
    say "strace is missing (scripts/setup.sh installs it)"
fi

# --cache-dir and ALLOCLINT_CACHE_DIR put it elsewhere.
check --cache-dir "$work/elsewhere" >/dev/null
ls "$work/elsewhere"/*.bin >/dev/null 2>&1 || say "--cache-dir wrote no cache there"
ALLOCLINT_CACHE_DIR="$work/env" check >/dev/null
ls "$work/env"/*.bin >/dev/null 2>&1 || say "ALLOCLINT_CACHE_DIR wrote no cache there"
rm -rf .alloclint_cache
check --no-cache >/dev/null
[ -e .alloclint_cache ] && say "--no-cache created the cache folder"

# Runs at once on one cache: every one answers right, and the cache left
# behind reads back without a warning.
i=0
while [ $i -lt 6 ]; do
    "$alloclint" check --output-format concise . >"$work/par$i.txt" 2>"$work/par$i.err" &
    i=$((i + 1))
done
wait
i=0
while [ $i -lt 6 ]; do
    cmp -s "$work/par$i.txt" "$work/callee_ref.txt" || say "concurrent run $i differs"
    [ -s "$work/par$i.err" ] && { say "concurrent run $i warned:"; cat "$work/par$i.err" >&2; }
    i=$((i + 1))
done
check >"$work/after.txt"
[ -s "$work/stderr.txt" ] && { say "the cache after concurrent runs warns:"; cat "$work/stderr.txt" >&2; }
cmp -s "$work/after.txt" "$work/callee_ref.txt" || say "the cache after concurrent runs is wrong"
ls .alloclint_cache/*.tmp >/dev/null 2>&1 && say "temporary files left in the cache"

# libclang is loaded only to parse C++: a warm run answers a cached C++
# file without it (here it cannot load), a changed one is reported as not
# checked, and that is never cached as a clean result.
mkdir -p "$work/ext"
cd "$work/ext" || exit 2
cat >ops.cpp <<'EOF2'
#include <torch/extension.h>

torch::Tensor copy_rows(const torch::Tensor& x) {
  auto out = torch::zeros({x.numel()}, x.options());
  out.copy_(x.flatten());
  return out;
}
EOF2
"$alloclint" check --output-format concise . >"$work/cxx_cold.txt" 2>"$work/cxx.err"
if grep -q 'built without libclang' "$work/cxx.err"; then
    echo "cache: built without libclang; the lazy-load checks are skipped" >&2
    exit $fail
fi
grep -q 'ops.cpp.*AL102' "$work/cxx_cold.txt" || say "the C++ fixture has no AL102 finding"
ldd "$alloclint" | grep -q 'libclang' && say "alloclint links libclang, and pays for it at start-up"
ALLOCLINT_LIBCLANG=/nonexistent/libclang.so "$alloclint" check --output-format concise . \
    >"$work/cxx_warm.txt" 2>"$work/cxx.err"
cmp -s "$work/cxx_cold.txt" "$work/cxx_warm.txt" || say "a warm run needed libclang for a cached file"
[ -s "$work/cxx.err" ] && { say "a warm run tried to load libclang:"; cat "$work/cxx.err" >&2; }
sed -i 's/out.copy_(x.flatten());/out.copy_(x.flatten());  \/\/ rows/' ops.cpp
ALLOCLINT_LIBCLANG=/nonexistent/libclang.so "$alloclint" check --output-format concise . \
    >"$work/cxx_noclang.txt" 2>"$work/cxx.err"
grep -q 'warning: 1 C++/CUDA file not checked: libclang could not be loaded: /nonexistent/libclang.so' \
    "$work/cxx.err" || { say "no warning when libclang cannot be loaded:"; cat "$work/cxx.err" >&2; }
"$alloclint" check --output-format concise . >"$work/cxx_after.txt" 2>"$work/cxx.err"
grep -q 'ops.cpp.*AL102' "$work/cxx_after.txt" ||
    say "a file not checked for want of libclang was cached as clean"

# Operator schemas (TORCH_LIBRARY) are kept per C++ file: a warm run reads
# no C++ file for them, and an edited schema changes the findings of the
# Python caller as --no-cache says. The schema's `-> Tensor` says the op's
# result is new, which lets AL401 reuse it; `-> Tensor(a)` says it is the
# argument, which must not be updated in place.
cp -r "$tests/rules/AL101/custom_ops.d" "$work/ops"
cd "$work/ops" || exit 2
sed -i 's|  m.def("ragged_scales|  m.def("rms_scaled(Tensor x) -> Tensor");\n  m.def("ragged_scales|' \
    csrc/torch_bindings.cpp
cat >>kvq/layers/quantize.py <<'EOF'


def doubled_scales(x):
    y = torch.ops._kvq_C.rms_scaled(x)
    y = y * 2
    return y
EOF
"$alloclint" check --select ALL --output-format concise . >"$work/ops_cold.txt" 2>/dev/null
grep -q 'quantize.py:[0-9]*:.*AL401.*y.mul_(2)' "$work/ops_cold.txt" ||
    say "the schema fixture lost its AL401 finding on the op's new result"
sleep 3
"$alloclint" check --select ALL --output-format concise . >/dev/null 2>&1
if command -v strace >/dev/null 2>&1; then
    strace -f -e trace=open,openat -o "$work/ops.trace" "$alloclint" check --select ALL \
        --output-format concise . >"$work/ops_warm.txt" 2>/dev/null
    grep -q 'torch_bindings.cpp' "$work/ops.trace" &&
        say "a warm run read csrc/torch_bindings.cpp for its schemas"
    cmp -s "$work/ops_cold.txt" "$work/ops_warm.txt" || say "a warm run lost a schema's finding"
fi
sed -i 's/rms_scaled(Tensor x) -> Tensor"/rms_scaled(Tensor(a) x) -> Tensor(a)"/' csrc/torch_bindings.cpp
"$alloclint" check --select ALL --output-format concise . >"$work/ops_edited.txt" 2>/dev/null
"$alloclint" check --select ALL --no-cache --output-format concise . >"$work/ops_ref.txt" 2>/dev/null
grep -q 'quantize.py:[0-9]*:.*AL401' "$work/ops_ref.txt" &&
    say "the edited schema still lets AL401 reuse the op's result"
cmp -s "$work/ops_edited.txt" "$work/ops_ref.txt" ||
    { say "an edited schema left the cached findings:"; diff "$work/ops_ref.txt" "$work/ops_edited.txt" >&2; }
exit $fail
