#!/bin/sh
# Times alloclint against ast-grep on the same files, in one run, and
# prints ratios (wall time and peak memory), alloclint cold (--no-cache).
# Timings are never asserted.
#
# Usage: bench/run.sh PATH [RUNS]
#   PATH  a directory of Python code (e.g. a checkout of vLLM)
#   RUNS  repetitions per tool, median reported (default 5)
#
# ast-grep comes from the npm registry, pinned below, installed under
# bench/.cache. alloclint is taken from build/ (build it first).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
target=${1:?usage: bench/run.sh PATH [RUNS]}
runs=${2:-5}
. "$here/peers.sh"

# One measurement: prints "seconds kilobytes".
measure() {
    /usr/bin/time -f "%e %M" -o "$cache/time.txt" "$@" >/dev/null 2>&1 || true
    tail -n 1 "$cache/time.txt"
}

# a/b as "0.56x"; "n/a" when b is below the timer's 10 ms resolution.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 < 0.01) print "n/a"; else printf "%.2fx\n", a / b }'; }

median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

bench() {
    name=$1; shift
    : >"$cache/$name.runs"
    i=0
    while [ $i -lt "$runs" ]; do
        measure "$@" >>"$cache/$name.runs"
        i=$((i + 1))
    done
    t=$(cut -d' ' -f1 "$cache/$name.runs" | median)
    m=$(cut -d' ' -f2 "$cache/$name.runs" | median)
    echo "$t $m"
}

files=$(find "$target" -name '*.py' -not -path '*/.git/*' | wc -l)
bytes=$(find "$target" -name '*.py' -not -path '*/.git/*' -exec cat {} + | wc -c)
cpus=$(nproc)

# Warm the page cache so neither tool pays for the first read.
find "$target" -name '*.py' -exec cat {} + >/dev/null

set -- $(bench alloclint "$alloclint" check --no-cache --no-respect-gitignore -q --output-format concise "$target")
at=$1; am=$2
set -- $(bench alloclint1 "$alloclint" check --no-cache -j 1 --no-respect-gitignore -q --output-format concise "$target")
a1t=$1; a1m=$2
set -- $(bench astgrep "$sg" run --lang python --pattern 'torch.zeros($$$)' --no-ignore hidden "$target")
st=$1; sm=$2
set -- $(bench astgrep1 "$sg" run --lang python --pattern 'torch.zeros($$$)' -j 1 --no-ignore hidden "$target")
s1t=$1; s1m=$2

findings=$("$alloclint" check --no-respect-gitignore -q --output-format concise --exit-zero "$target" | wc -l)
matches=$("$sg" run --lang python --pattern 'torch.zeros($$$)' --no-ignore hidden "$target" --json=stream 2>/dev/null | wc -l)

cat <<REPORT
target: $target ($files Python files, $bytes bytes), $cpus CPUs, median of $runs runs
tool                                   wall s   peak KB   result
alloclint check (all CPUs)             $at      $am       $findings findings (default rules)
ast-grep torch.zeros(\$\$\$) (all CPUs)  $st      $sm       $matches matches
alloclint check -j 1                   $a1t      $a1m
ast-grep -j 1                          $s1t      $s1m
ratio alloclint/ast-grep, all CPUs:  time $(ratio "$at" "$st")  memory $(ratio "$am" "$sm")
ratio alloclint/ast-grep, 1 thread:  time $(ratio "$a1t" "$s1t")  memory $(ratio "$a1m" "$s1m")
REPORT
