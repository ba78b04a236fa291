#!/bin/sh
# The floor plan of src/, checked: every source file belongs to a layer,
# includes only headers of the layers it may use (one way down), and stays
# under 1,000 lines. A new file must be given a layer here.
#
# The layers are folders (ARCHITECTURE.md), lowest first; each may include
# its own folder and any folder of a lower layer, never a higher one:
#   base              src/base/             (bytes, strings, paths, TOML, findings)
#   front             src/front/            (prefilter, python/ and cxx/ front ends)
#   analysis-core     src/analysis/core/    (index, summaries, op tables, memo)
#   analysis-python   src/analysis/python/  \ side by side: neither includes
#   analysis-cxx      src/analysis/cxx/     /  the other
#   analysis-triton   src/analysis/triton/  (Triton is Python: it may use python/)
#   analysis          src/analysis/*.c      (the language table: sees them all)
#   rules             src/rules/
#   engine            src/engine/           (lint pipeline, fixes, reports)
#   run               src/run/              (discovery, config, cache, jobs)
#   profile           src/profile/          (profiler traces joined to the tree and findings)
#   cmd               src/cmd/              (check, verify, server, cli, main)
set -u
src=${1:-$(cd "$(dirname "$0")/../src" && pwd)}
cd "$src" || exit 2

layer_of() {
    case $1 in
        base/*) echo base ;;
        front/*) echo front ;;
        analysis/core/*) echo analysis-core ;;
        analysis/python/*) echo analysis-python ;;
        analysis/cxx/*) echo analysis-cxx ;;
        analysis/triton/*) echo analysis-triton ;;
        analysis/*/*) echo none ;;
        analysis/*) echo analysis ;;
        rules/*) echo rules ;;
        engine/*) echo engine ;;
        run/*) echo run ;;
        profile/*) echo profile ;;
        cmd/*) echo cmd ;;
        *) echo none ;;
    esac
}

# The layers a layer may include, besides itself, in order.
below() {
    case $1 in
        base) ;;
        front) echo base ;;
        analysis-core) echo base front ;;
        analysis-python | analysis-cxx) echo base front analysis-core ;;
        analysis-triton) echo base front analysis-core analysis-python ;;
        analysis) echo base front analysis-core analysis-python analysis-cxx analysis-triton ;;
        rules) echo base front analysis-core analysis-python analysis-cxx analysis-triton analysis ;;
        engine) echo base front analysis-core analysis-python analysis-cxx analysis-triton analysis rules ;;
        run) echo base front analysis-core analysis-python analysis-cxx analysis-triton analysis rules engine ;;
        profile) echo base front analysis-core analysis-python analysis-cxx analysis-triton analysis rules engine run ;;
        cmd) echo base front analysis-core analysis-python analysis-cxx analysis-triton analysis rules engine run profile ;;
    esac
}

may_use() { # layer, used layer
    [ "$1" = "$2" ] && return 0
    for l in $(below "$1"); do
        [ "$l" = "$2" ] && return 0
    done
    return 1
}

fail=0
for f in $(find . -name '*.[ch]' | sed 's#^\./##' | sort); do
    layer=$(layer_of "$f")
    if [ "$layer" = none ]; then
        echo "layers: src/$f has no layer (add it to tests/layers.sh)" >&2
        fail=1
        continue
    fi
    lines=$(wc -l <"$f")
    if [ "$lines" -gt 1000 ]; then
        echo "layers: src/$f has $lines lines (at most 1,000: split it)" >&2
        fail=1
    fi
    dir=$(dirname "$f")
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
        # Resolve relative to the including file, as the compiler does.
        target=$(realpath -m --relative-to=. "$dir/$inc")
        [ -f "$target" ] || target=$inc
        if [ ! -f "$target" ]; then
            echo "layers: src/$f includes \"$inc\", which is not in src/" >&2
            fail=1
            continue
        fi
        used=$(layer_of "$target")
        if ! may_use "$layer" "$used"; then
            echo "layers: src/$f ($layer) includes src/$target ($used): includes go one way down" >&2
            fail=1
        fi
    done
done
[ $fail -eq 0 ] && echo "layers: every file in its layer, every include down, none over 1,000 lines"
exit $fail
