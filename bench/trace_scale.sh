#!/bin/sh
# The trace reader at scale: a trace of SIZE MB (default 400) made from a
# committed fixture trace by bench/trace_scale.py, read by `alloclint hot`
# plain and gzipped; wall time and peak memory from GNU time, on the
# threads the machine has (the reader is one thread).
# Usage: bench/trace_scale.sh ALLOCLINT [SIZE_MB]
set -eu
bin=$(realpath "$1")
size=${2:-400}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/bench/trace_scale.py" "$here/tests/profile/traces/labelled_decode.pt.trace.json.gz" \
    "$work/big.json" "$size"
gzip -1 -k "$work/big.json"
ls -l "$work/big.json" "$work/big.json.gz" | awk '{printf "%s %.1f MB\n", $NF, $5 / 1e6}'
cd "$here/tests/profile/project"
for t in big.json big.json.gz; do
    /usr/bin/time -f "$t: %e s wall, %U s user, %M KB peak" "$bin" hot --top 3 "$work/$t" . >/dev/null 2>"$work/err" ||
        { cat "$work/err"; exit 1; }
    grep "wall" "$work/err"
done
