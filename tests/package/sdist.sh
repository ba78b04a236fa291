#!/bin/sh
# The source archive, for platforms without a wheel: built with
# python3-build through our backend, it holds the tracked sources and the
# pinned grammar sources (so building it needs no npm), and `pip install`
# of it builds alloclint with CMake against the machine's libraries into a
# fresh virtual environment, where it runs and reports VERSION.
# Usage: sdist.sh SOURCE_DIR GRAMMAR_DIR DIST_DIR
set -u
src=$(cd "$1" && pwd)
grammars=$(cd "$2" && pwd)
dist=$3
py=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
say() { echo "sdist: $*" >&2; fail=1; }
version=$(cat "$src/VERSION")

mkdir -p "$dist"
rm -f "$dist"/alloclint-*.tar.gz
(cd "$work" && ALLOCLINT_GRAMMAR_DIR="$grammars" pyproject-build --sdist --outdir "$dist" "$src" >build.log 2>&1) ||
    { say "pyproject-build --sdist failed:"; cat "$work/build.log" >&2; exit 1; }
archive="$dist/alloclint-$version.tar.gz"
[ -f "$archive" ] || { say "no $archive"; exit 1; }
tar -tzf "$archive" >"$work/list"
for f in PKG-INFO VERSION CMakeLists.txt pyproject.toml python/alloclint_build.py src/cmd/main.c \
         grammars/grammars.lock grammars/fetched/tree-sitter-python/src/parser.c \
         grammars/fetched/tree-sitter/lib/src/lib.c; do
    grep -qx "alloclint-$version/$f" "$work/list" || say "the archive lacks $f"
done
grep -q "^alloclint-$version/build" "$work/list" && say "the archive holds a build folder"
echo "sdist: $(basename "$archive"), $(stat -c %s "$archive") bytes, $(wc -l <"$work/list") files"

# pip builds it (CMake) in a fresh environment, with no index and no npm.
$py -m venv "$work/venv" || { say "python3 -m venv failed"; exit 1; }
PATH=$(echo "$PATH" | tr ':' '\n' | grep -v node | paste -sd:) \
    "$work/venv/bin/pip" install --no-index "$archive" >"$work/pip.log" 2>&1 ||
    { say "pip install of the source archive failed:"; tail -n 30 "$work/pip.log" >&2; exit 1; }
[ "$("$work/venv/bin/alloclint" --version)" = "alloclint $version" ] || say "the built alloclint does not report $version"
[ "$("$work/venv/bin/python" -m alloclint --version)" = "alloclint $version" ] || say "python -m alloclint failed"
(cd "$src" && "$work/venv/bin/alloclint" check --no-cache -q examples >/dev/null 2>&1)
[ $? -eq 1 ] || say "the built alloclint found nothing in the examples"
ls "$work/venv/lib"/python3*/site-packages/alloclint-"$version".dist-info/WHEEL >/dev/null 2>&1 || say "no dist-info"
exit $fail
