#!/bin/sh
# Speed and memory of a whole-repo check, measured against ast-grep with
# one naive pattern (`torch.zeros($$$A)`), all in one run, interleaved so
# that a noisy machine slows every tool alike. Prints a Markdown table:
# median wall time, MB/s of Python, peak RSS, and ratios to ast-grep.
# Timings are never asserted.
#
# Usage: bench/speed.sh [RUNS] PATH...
#   RUNS  repetitions of each measurement (default 5); PATHs are checked
#   together (e.g. checkouts of vLLM and SGLang).
#
# Rows: cold (--no-cache, all threads), warm (the cache of the run before,
# nothing changed), cold on one thread, the release binary cold (when
# build-release/alloclint exists: scripts/release.sh), and ast-grep.
# --select ALL. A
# second table: the Python parses of one more cold run, the MB they were
# handed, their CPU seconds, and the CPU seconds of the rest of the check.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
runs=5
case ${1:-} in [0-9]*) runs=$1; shift ;; esac
[ $# -gt 0 ] || { echo "usage: bench/speed.sh [RUNS] PATH..." >&2; exit 2; }
. "$here/peers.sh"
lintcache="$cache/lint-cache"
rm -rf "$lintcache"

bytes=$(find "$@" -name '*.py' -not -path '*/.git/*' -exec cat {} + | wc -c)
files=$(find "$@" -name '*.py' -not -path '*/.git/*' | wc -l)

measure() { # name command...: appends "seconds kilobytes" to $cache/name.runs
    name=$1; shift
    /usr/bin/time -f "%e %M" -o "$cache/time.txt" "$@" >/dev/null 2>&1 || true
    tail -n 1 "$cache/time.txt" >>"$cache/$name.runs"
}
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

release="$root/build-release/alloclint"
rows="cold warm onethread"
[ -x "$release" ] && rows="$rows release"
for n in $rows astgrep; do : >"$cache/$n.runs"; done
check="$alloclint check --select ALL -q --output-format concise --no-respect-gitignore"
# The cache the warm runs read.
$check --cache-dir "$lintcache" "$@" >/dev/null 2>&1 || true
i=0
while [ $i -lt "$runs" ]; do
    measure cold $check --no-cache "$@"
    measure warm $check --cache-dir "$lintcache" "$@"
    measure onethread $check --no-cache -j1 "$@"
    [ -x "$release" ] && measure release "$release" check --select ALL -q --output-format concise \
        --no-respect-gitignore --no-cache "$@"
    measure astgrep "$sg" run --pattern 'torch.zeros($$$A)' --lang python "$@"
    i=$((i + 1))
done

t_sg=$(cut -d' ' -f1 "$cache/astgrep.runs" | median)
m_sg=$(cut -d' ' -f2 "$cache/astgrep.runs" | median)
echo "Checked: $* ($files Python files, $((bytes / 1000000)) MB), $(nproc) CPUs, $runs runs each, medians."
echo
echo "| run | wall s | MB/s | peak RSS MB | time vs ast-grep | memory vs ast-grep |"
echo "|---|---:|---:|---:|---:|---:|"
for n in $rows astgrep; do
    t=$(cut -d' ' -f1 "$cache/$n.runs" | median)
    m=$(cut -d' ' -f2 "$cache/$n.runs" | median)
    awk -v n="$n" -v t="$t" -v m="$m" -v b="$bytes" -v ts="$t_sg" -v ms="$m_sg" 'BEGIN {
        label = n == "cold" ? "alloclint cold (--no-cache)" : n == "warm" ? "alloclint warm (cache, nothing changed)" : n == "onethread" ? "alloclint cold, -j1" : n == "release" ? "release binary cold (--no-cache)" : "ast-grep, one pattern"
        printf "| %s | %.2f | %.0f | %.0f | %.2fx | %.2fx |\n", label, t, (t > 0 ? b / 1e6 / t : 0), m / 1024, (ts > 0 ? t / ts : 0), (ms > 0 ? m / ms : 0) }'
done

if [ -x "$release" ]; then
    t_dev=$(cut -d' ' -f1 "$cache/cold.runs" | median)
    t_rel=$(cut -d' ' -f1 "$cache/release.runs" | median)
    echo
    awk -v a="$t_rel" -v b="$t_dev" 'BEGIN { printf "Release binary against the development build, cold: %.2f s against %.2f s (%.3fx).\n", a, b, (b > 0 ? a / b : 0) }'
fi

# Where a cold run's CPU time goes (one more run, ALLOCLINT_TIMING): the
# Python parses (bytes handed to tree-sitter: the kept regions of partial
# parses, and whole files), and the rest of the check (scan, index,
# analysis, rules, I/O).
ALLOCLINT_TIMING=1 $check --no-cache "$@" 2>"$cache/timing.txt" >/dev/null || true
echo
echo "| cold run, all rules | Python parses | MB parsed | parse s (CPU) | other check s (CPU) |"
echo "|---|---:|---:|---:|---:|"
awk '/timing: parse/ {p = $4; mb = $7; s = $9} /timing: analysis/ {a = $4}
     END {printf "| alloclint | %s | %s | %s | %s |\n", p, mb, s, a}' "$cache/timing.txt"
