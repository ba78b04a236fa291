#!/bin/sh
# Notebooks end to end: findings name the cell; --diff, --fix and
# --add-noqa rewrite only the changed cells (golden files beside the
# notebook); the diff applies with git apply to the same bytes as --fix; a
# file that is not a notebook is an error naming it.
# Usage: notebook.sh ALLOCLINT  (UPDATE_GOLDEN=1 rewrites the golden files)
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
nb=$here/notebooks/decode_step.ipynb
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

golden() { # NAME FILE
    if [ "${UPDATE_GOLDEN:-}" = 1 ]; then cp "$2" "$here/notebooks/$1"; return; fi
    if ! cmp -s "$2" "$here/notebooks/$1"; then
        echo "FAIL: $1 differs:"; diff -u "$here/notebooks/$1" "$2" | head -40; fail=1
    fi
}

cd "$tmp" || exit 1
cp "$nb" decode_step.ipynb
"$bin" check --output-format concise decode_step.ipynb >report.txt 2>&1
[ $? -eq 1 ] || { echo "FAIL: check should exit 1"; fail=1; }
golden decode_step.ipynb.expected report.txt

"$bin" check --diff decode_step.ipynb >patch.diff 2>/dev/null
golden decode_step.ipynb.diff patch.diff
cmp -s "$nb" decode_step.ipynb || { echo "FAIL: --diff changed the notebook"; fail=1; }

mkdir applied && cp "$nb" applied/decode_step.ipynb
(cd applied && git apply ../patch.diff) || { echo "FAIL: git apply"; fail=1; }

"$bin" check --fix -q decode_step.ipynb >/dev/null 2>&1
golden decode_step.ipynb.fixed decode_step.ipynb
cmp -s decode_step.ipynb applied/decode_step.ipynb || { echo "FAIL: --fix and the diff disagree"; fail=1; }
"$bin" check --fix -q decode_step.ipynb >/dev/null 2>&1
golden decode_step.ipynb.fixed decode_step.ipynb # a second --fix changes nothing

# The same from standard input, as an editor sends an unsaved notebook.
"$bin" check --fix -q --stdin-filename decode_step.ipynb - <"$nb" >stdin.ipynb 2>/dev/null
cmp -s stdin.ipynb applied/decode_step.ipynb || { echo "FAIL: --fix on stdin differs"; fail=1; }

cp "$nb" noqa.ipynb
"$bin" check --add-noqa -q noqa.ipynb >/dev/null 2>&1
golden decode_step.ipynb.noqa noqa.ipynb
"$bin" check -q noqa.ipynb >/dev/null 2>&1
[ $? -eq 0 ] || { echo "FAIL: findings remain after --add-noqa"; fail=1; }

# Only the cells' source lines may differ from the original.
if [ "${UPDATE_GOLDEN:-}" != 1 ]; then
    changed=$(diff "$nb" "$here/notebooks/decode_step.ipynb.fixed" | grep -c '^[<>]')
    outside=$(diff "$nb" "$here/notebooks/decode_step.ipynb.fixed" | grep '^[<>]' | grep -vc '^[<>]     "')
    [ "$changed" -gt 0 ] && [ "$outside" -eq 0 ] || { echo "FAIL: --fix touched more than cell sources"; fail=1; }
fi

printf '{"cells": {"source": "x"}}' > broken.ipynb
"$bin" check broken.ipynb >out.txt 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q 'broken.ipynb: not a notebook' err.txt || {
    echo "FAIL: a broken notebook: exit $rc"; cat err.txt; fail=1; }

# Notebooks that cannot be read back exactly as Jupyter reads them (a key
# held twice, an escaped NUL, a source that is not text): every mode exits
# 2 with the message golden in NAME.expected (file and cell named), and
# none writes the file or prints a patch.
for f in "$here"/notebooks/unreadable/*.ipynb; do
    name=$(basename "$f")
    cp "$f" "$name"
    for mode in check fix diff noqa; do
        case $mode in
            check) "$bin" check --no-cache "$name" >out.txt 2>err.txt ;;
            fix) "$bin" check --no-cache --fix --unsafe-fixes "$name" >out.txt 2>err.txt ;;
            diff) "$bin" check --no-cache --diff --unsafe-fixes "$name" >out.txt 2>err.txt ;;
            noqa) "$bin" check --no-cache --add-noqa "$name" >out.txt 2>err.txt ;;
        esac
        rc=$?
        [ $rc -eq 2 ] || { echo "FAIL: $name ($mode): exit $rc, not 2"; fail=1; }
        cmp -s "$f" "$name" || { echo "FAIL: $name ($mode) was written"; fail=1; cp "$f" "$name"; }
        if [ "$mode" = diff ] && [ -s out.txt ]; then
            echo "FAIL: $name: --diff printed a patch"; fail=1
        fi
        grep '^alloclint: error' err.txt >msg.txt
        if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
            cp msg.txt "$f.expected"
        elif ! cmp -s msg.txt "$f.expected"; then
            echo "FAIL: $name ($mode): the message differs:"; diff -u "$f.expected" msg.txt; fail=1
        fi
    done
done

[ $fail -eq 0 ] && echo "notebook: ok"
exit $fail
