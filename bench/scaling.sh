#!/bin/sh
# How time and peak memory grow with the size of the tree: one, two and
# four copies of a corpus (each copy a whole checkout, .git included, so
# every copy is a project of its own, as in a monorepo of vendored
# engines), checked with all rules and with the default rules, beside
# ast-grep's one-pattern scan of the same copies. A linter's memory should
# follow its largest file and its threads, not the number of files: the
# "peak vs one copy" column says how far it does; "speed vs ast-grep" is
# ast-grep's time over this row's (2.00x: twice as fast).
# Timings and peaks are printed, never asserted.
#
# Usage: bench/scaling.sh [-j N] [-r RUNS] [-b OTHER_BINARY] TREE...
#   -j N      threads for alloclint (default 2, as CI has)
#   -r RUNS   runs of each measurement, medians reported (default 1)
#   -b BIN    also measure another alloclint build (say, the commit before
#             a change), in the same run, interleaved
#   TREE      checkouts copied to make the corpus (vLLM and SGLang, say)
# The copies are made under bench/.cache/scaling and removed at the end.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
jobs=2
runs=1
other=
while [ $# -gt 0 ]; do
    case $1 in
        -j) jobs=$2; shift 2 ;;
        -r) runs=$2; shift 2 ;;
        -b) other=$(realpath "$2"); shift 2 ;;
        --) shift; break ;;
        -*) echo "usage: bench/scaling.sh [-j N] [-r RUNS] [-b OTHER_BINARY] TREE..." >&2; exit 2 ;;
        *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "usage: bench/scaling.sh [-j N] [-r RUNS] [-b OTHER_BINARY] TREE..." >&2; exit 2; }
for t in "$@"; do
    [ -d "$t" ] || { echo "bench: $t: not a folder" >&2; exit 2; }
done
[ -z "$other" ] || [ -x "$other" ] || { echo "bench: $other is not executable" >&2; exit 2; }
. "$here/peers.sh"

work="$cache/scaling"
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT INT TERM
for c in 1 2 3 4; do
    mkdir "$work/copy$c"
    for t in "$@"; do
        cp -a "$t" "$work/copy$c/"
    done
done
files=$(find "$work/copy1" -name '*.py' -not -path '*/.git/*' | wc -l)
bytes=$(find "$work/copy1" -name '*.py' -not -path '*/.git/*' -exec cat {} + | wc -c)

median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
measure() { # name command...: appends "seconds kilobytes" to $work/name.runs
    name=$1; shift
    /usr/bin/time -f "%e %M" -o "$work/time.txt" "$@" >/dev/null 2>&1 || true
    tail -n 1 "$work/time.txt" >>"$work/$name.runs"
}

builds="this"
[ -n "$other" ] && builds="this other"
for n in 1 2 4; do
    copies=
    c=1
    while [ $c -le $n ]; do copies="$copies $work/copy$c"; c=$((c + 1)); done
    i=0
    while [ $i -lt "$runs" ]; do
        for b in $builds; do
            bin=$alloclint
            [ "$b" = other ] && bin=$other
            # shellcheck disable=SC2086
            measure "$b.all.$n" "$bin" check --select ALL -q --output-format concise \
                --no-respect-gitignore --no-cache -j "$jobs" $copies
            # shellcheck disable=SC2086
            measure "$b.default.$n" "$bin" check -q --output-format concise \
                --no-respect-gitignore --no-cache -j "$jobs" $copies
        done
        # shellcheck disable=SC2086
        measure "astgrep.$n" "$sg" run --pattern 'torch.zeros($$$A)' --lang python $copies
        i=$((i + 1))
    done
done

echo "Corpus: $* ($files Python files, $((bytes / 1000000)) MB a copy), $(nproc) CPUs, alloclint -j $jobs, $runs run(s) each, medians."
echo
echo "| build | rules | copies | wall s | s per copy | peak RSS MB | peak vs one copy | speed vs ast-grep |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for b in $builds astgrep; do
    for r in all default; do
        [ "$b" = astgrep ] && [ "$r" = default ] && continue
        base_m=
        for n in 1 2 4; do
            key="$b.$r.$n"
            [ "$b" = astgrep ] && key="astgrep.$n"
            t=$(cut -d' ' -f1 "$work/$key.runs" | median)
            m=$(cut -d' ' -f2 "$work/$key.runs" | median)
            ts=$(cut -d' ' -f1 "$work/astgrep.$n.runs" | median)
            [ -z "$base_m" ] && base_m=$m
            label=$b
            [ "$b" = this ] && label="this build (build/alloclint)"
            [ "$b" = other ] && label="alloclint ($other)"
            rules=$r
            [ "$b" = astgrep ] && { label="ast-grep, one pattern"; rules="-"; }
            awk -v l="$label" -v r="$rules" -v n="$n" -v t="$t" -v m="$m" -v bm="$base_m" -v ts="$ts" 'BEGIN {
                printf "| %s | %s | %d | %.2f | %.2f | %.0f | %.2fx | %.2fx |\n", l, r, n, t, t / n, m / 1024, (bm > 0 ? m / bm : 0), (t > 0 ? ts / t : 0) }'
        done
    done
done
