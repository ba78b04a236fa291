#!/bin/sh
# The wheel, as a user gets it: built from the release binary with
# python3-build through our backend, checked (RECORD hashes with
# python3-wheel, the platform tag against the binary's own needs read by
# objdump), installed with pip --no-index into a fresh virtual environment
# and with python3-installer into a scratch prefix. The installed alloclint
# and `python -m alloclint` run, report VERSION, and check the examples
# exactly as the development build does.
# Usage: wheel.sh RELEASE_BUILD REFERENCE_BINARY SOURCE_DIR WHEEL_DIR
set -u
release=$(cd "$1" && pwd)
reference=$2
src=$(cd "$3" && pwd)
wheels=$4
py=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
say() { echo "wheel: $*" >&2; fail=1; }
version=$(cat "$src/VERSION")

rm -rf "$wheels" && mkdir -p "$wheels"
# From outside the source tree: `python3 -m build` run in it would import
# the build folders as the package `build`.
(cd "$work" && ALLOCLINT_BUILD_DIR="$release" pyproject-build --wheel --outdir "$wheels" "$src" >build.log 2>&1) ||
    { say "pyproject-build failed:"; cat "$work/build.log" >&2; exit 1; }
wheel=$(ls "$wheels"/alloclint-*.whl)
name=$(basename "$wheel")

# The tag states the floor: the highest GLIBC_2.N the binary needs, and
# nothing but the C library's own shared objects.
needed=$(patchelf --print-needed "$release/alloclint" | sort | tr '\n' ' ')
for lib in $needed; do
    case $lib in libc.so.6|libm.so.6|libpthread.so.0|libdl.so.2|librt.so.1) ;;
        *) say "the release binary needs $lib (only the C library's own are allowed)" ;;
    esac
done
floor=$(objdump -T "$release/alloclint" | grep -o 'GLIBC_2\.[0-9]*' | sort -t. -k2 -n | tail -n 1 | cut -d. -f2)
[ "$name" = "alloclint-$version-py3-none-manylinux_2_${floor}_x86_64.whl" ] ||
    say "wheel $name does not state the floor glibc 2.$floor and version $version"
size=$(stat -c %s "$wheel")
[ "$size" -lt 10000000 ] || say "the wheel is $size bytes (the target is under 10 MB)"
echo "wheel: $name, $size bytes; the binary needs $needed(glibc 2.$floor)"

(cd "$work" && $py -m wheel unpack -d unpacked "$wheel" >unpack.log 2>&1) ||
    { say "the wheel does not unpack with its RECORD's hashes:"; cat "$work/unpack.log" >&2; }
meta="$work/unpacked/alloclint-$version/alloclint-$version.dist-info/METADATA"
for field in "Name: alloclint" "Version: $version" "License: Apache-2.0" "Requires-Python: >=3.7" \
             "Description-Content-Type: text/markdown" "Project-URL: Homepage," "Summary: "; do
    grep -q "^$field" "$meta" 2>/dev/null || say "METADATA lacks '$field'"
done
grep -q "^## Installing" "$meta" 2>/dev/null || say "METADATA does not hold the README"

# pip, into a fresh virtual environment, no index.
$py -m venv "$work/venv" || { say "python3 -m venv failed"; exit 1; }
"$work/venv/bin/pip" install -q --no-index "$wheel" >"$work/pip.log" 2>&1 ||
    { say "pip install failed:"; cat "$work/pip.log" >&2; exit 1; }
bin="$work/venv/bin/alloclint"
[ "$("$bin" --version)" = "alloclint $version" ] || say "installed --version: $("$bin" --version)"
[ "$("$work/venv/bin/python" -m alloclint --version)" = "alloclint $version" ] || say "python -m alloclint --version failed"
"$work/venv/bin/pip" show alloclint | grep -x "Version: $version" >/dev/null || say "pip show does not say $version"
[ -f "$work/venv/share/man/man1/alloclint.1" ] || say "no man page in the environment"
[ -f "$work/venv/share/doc/alloclint/rules/AL101.md" ] || say "no rule pages in the environment"
"$bin" rule AL101 | grep "^# AL101" >/dev/null || say "alloclint rule AL101 failed"
# Rule pages deleted from the installation: alloclint still lints and
# still prints a rule's page (the pages are built into the binary).
rm -rf "$work/venv/share/doc/alloclint"
"$bin" rule AL101 | grep "^# AL101" >/dev/null || say "alloclint rule AL101 failed without the installed pages"
(cd "$src" && "$bin" check --no-cache -q --output-format concise examples/sampler.py >"$work/nopages.txt" 2>&1)
grep -q "AL101" "$work/nopages.txt" || say "check without the installed rule pages found nothing"
# python -m passes arguments and the exit status through.
(cd "$work" && "$work/venv/bin/python" -m alloclint check -q --no-cache "$src/examples" >/dev/null 2>&1)
[ $? -eq 1 ] || say "python -m alloclint check on the examples did not exit 1 (findings)"

# Same findings and patches as the development build, byte for byte.
for args in "--output-format json" "--diff" "--diff --unsafe-fixes" "--select ALL --output-format concise"; do
    # shellcheck disable=SC2086
    (cd "$src" && "$bin" check --no-cache --exit-zero $args examples) >"$work/got" 2>&1
    # shellcheck disable=SC2086
    (cd "$src" && "$reference" check --no-cache --exit-zero $args examples) >"$work/want" 2>&1
    cmp -s "$work/got" "$work/want" || { say "the wheel's alloclint differs from the development build with $args:"; diff "$work/want" "$work/got" | head -n 20 >&2; }
done

# python3-installer, into a scratch root (Debian's scheme may add local/
# under the prefix): the script keeps its mode, the data its place.
$py -m installer --destdir "$work/dest" "$wheel" >"$work/installer.log" 2>&1 ||
    { say "python3 -m installer failed:"; cat "$work/installer.log" >&2; }
ibin=$(find "$work/dest" -path '*/bin/alloclint' -type f | head -n 1)
[ -n "$ibin" ] && [ -x "$ibin" ] || say "python3-installer did not install an executable alloclint"
[ -n "$ibin" ] && [ -f "$(dirname "$ibin")/../share/man/man1/alloclint.1" ] || say "python3-installer did not put the man page beside bin/"
exit $fail
