#!/bin/sh
# Every fix applied, unsafe ones included, to copies of real trees: does
# the code still compile and name only what it defines or imports, and
# does a second pass propose nothing? (issue 42)
#
# Usage: bench/fix_all.sh TREE...   (checkouts made with bench/checkout.py)
# Needs /usr/bin/python3 and pyflakes3 (installed with apt when missing).
# Prints one line per check; exits 1 when one fails.
set -u
here=$(cd "$(dirname "$0")" && pwd)
alloclint=${ALLOCLINT:-$here/../build/alloclint}
[ $# -gt 0 ] || { echo "usage: bench/fix_all.sh TREE..." >&2; exit 2; }
command -v pyflakes3 >/dev/null 2>&1 ||
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pyflakes >/dev/null 2>&1 ||
    { echo "fix_all: needs pyflakes3 (apt-get install python3-pyflakes)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
names=""
for t in "$@"; do
    cp -R "$t" "$work/"
    names="$names $(basename "$t")"
done
cd "$work" || exit 2
git init -q . && git add -A && git -c user.name=b -c user.email=b@b commit -qm base
fix() { "$alloclint" check --no-cache --select ALL --no-respect-gitignore --fix --unsafe-fixes -q $names >/dev/null 2>&1; }
fix
git diff --name-only | grep '\.py$' >changed.txt
echo "files changed by --select ALL --fix --unsafe-fixes: $(wc -l <changed.txt)"
git add -A && git -c user.name=b -c user.email=b@b commit -qm fixed
fix
second=$(git diff --name-only | wc -l)
echo "files a second pass changes: $second"
fail=0
[ "$second" -eq 0 ] || fail=1
bad=0 names_lost=0
while read -r f; do
    /usr/bin/python3 -m py_compile "$f" 2>/dev/null || { echo "does not compile: $f"; bad=$((bad + 1)); }
    before=$(git show "HEAD~1:$f" | pyflakes3 - 2>/dev/null | grep -c "undefined name '")
    after=$(pyflakes3 "$f" 2>/dev/null | grep -c "undefined name '")
    [ "$after" -gt "$before" ] && { echo "names an undefined name: $f"; names_lost=$((names_lost + 1)); }
done <changed.txt
echo "changed files that do not compile: $bad"
echo "changed files with a new undefined name (pyflakes): $names_lost"
[ $bad -eq 0 ] && [ $names_lost -eq 0 ] || fail=1
exit $fail
