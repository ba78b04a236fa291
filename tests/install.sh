#!/bin/sh
# `cmake --install` puts the binary, the man page and the bash completion
# in place, and they work: the man page renders and names the options the
# binary takes; the completion completes them.
# Usage: install.sh BUILD_DIR
set -u
build=$1
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail=0
say() { echo "install: $*" >&2; fail=1; }
cmake --install "$build" --prefix "$prefix" >/dev/null || { say "cmake --install failed"; exit 1; }
bin="$prefix/bin/alloclint"
man=$(find "$prefix" -name alloclint.1 | head -n 1)
comp=$(find "$prefix" -path '*bash-completion/completions/alloclint' | head -n 1)
[ -x "$bin" ] || say "no binary"
[ -n "$man" ] || say "no man page"
[ -n "$comp" ] || say "no bash completion"
"$bin" --version | grep -q "^alloclint " || say "installed binary does not run"
# Every option --help names appears in the man page.
for opt in $("$bin" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
    grep -q -- "$(echo "$opt" | sed 's/-/\\\\-\\|-/g')" "$man" || grep -qF -- "$opt" "$man" || say "man page lacks $opt"
done
if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 man -l "$man" 2>/dev/null | grep -q "NAME" || say "man page does not render"
fi
if command -v bash >/dev/null 2>&1; then
    got=$(PATH="$prefix/bin:$PATH" bash -c ". '$comp'; COMP_WORDS=(alloclint check --unsa); COMP_CWORD=2; _alloclint; echo \${COMPREPLY[*]}")
    [ "$got" = "--unsafe-fixes" ] || say "completion of --unsa gave '$got'"
    got=$(PATH="$prefix/bin:$PATH" bash -c ". '$comp'; COMP_WORDS=(alloclint rule AL10); COMP_CWORD=2; _alloclint; echo \${COMPREPLY[*]}")
    [ "$got" = "AL101 AL102 AL103 AL104" ] || say "completion of rule AL10 gave '$got'"
fi
exit $fail
