#!/bin/sh
# Golden test of the summaries of one file: tests/summaries/<case>.{py,cu}.
# Runs the `summaries` tool (tests/tools/summaries.c) on a scratch copy of
# tests/summaries/ (so that the files import each other, and nothing
# else) and compares its output with <case>.txt byte for byte.
# UPDATE_GOLDEN=1 rewrites <case>.txt (review the diff before committing).
set -u
tool=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
file=$2
dir=$(cd "$(dirname "$file")" && pwd)
name=$(basename "$file")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$dir"/*.py "$dir"/*.cu "$work"/ 2>/dev/null
cd "$work" || exit 2
"$tool" "$name" >out.txt 2>err.txt
rc=$?
if [ $rc -ne 0 ]; then
    echo "summaries $name: exit code $rc" >&2
    cat err.txt >&2
    exit 1
fi
if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
    cp out.txt "$dir/${name%.*}.txt"
elif ! cmp -s out.txt "$dir/${name%.*}.txt"; then
    echo "summaries $name: output differs from ${name%.*}.txt:" >&2
    diff -u "$dir/${name%.*}.txt" out.txt >&2
    exit 1
fi
if grep -q "Sanitizer\|runtime error:" err.txt; then
    cat err.txt >&2
    exit 1
fi
exit 0
