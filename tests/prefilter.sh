#!/bin/sh
# The shortcuts change nothing: every rule, over the rule fixtures, the
# examples and a generated corpus, reports the same with the prefilter and
# partial parsing as with --no-prefilter (both without the cache), and
# the prefilter did skip work (so the comparison compares something).
#
# Usage: tests/prefilter.sh ALLOCLINT SOURCE_DIR
set -u
alloclint=${1:?usage: tests/prefilter.sh ALLOCLINT SOURCE_DIR}
src=${2:?usage: tests/prefilter.sh ALLOCLINT SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
python3 "$src/tests/tools/gen_corpus.py" "$work/corpus" 300 7 || exit 2
cd "$src" || exit 2
for set in ALL AL1,AL2,AL5,AL9 AL401 AL900; do
    for where in tests/rules tests/summaries examples "$work/corpus"; do
        "$alloclint" check --no-cache --select "$set" --output-format json \
            --no-respect-gitignore "$where" >"$work/fast.json" 2>"$work/fast.err"
        "$alloclint" check --no-cache --no-prefilter --select "$set" --output-format json \
            --no-respect-gitignore "$where" >"$work/slow.json" 2>"$work/slow.err"
        if ! cmp -s "$work/fast.json" "$work/slow.json" || ! cmp -s "$work/fast.err" "$work/slow.err"; then
            echo "prefilter: --select $set on $where differs from --no-prefilter:" >&2
            diff "$work/slow.json" "$work/fast.json" | head -20 >&2
            diff "$work/slow.err" "$work/fast.err" | head -10 >&2
            fail=1
        fi
    done
done
grep -q '"code"' "$work/slow.json" 2>/dev/null || true
n=$("$alloclint" check --no-cache --select ALL --output-format concise -q "$work/corpus" | wc -l)
[ "$n" -gt 50 ] || { echo "prefilter: the corpus gives only $n findings" >&2; fail=1; }
exit $fail
