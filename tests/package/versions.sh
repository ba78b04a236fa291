#!/bin/sh
# One version: VERSION is what the binary reports, what the pre-commit hook
# repository pins, and what the README tells users to install.
# Usage: versions.sh ALLOCLINT SOURCE_DIR
set -u
alloclint=$1
src=$2
fail=0
say() { echo "versions: $*" >&2; fail=1; }
v=$(cat "$src/VERSION")
echo "$v" | grep -qx '[0-9]*\.[0-9]*\.[0-9]*' || say "VERSION is not MAJOR.MINOR.PATCH: $v"
[ "$("$alloclint" --version)" = "alloclint $v" ] || say "alloclint --version says $("$alloclint" --version)"
grep -qx "VERSION = \"$v\"" "$src/pre-commit-hooks/hook_build.py" || say "pre-commit-hooks/hook_build.py does not pin $v"
grep -q "rev: v$v\$" "$src/README.md" || say "README's pre-commit snippet does not name v$v"
grep -q "rev: v$v\$" "$src/pre-commit-hooks/README.md" || say "pre-commit-hooks/README.md does not name v$v"
grep -q "alloclint-$v-py3-none-manylinux" "$src/README.md" || say "README does not name the wheel of $v"
exit $fail
