#!/bin/sh
# Poisoned execution: every fixture's functions (single files and the
# modules a project fixture's patch changes), and generated combinations
# of two or three rules on one buffer, run before and after alloclint's
# safe fixes with fresh memory poisoned (NaN / dtype maximum).
# Needs Debian's python3-torch under /usr/bin/python3; without it the test
# is skipped (exit 77). The functions that ran are compared with
# tests/exec/expected.txt so that the set cannot shrink unnoticed
# (UPDATE_GOLDEN=1 rewrites it).
set -u
alloclint=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
if ! "$py" -c "import torch" 2>/dev/null; then
    echo "exec: /usr/bin/python3 has no torch (apt-get install python3-torch); skipped"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/site" "$work/pairs"
cp "$here/../share/sitecustomize.py" "$work/site/"
pairs=""
for fixed in "$here"/rules/*/*.py.fixed; do
    orig=${fixed%.fixed}
    rule=$(basename "$(dirname "$orig")")
    base=$(basename "$orig" .py)
    mkdir -p "$work/pairs/$rule"
    cp "$orig" "$work/pairs/$rule/$base.py"
    cp "$fixed" "$work/pairs/$rule/${base}_fixed.py"
    pairs="$pairs $work/pairs/$rule/$base.py $work/pairs/$rule/${base}_fixed.py"
done
# Fixtures whose unsafe fixes must compute the same on these inputs too
# (unsafe for a reason the inputs do not reach, such as a loop of no
# iteration): tests/exec/unsafe_same.txt, one RULE/file.py a line.
while read -r listed; do
    case $listed in '' | '#'*) continue ;; esac
    orig="$here/rules/$listed"
    [ -f "$orig.unsafe-fixed" ] || { echo "exec: $listed has no .unsafe-fixed" >&2; exit 1; }
    rule=$(dirname "$listed")
    base=$(basename "$listed" .py)_unsafe
    mkdir -p "$work/pairs/$rule"
    cp "$orig" "$work/pairs/$rule/$base.py"
    cp "$orig.unsafe-fixed" "$work/pairs/$rule/${base}_fixed.py"
    pairs="$pairs $work/pairs/$rule/$base.py $work/pairs/$rule/${base}_fixed.py"
done <"$here/exec/unsafe_same.txt"
mkdir -p "$work/pairs/generated"
"$py" "$here/exec/gen_combos.py" "$work/pairs/generated/combos.py" || exit 2
cp "$work/pairs/generated/combos.py" "$work/pairs/generated/combos_fixed.py"
(cd "$work/pairs/generated" && "$alloclint" check --fix --select ALL -q \
    --no-respect-gitignore combos_fixed.py >/dev/null 2>"$work/fix-stderr.txt")
rc=$?
if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
    echo "exec: alloclint --fix on the generated combinations: exit code $rc" >&2
    cat "$work/fix-stderr.txt" >&2
    exit 1
fi
if cmp -s "$work/pairs/generated/combos.py" "$work/pairs/generated/combos_fixed.py"; then
    echo "exec: --fix changed nothing in the generated combinations" >&2
    exit 1
fi
pairs="$pairs $work/pairs/generated/combos.py $work/pairs/generated/combos_fixed.py"
# Project fixtures: the tree before and after its safe patch, the modules
# the patch changes imported as packages (tests/exec/stubs stands in for
# the libraries outside the project they import).
trees=""
for patchfile in "$here"/rules/*/*.d.diff; do
    grep -q '^+++ ' "$patchfile" || continue
    tree=${patchfile%.diff}
    rule=$(basename "$(dirname "$tree")")
    case=$(basename "$tree")
    dest="$work/trees/$rule/$case"
    mkdir -p "$dest"
    cp -R "$tree" "$dest/before"
    cp -R "$tree" "$dest/after"
    if ! (cd "$dest/after" && patch -p1 -s <"$patchfile"); then
        echo "exec: $rule/$case.diff does not apply to its tree" >&2
        exit 1
    fi
    modules=$(sed -n 's|^+++ b/\(.*\)\.py$|\1|p' "$patchfile" | sed 's|/__init__$||; s|/|.|g' | paste -sd, -)
    [ -n "$modules" ] && trees="$trees $dest/before $dest/after $rule/$case $modules"
done
# shellcheck disable=SC2086
PYTHONPATH="$work/site:$here/exec/stubs" ALLOCLINT_POISON=nan "$py" "$here/exec/run_fixtures.py" \
    "$work/ran.txt" $pairs --trees $trees
rc=$?
if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
    cp "$work/ran.txt" "$here/exec/expected.txt"
elif ! cmp -s "$work/ran.txt" "$here/exec/expected.txt"; then
    echo "exec: the functions that ran differ from tests/exec/expected.txt:" >&2
    diff -u "$here/exec/expected.txt" "$work/ran.txt" >&2
    rc=1
fi
exit $rc
