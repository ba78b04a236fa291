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
listed_bad=0
for t in "$@"; do
    cp -R "$t" "$work/"
    # A checkout's own .git (a folder, or a work tree's link file) would
    # make it a repository inside the one made below, hiding its changes.
    rm -rf "$work/$(basename "$t")/.git"
    names="$names $(basename "$t")"
done
cd "$work" || exit 2
git init -q . && git add -A && git -c user.name=b -c user.email=b@b commit -qm base
fix() { "$alloclint" check --no-cache --select ALL --no-respect-gitignore --fix --unsafe-fixes -q $names >/dev/null 2>&1; }
"$alloclint" check --no-cache --select ALL --no-respect-gitignore --fix --unsafe-fixes --show-fixes \
    $names >first.txt 2>&1
git diff --name-only | grep '\.py$' >changed.txt
echo "files changed by --select ALL --fix --unsafe-fixes: $(wc -l <changed.txt)"
# Every fix applied is listed: the --show-fixes counts add up to the
# summary's "N fixed", and the unsafe and chained ones are named.
fixed=$(sed -n 's/^Found [0-9]* findings\{0,1\} (\([0-9]*\) fixed.*/\1/p' first.txt)
listed=$(awk '/^    [0-9]+ \xc3\x97 / { n += $1 } END { print n + 0 }' first.txt)
unsafe=$(awk '/^    [0-9]+ \xc3\x97 .*, unsafe/ { n += $1 } END { print n + 0 }' first.txt)
later=$(awk '/^    [0-9]+ \xc3\x97 .*found after an earlier fix/ { n += $1 } END { print n + 0 }' first.txt)
echo "fixes applied: ${fixed:-?}; listed by --show-fixes: $listed ($unsafe unsafe, $later found after an earlier fix)"
[ "${fixed:-x}" = "$listed" ] || { echo "the listed fixes do not add up to the summary"; listed_bad=1; }
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
[ $bad -eq 0 ] && [ $names_lost -eq 0 ] && [ "${listed_bad:-0}" -eq 0 ] || fail=1
exit $fail
