#!/bin/sh
# Golden test of one project fixture: tests/rules/<CODE>/<case>.d/, a small
# source tree (with its pyproject.toml, csrc/, ...) checked as a whole, so
# that proofs cross files: a buffer in one module, the helper, custom op or
# kernel that writes it in another.
#
# Checks, in a scratch copy of the tree, run from its root:
#  1. the `expect:` annotations of every file (tests/annotations.awk);
#  2. the concise findings equal <case>.d.expected byte for byte;
#  3. `--diff` equals <case>.d.diff byte for byte (the exact fixed lines),
#     and applies with `git apply` and `patch -p1`;
#  4. `--fix` gives the same tree as the diff, and a second `--fix`
#     changes nothing;
#  5. `--diff --unsafe-fixes` equals <case>.d.unsafe.diff when that file
#     exists, and `--fix --unsafe-fixes` gives the tree it describes.
# The rules come from a `golden-args:` line in any file of the tree
# (default: --select <CODE>). UPDATE_GOLDEN=1 rewrites 2, 3 and 5.
set -u
alloclint=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
fixture=${2%/}
code=$(basename "$(dirname "$fixture")")
name=$(basename "$fixture")
dir=$(cd "$(dirname "$fixture")" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The cache stays out of the trees compared below (and is exercised: each
# run after the first reads it).
ALLOCLINT_CACHE_DIR="$work/cache"
export ALLOCLINT_CACHE_DIR
fail=0
say() { echo "golden $code/$name: $*" >&2; fail=1; }

cp -R "$dir/$name" "$work/tree"
cd "$work/tree" || exit 2
args=$(grep -rh '^\(#\|//\) golden-args: ' . | head -n 1 | sed 's/^\(#\|\/\/\) golden-args: //')
[ -n "$args" ] || args="--select $code"
run() { "$alloclint" check $args -q --no-respect-gitignore "$@" .; }
files=$(find . -type f \( -name '*.py' -o -name '*.cu' -o -name '*.cuh' -o -name '*.cpp' \
        -o -name '*.h' \) | sort)

run --output-format concise >../findings.txt 2>../stderr.txt
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 1 ] || { say "exit code $rc"; cat ../stderr.txt >&2; }

# 1. annotations
# shellcheck disable=SC2086
awk -f "$here/annotations.awk" ../findings.txt $files >../annotations.txt ||
    { say "annotations disagree:"; cat ../annotations.txt >&2; }

# golden FILE EXPECTED: compares, or rewrites under UPDATE_GOLDEN=1.
golden() {
    if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
        cp "$1" "$2"
    elif ! cmp -s "$1" "$2"; then
        say "$(basename "$1") differs from $(basename "$2"):"
        diff -u "$2" "$1" >&2
    fi
}

# 2. exact findings
golden ../findings.txt "$dir/$name.expected"

# 3., 4. and 5., for the safe fixes and then with the unsafe ones.
check_fixes() { # label, expected diff, extra option
    run --diff $3 >../$1.diff 2>../$1-stderr.txt
    drc=$?
    [ $drc -eq 0 ] || [ $drc -eq 1 ] || { say "$1 --diff exit code $drc"; cat ../$1-stderr.txt >&2; }
    if [ "$1" = unsafe ] && cmp -s ../unsafe.diff ../safe.diff; then
        # No unsafe fix: the file would repeat <case>.d.diff.
        if [ "${UPDATE_GOLDEN:-}" = 1 ]; then rm -f "$2"
        elif [ -f "$2" ]; then say "$(basename "$2") exists but there are no unsafe fixes"; fi
    elif [ "$1" = unsafe ] && [ ! -f "$2" ] && [ "${UPDATE_GOLDEN:-}" != 1 ]; then
        say "unsafe fixes found but $(basename "$2") is missing:"; cat ../unsafe.diff >&2
    else
        golden ../$1.diff "$2"
    fi
    rm -rf ../g ../p ../f && cp -R . ../g && cp -R . ../p && cp -R . ../f
    if [ -s ../$1.diff ]; then
        (cd ../g && git apply ../$1.diff) 2>../git-apply.txt ||
            { say "$1: git apply failed:"; cat ../git-apply.txt >&2; }
        (cd ../p && patch -p1 -s <../$1.diff) >../patch.txt 2>&1 ||
            { say "$1: patch -p1 failed:"; cat ../patch.txt >&2; }
    fi
    (cd ../f && "$alloclint" check $args -q --no-respect-gitignore --fix $3 . >/dev/null 2>../$1-fix.txt)
    diff -r ../g ../f >/dev/null || { say "$1: --fix differs from the applied diff:"; diff -ru ../g ../f >&2; }
    diff -r ../p ../f >/dev/null || say "$1: patch -p1 result differs from --fix"
    rm -rf ../f2 && cp -R ../f ../f2
    (cd ../f2 && "$alloclint" check $args -q --no-respect-gitignore --fix $3 . >/dev/null 2>>../$1-fix.txt)
    diff -r ../f ../f2 >/dev/null || say "$1: a second --fix changed the tree again"
    for log in ../$1-stderr.txt ../$1-fix.txt; do
        if grep -q "Sanitizer\|runtime error:" "$log"; then
            say "sanitizer report in $(basename "$log"):"
            cat "$log" >&2
        fi
    done
}
check_fixes safe "$dir/$name.diff" ""
check_fixes unsafe "$dir/$name.unsafe.diff" "--unsafe-fixes"

if grep -q "Sanitizer\|runtime error:" ../stderr.txt; then
    say "sanitizer report:"
    cat ../stderr.txt >&2
fi
exit $fail
