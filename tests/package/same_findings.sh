#!/bin/sh
# The release binary reports and rewrites exactly what the development
# build does over the fixtures and the examples (bench/compare.sh: every
# finding as JSON, the safe patch, the unsafe patch, --select ALL).
# Usage: same_findings.sh REFERENCE RELEASE SOURCE_DIR
set -u
reference=$(realpath "$1")
release=$(realpath "$2")
src=$(cd "$3" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$src/tests/rules" "$work/rules"
cp -R "$src/examples" "$work/examples"
sh "$src/bench/compare.sh" record "$reference" "$work/out" "$work/rules" "$work/examples" >/dev/null || exit 1
sh "$src/bench/compare.sh" check "$release" "$work/out" "$work/rules" "$work/examples"
