#!/bin/sh
# Makes a release of alloclint: run in a fresh clone, as root on Debian 12.
# Builds the development binary (the reference) and the release binary
# (cmake -DALLOCLINT_RELEASE=ON: only the C library shared, glibc 2.27+),
# runs the release tests (the wheel and the source archive installed as
# users install them, the pre-commit hooks, libclang, findings equal to the
# development build's), and writes into dist/:
#   alloclint-VERSION-py3-none-manylinux_2_N_x86_64.whl
#   alloclint-VERSION.tar.gz      (pip builds it with CMake)
#   SHA256SUMS
# Then `sh scripts/oldroot.sh` checks the wheel in a clean Debian 11 root.
set -eu
cd "$(dirname "$0")/.."
sh scripts/setup.sh
jobs=$(nproc 2>/dev/null || echo 2)

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$jobs" --target alloclint
cmake -S . -B build-release -DALLOCLINT_RELEASE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DALLOCLINT_GRAMMAR_DIR="$PWD/build/grammars" -DALLOCLINT_REFERENCE_BUILD="$PWD/build"
cmake --build build-release -j "$jobs"
ctest --test-dir build-release --output-on-failure -j "$jobs"

# The tests built the wheel and the source archive; these are the release.
rm -rf dist && mkdir dist
cp build-release/dist/wheel/alloclint-*.whl build-release/dist/alloclint-*.tar.gz dist/
(cd dist && sha256sum -- * >SHA256SUMS)
bin=build-release/alloclint
echo
echo "alloclint $(cat VERSION): release binary $(stat -c %s "$bin") bytes, needs:" \
     "$(patchelf --print-needed "$bin" | tr '\n' ' ')" \
     "(glibc $(objdump -T "$bin" | grep -o 'GLIBC_2\.[0-9]*' | sort -t. -k2 -n | tail -n 1 | cut -d_ -f2))"
for f in dist/*; do echo "  $f  $(stat -c %s "$f") bytes"; done
