#!/bin/sh
# Records everything alloclint reports and rewrites over a set of trees, or
# checks that another build reports and rewrites exactly the same: for
# changes that must not change behaviour (a refactoring, a speed-up).
#
# Usage:
#   bench/compare.sh record BINARY OUTDIR TREE...
#   bench/compare.sh check  BINARY OUTDIR TREE...
#
# For every TREE (the fixtures, examples/, a checkout of vLLM or SGLang made
# with bench/checkout.py) and every mode below it writes OUTDIR/<tree>.<mode>
# with `record`, and with `check` compares the new output byte for byte.
# Modes, all with --select ALL and every file the walk finds:
#   json    every finding: code, position, message, fix tier and edits
#   diff    the patch of safe fixes (the fix loop's result)
#   unsafe  the patch with --unsafe-fixes too
# Prints one line per tree and mode: findings (or changed files) and
# same/DIFFERENT; exits 1 when anything differs.
set -u
mode=${1:?usage: bench/compare.sh record|check BINARY OUTDIR TREE...}
bin=${2:?binary}
out=${3:?output directory}
shift 3
[ -x "$bin" ] || { echo "compare: $bin is not executable" >&2; exit 2; }
bin=$(realpath "$bin")
mkdir -p "$out"
status=0
for tree in "$@"; do
    tree=$(realpath "$tree")
    key=$(basename "$tree")
    for m in json diff unsafe; do
        case $m in
            json) args="--output-format json --exit-zero" ;;
            diff) args="--diff --exit-zero" ;;
            unsafe) args="--diff --unsafe-fixes --exit-zero" ;;
        esac
        new="$out/$key.$m.new"
        # Paths are printed as given: run from the tree's parent so that
        # both builds name files the same way.
        (cd "$(dirname "$tree")" && "$bin" check --select ALL --no-respect-gitignore -q \
            $args "$(basename "$tree")" >"$new" 2>/dev/null)
        if [ "$m" = json ]; then
            count=$(grep -c '"code":' "$new" || true)
            what="$count findings"
        else
            count=$(grep -c '^+++ ' "$new" || true)
            what="$count files changed"
        fi
        if [ "$mode" = record ]; then
            mv "$new" "$out/$key.$m"
            echo "$key $m: $what (recorded)"
        elif cmp -s "$new" "$out/$key.$m"; then
            echo "$key $m: $what, same"
            rm -f "$new"
        else
            echo "$key $m: $what, DIFFERENT (diff -u $out/$key.$m $new)"
            status=1
        fi
    done
done
exit $status
