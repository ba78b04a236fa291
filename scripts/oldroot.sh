#!/bin/sh
# The wheel on an older system: a clean Debian 11 root (glibc 2.31; made
# with debootstrap from Debian's archive: no compiler, none of alloclint's
# build dependencies, no libclang; python3-venv only, to pip install the
# wheel as a user would). Inside it: pip accepts the wheel's tag, the
# installed alloclint checks the examples with output byte-identical to the
# development build's on this machine, `python -m alloclint` works, the C++
# rules are skipped with one warning (no libclang there); and pip refuses
# the same wheel tagged for a newer glibc than the root has.
# Run as root on Debian 12, after scripts/release.sh (or with a wheel):
#   sh scripts/oldroot.sh [WHEEL] [REFERENCE_BINARY]
# The root is kept in /var/tmp/alloclint-oldroot (ALLOCLINT_OLDROOT) for the
# next run. Prints a report
# (Markdown) on stdout; exits 1 when a check fails.
set -eu
cd "$(dirname "$0")/.."
src=$(pwd)
wheel=${1:-$(ls dist/alloclint-*-manylinux_*.whl 2>/dev/null | head -n 1)}
reference=${2:-build/alloclint}
[ -f "$wheel" ] || { echo "oldroot: no wheel (run scripts/release.sh first, or name one)" >&2; exit 2; }
[ -x "$reference" ] || { echo "oldroot: no reference build at $reference" >&2; exit 2; }
wheel=$(realpath "$wheel")
reference=$(realpath "$reference")
[ "$(id -u)" -eq 0 ] || { echo "oldroot: debootstrap and chroot need root" >&2; exit 2; }
command -v debootstrap >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
# Outside the checkout: a root's files are no part of this project (and
# alloclint's own checks of it would read them).
root="${ALLOCLINT_OLDROOT:-/var/tmp/alloclint-oldroot}/bullseye"
mirror=${ALLOCLINT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
if [ ! -f "$root/.complete" ]; then
    rm -rf "$root"
    mkdir -p "$(dirname "$root")"
    echo "oldroot: debootstrap bullseye into $root (a few minutes)" >&2
    debootstrap --variant=minbase --include=python3-venv bullseye "$root" "$mirror" >"$root.log" 2>&1 ||
        { tail -n 20 "$root.log" >&2; exit 1; }
    touch "$root/.complete"
fi
fail=0
say() { echo "oldroot: $*" >&2; fail=1; }

work="$root/tmp/alloclint-oldroot"
rm -rf "$work" && mkdir -p "$work"
cp "$wheel" "$work/"
cp -R examples "$work/examples"
mkdir "$work/cxx"
cp tests/rules/AL102/extension.cu examples/sampler.py "$work/cxx/"
# The same wheel, tagged for glibc 2.36 (Debian 12): pip must refuse it here.
# (python3-wheel 0.38 has no `tags` command: unpack, change WHEEL's tag, pack.)
(cd "$work" && /usr/bin/python3 -m wheel unpack -d retag "$(basename "$wheel")" >/dev/null &&
    sed -i 's/^Tag: \(.*\)-manylinux_2_[0-9]*_x86_64$/Tag: \1-manylinux_2_36_x86_64/' retag/*/*.dist-info/WHEEL &&
    /usr/bin/python3 -m wheel pack -d . retag/* >/dev/null && rm -rf retag)
newer=$(ls "$work"/alloclint-*manylinux_2_36_x86_64.whl)

cat > "$work/inside.sh" <<SH
set -u
cd /tmp/alloclint-oldroot
ldd --version | head -n 1 >glibc.txt
for tool in cc gcc clang cmake make pkg-config; do command -v \$tool; done >tools.txt
dpkg-query -W -f '\${Package}\n' |
    grep -E '^(libgit2.*|libcjson.*|libxxhash-dev|libclang.*|llvm.*|libc6-dev|gcc|gcc-[0-9]+|g\+\+.*|cpp|cpp-[0-9]+|cmake|make|pkg-config)$' >builddeps.txt
python3 -m venv venv && venv/bin/pip --version >pip-version.txt
venv/bin/pip install --no-index $(basename "$newer") >newer.txt 2>&1; echo \$? >newer.rc
venv/bin/pip install --no-index $(basename "$wheel") >install.txt 2>&1; echo \$? >install.rc
venv/bin/alloclint version >version.txt 2>&1
venv/bin/python -m alloclint --version >pym.txt 2>&1
for args in "--output-format json" "--diff" "--diff --unsafe-fixes" "--select ALL --output-format concise"; do
    name=\$(echo "\$args" | tr -c 'a-z\n' '_')
    venv/bin/alloclint check --no-cache --exit-zero \$args examples >"out.\$name" 2>&1
done
venv/bin/alloclint check --no-cache cxx >text.out 2>text.err; echo \$? >text.rc
SH
unshare -m sh -c "mount -t proc proc '$root/proc' && chroot '$root' sh /tmp/alloclint-oldroot/inside.sh"

glibc=$(cat "$work/glibc.txt")
echo "## The wheel in a clean Debian 11 root"
echo
echo "- root: debootstrap --variant=minbase --include=python3-venv bullseye; $glibc"
echo "- wheel: $(basename "$wheel") ($(stat -c %s "$wheel") bytes)"
echo "- pip there: $(cat "$work/pip-version.txt")"
[ -s "$work/tools.txt" ] && say "the root has build tools: $(tr '\n' ' ' <"$work/tools.txt")"
[ -s "$work/builddeps.txt" ] && say "the root has build dependencies: $(tr '\n' ' ' <"$work/builddeps.txt")"
echo "- compilers, CMake, libgit2, cJSON, xxhash, libclang in the root: $( [ -s "$work/tools.txt" ] || [ -s "$work/builddeps.txt" ] && echo present || echo none)"
if [ "$(cat "$work/install.rc")" = 0 ]; then echo "- pip install of the wheel: installed"; else say "pip refused the wheel:"; cat "$work/install.txt" >&2; fi
if [ "$(cat "$work/newer.rc")" != 0 ] && grep -q "not a supported wheel on this platform" "$work/newer.txt"; then
    echo "- the same wheel tagged manylinux_2_36: refused by pip (\"$(grep -o 'is not a supported wheel on this platform' "$work/newer.txt")\")"
else
    say "pip did not refuse a wheel tagged for glibc 2.36:"; cat "$work/newer.txt" >&2
fi
echo "- \`alloclint version\`: $(tr '\n' ' ' <"$work/version.txt")"
echo "- \`python -m alloclint --version\`: $(cat "$work/pym.txt")"
# The reference runs outside this checkout: inside it, the build folders
# are ignored by its .gitignore and the walk would skip the examples.
ref=$(mktemp -d)
trap 'rm -rf "$ref"' EXIT
cp -R examples "$ref/examples"
same=0 total=0
for args in "--output-format json" "--diff" "--diff --unsafe-fixes" "--select ALL --output-format concise"; do
    name=$(echo "$args" | tr -c 'a-z\n' '_')
    # shellcheck disable=SC2086
    (cd "$ref" && "$reference" check --no-cache --exit-zero $args examples >"$work/ref.$name" 2>&1)
    total=$((total + 1))
    if cmp -s "$work/ref.$name" "$work/out.$name"; then same=$((same + 1));
    else say "output differs from the development build's with $args:"; diff "$work/ref.$name" "$work/out.$name" | head -n 20 >&2; fi
done
echo "- examples: $same of $total outputs byte-identical to the development build's on Debian 12 (json, diff, unsafe diff, all rules)"
[ "$(cat "$work/text.rc")" = 1 ] || say "check exited $(cat "$work/text.rc"), not 1 (findings)"
[ "$(wc -l <"$work/text.err")" = 1 ] && grep -q "C++/CUDA file not checked: libclang was not found" "$work/text.err" ||
    { say "stderr is not the one libclang warning:"; cat "$work/text.err" >&2; }
echo "- a CUDA file and a Python file, without libclang: exit $(cat "$work/text.rc"), stderr: \`$(cat "$work/text.err" | cut -c1-110)...\`"
[ "$fail" -eq 0 ] && echo "- result: all checks passed" || echo "- result: FAILED (see stderr)"
exit $fail
