#!/bin/sh
# `alloclint explain PATH:LINE` on a small project: a proof through a
# helper in another file (proved, safe), a library op with an out=
# contract (likely, unsafe), a buffer handed to a method that keeps it
# (blocked), CUDA-graph state on an attribute (not followed), a line
# with nothing to say, a factory handed straight to torch.cumsum(out=)
# (proved), a parameter read before its initializer (no finding), a fill
# kept by a Triton store under a mask of loaded values and one handed to a
# custom op whose schema says only `Tensor!` (blocked), one handed to a
# function not found in the project (blocked, said so), an update of
# element 0 of a project module's pair (proved through its forward) and
# of a module that may return its argument (declined) or is handed a new
# tensor it may return (proved through the argument), and lines
# that AL401, AL201, AL205, AL202, AL303 and AL501 (a probe that keeps nothing of its
# tensor) examined and declined (what failed), a buffer
# written by a nested function at its call and one a closure defined above
# it reads (blocked), a dispatch limited by a declared attribute type, an
# update of what a helper returns when its `out=None` is left None (proved)
# and of what a method of an unknown object returns (the project's one
# method of that name, assumed), a 2-D tile kernel's output (proved, each
# dimension shown), a library contract on a method of a declared object
# (likely, the class named) and one that leaves part of its output
# (blocked), an update whose autograd is off only at its private
# function's callers (two deep, assumed) and one read on another CUDA
# stream before it (unsafe), a list of rows read out of a tensor and stacked
# (unsafe, the element's proof shown) and one of slices of a parameter (not
# reported: the list holds no memory of its own), and a fill that a second
# Triton kernel reads only where a first one stored (proved, both launches
# and the ranges shown) or not, the statement between them named; text
# and JSON against golden files; a buffer accumulated into and then returned
# (the accumulation named, the escape after it also shown);
# (UPDATE_GOLDEN=1 rewrites them), and the exit codes.
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
fail=0
cd "$here/project" || exit 2
for case in decode.py:8:proved decode.py:14:likely decode.py:24:blocked decode.py:21:attribute \
            decode.py:3:nothing decode.py:34:passed decode.py:38:parameter \
            declined.py:8:declined_al401 declined.py:14:declined_al201 declined.py:23:declined_al205 \
            declined.py:29:declined_al202 declined.py:35:declined_al303 declined.py:39:declined_al501 \
            triton_masks.py:15:data_mask triton_masks.py:21:mutable \
            callees.py:6:not_found modules.py:37:tuple_element modules.py:39:returns_argument \
            modules.py:46:through_argument callers.py:6:caller_owned extension.py:10:extension_returns \
            closures.py:5:nested_function closures.py:18:closure_above \
            dispatch.py:23:declared_type returns.py:14:default_none returns.py:26:method_meet \
            tiles.py:18:tile_cover library_methods.py:12:method_contract \
            library_methods.py:18:part_contract grad_callers.py:7:grad_callers \
            grad_callers.py:25:stream_read stacks.py:7:gathered_stack blockers.py:7:accumulated \
            stacks.py:14:existing_elements splits.py:31:guarded_pair splits.py:40:unpaired \
            kernel_modes.py:17:mode_chosen; do
    file=${case%%:*}
    rest=${case#*:}
    line=${rest%%:*}
    name=${rest#*:}
    for fmt in text json; do
        "$bin" explain "$file:$line" --output-format "$fmt" >"$here/out.$name.$fmt" 2>&1
        rc=$?
        want=0
        [ "$name" = nothing ] && want=1
        [ $rc -eq $want ] || { echo "FAIL: $name ($fmt): exit $rc, not $want"; fail=1; }
        if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
            cp "$here/out.$name.$fmt" "$here/$name.$fmt"
        elif ! cmp -s "$here/out.$name.$fmt" "$here/$name.$fmt"; then
            echo "FAIL: $name ($fmt) differs:"; diff -u "$here/$name.$fmt" "$here/out.$name.$fmt"; fail=1
        fi
        rm -f "$here/out.$name.$fmt"
    done
done
# Errors: a missing file, a line past the end, a malformed place.
"$bin" explain nowhere.py:3 >/dev/null 2>err.txt; rc=$?
[ $rc -eq 2 ] && grep -q 'nowhere.py' err.txt || { echo "FAIL: missing file: exit $rc"; fail=1; }
"$bin" explain decode.py:999 >/dev/null 2>err.txt; rc=$?
[ $rc -eq 2 ] && grep -q 'decode.py has 41 lines, not 999' err.txt || { echo "FAIL: line past the end: exit $rc"; cat err.txt; fail=1; }
"$bin" explain decode.py >/dev/null 2>err.txt; rc=$?
[ $rc -eq 2 ] && grep -q 'is not PATH:LINE' err.txt || { echo "FAIL: no line: exit $rc"; fail=1; }
printf '{"cells": []}' >nb.ipynb
"$bin" explain nb.ipynb:1 >/dev/null 2>err.txt; rc=$?
[ $rc -eq 2 ] && grep -q 'not a notebook' err.txt || { echo "FAIL: a notebook: exit $rc"; cat err.txt; fail=1; }
rm -f err.txt nb.ipynb
[ $fail -eq 0 ] && echo "explain: ok"
exit $fail
