#!/bin/sh
# Golden test of one fixture: tests/rules/<CODE>/<case>.py
#
# Checks, in a scratch copy of the fixture:
#  1. every `# expect: <CODE> <tier>` annotation (tier: safe, unsafe, or nofix
#     for a finding without an applicable fix) is reported on its line with
#     that tier, every `# expect: none` line is not, and nothing else is;
#  2. the concise findings equal <case>.py.expected byte for byte;
#  3. `--fix` turns the file into <case>.py.fixed byte for byte, and a
#     second `--fix` changes nothing;
#  4. `--diff` output applies with `git apply` and with `patch -p1`, giving
#     the same bytes as <case>.py.fixed;
#  5. with `--unsafe-fixes`, the result equals <case>.py.unsafe-fixed when
#     that file exists.
# UPDATE_GOLDEN=1 rewrites 2, 3 and 5 from the current output (review the
# diff before committing).
set -u
alloclint=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
fixture=$2
code=$(basename "$(dirname "$fixture")")
name=$(basename "$fixture")
dir=$(cd "$(dirname "$fixture")" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
say() { echo "golden $code/$name: $*" >&2; fail=1; }

# The fixture is alone in its folder, which is its project: copies made
# below stay outside it, where the repo index cannot take them for code
# of the project (AL203 reads every file naming an attribute).
mkdir -p "$work/src"
cp "$fixture" "$work/src/$name"
cd "$work/src" || exit 2
# A fixture may choose its rules: `# golden-args: --select AL101,AL900`.
args=$(sed -n 's/^\(#\|\/\/\) golden-args: //p' "$name" | head -n 1)
[ -n "$args" ] || args="--select $code"

"$alloclint" check $args --output-format concise -q --no-respect-gitignore "$name" >findings.txt 2>stderr.txt
rc=$?
if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
    say "exit code $rc"; cat stderr.txt >&2
fi

# 1. annotations
awk -f "$here/annotations.awk" findings.txt "$name" >annotations.txt ||
    { say "annotations disagree:"; cat annotations.txt >&2; }

# 2. exact findings
if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
    cp findings.txt "$dir/$name.expected"
elif ! cmp -s findings.txt "$dir/$name.expected"; then
    say "findings differ from $name.expected:"
    diff -u "$dir/$name.expected" findings.txt >&2
fi

# 4. the diff applies (before --fix touches the file)
"$alloclint" check $args --diff -q --no-respect-gitignore "$name" >patch.diff 2>diff-stderr.txt
drc=$?
if [ $drc -ne 0 ] && [ $drc -ne 1 ]; then say "--diff exit code $drc"; fi
mkdir -p ../g ../p
cp "$name" ../g/ && cp "$name" ../p/
if [ -s patch.diff ]; then
    (cd ../g && git apply ../src/patch.diff) 2>git-apply.txt || { say "git apply failed:"; cat git-apply.txt >&2; }
    (cd ../p && patch -p1 -s <../src/patch.diff) >patch.txt 2>&1 || { say "patch -p1 failed:"; cat patch.txt >&2; }
fi

# 3. --fix, twice
cp "$name" ../orig.py
"$alloclint" check $args --fix -q --no-respect-gitignore "$name" >/dev/null 2>fix-stderr.txt
frc=$?
if [ $frc -ne 0 ] && [ $frc -ne 1 ]; then say "--fix exit code $frc"; cat fix-stderr.txt >&2; fi
if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
    cp "$name" "$dir/$name.fixed"
elif ! cmp -s "$name" "$dir/$name.fixed"; then
    say "fixed output differs from $name.fixed:"
    diff -u "$dir/$name.fixed" "$name" >&2
fi
cp "$name" ../once.py
"$alloclint" check $args --fix -q --no-respect-gitignore "$name" >/dev/null 2>>fix-stderr.txt
cmp -s "$name" ../once.py || say "a second --fix changed the file again"
if [ -s patch.diff ]; then
    cmp -s ../g/"$name" "$name" || say "git-applied diff differs from --fix output"
    cmp -s ../p/"$name" "$name" || say "patch -p1 result differs from --fix output"
else
    cmp -s ../orig.py "$name" || say "--diff printed nothing but --fix changed the file"
fi

# 5. unsafe fixes
if [ -f "$dir/$name.unsafe-fixed" ] || [ "${UPDATE_GOLDEN:-}" = 1 ]; then
    cp ../orig.py "$name"
    "$alloclint" check $args --fix --unsafe-fixes -q --no-respect-gitignore "$name" >/dev/null 2>>fix-stderr.txt
    if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
        if ! cmp -s "$name" "$dir/$name.fixed"; then
            cp "$name" "$dir/$name.unsafe-fixed"
        fi
    elif ! cmp -s "$name" "$dir/$name.unsafe-fixed"; then
        say "unsafe-fixed output differs from $name.unsafe-fixed:"
        diff -u "$dir/$name.unsafe-fixed" "$name" >&2
    fi
fi

# Sanitizer builds: LeakSanitizer keeps a non-zero exit status (1 for
# findings), so a leak shows only in stderr.
for log in stderr.txt diff-stderr.txt fix-stderr.txt; do
    if [ -f "$log" ] && grep -q "Sanitizer\|runtime error:" "$log"; then
        say "sanitizer report in $log:"
        cat "$log" >&2
    fi
done

exit $fail
