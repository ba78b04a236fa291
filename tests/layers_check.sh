#!/bin/sh
# The layers test must be able to fail: on copies of src/ with one defect
# each (an include up a layer, python/ including cxx/, the core including
# a language, a file in no layer's folder) layers.sh must exit non-zero
# and name the file; on the untouched copy it must pass.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=${1:?src directory}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

try() { # name, expected status (0 or 1), file named in the message (or "")
    out=$(sh "$here/layers.sh" "$work/src" 2>&1)
    status=$?
    if [ "$2" -eq 0 ] && [ $status -ne 0 ]; then
        echo "layers_check: $1: layers.sh failed on a clean tree: $out" >&2
        fail=1
    elif [ "$2" -ne 0 ] && { [ $status -eq 0 ] || ! printf '%s' "$out" | grep -q "$3"; }; then
        echo "layers_check: $1: layers.sh did not catch it (status $status): $out" >&2
        fail=1
    fi
}

fresh() { rm -rf "$work/src" && cp -r "$src" "$work/src"; }

fresh
try clean 0 ""

fresh
printf '#include "../engine/lint.h"\n' >>"$work/src/rules/al101.c"
try "a rule including the engine" 1 "src/rules/al101.c (rules) includes src/engine/lint.h"

fresh
printf '#include "../cxx/summary.h"\n' >>"$work/src/analysis/python/buffer.c"
try "python/ including cxx/" 1 "src/analysis/python/buffer.c (analysis-python) includes"

fresh
printf '#include "../python/buffer.h"\n' >>"$work/src/analysis/core/summary.c"
try "the core including a language" 1 "src/analysis/core/summary.c (analysis-core) includes"

fresh
printf '#include "../analysis/core/index.h"\n' >"$work/src/base/stray.c"
try "base including the analysis" 1 "src/base/stray.c (base) includes src/analysis/core/index.h"

fresh
: >"$work/src/stray.c"
try "a file in no layer" 1 "src/stray.c has no layer"

[ $fail -eq 0 ] && echo "layers_check: 6 trees, each judged as it should be"
exit $fail
