#!/bin/sh
# Builds alloclint three times - a normal build, one with AddressSanitizer
# and UBSan, and the release build with its wheel - and runs every test of
# each. Exits non-zero if any test fails.
set -eu
cd "$(dirname "$0")/.."
sh scripts/setup.sh
jobs=$(nproc 2>/dev/null || echo 2)

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$jobs"
ctest --test-dir build --output-on-failure -j "$jobs"

cmake -S . -B build-asan -DALLOCLINT_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug \
      -DALLOCLINT_GRAMMAR_DIR="$PWD/build/grammars"
cmake --build build-asan -j "$jobs"
# use_tls=0: gcc 12's LeakSanitizer misreads the dynamic TLS of a library
# loaded with dlopen (libclang) on Debian 12's glibc, and its tracer
# crashes ("Tracer caught signal 11", a DTLS range starting near 0).
# Thread-local storage is only a source of roots for the leak check, so
# not scanning it can add leak reports, never hide one. print_suppressions=0:
# the banner of LeakSanitizer's own default suppressions (glibc's TLS
# blocks) would otherwise land in the stderr that tests compare.
ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=use_tls=0:print_suppressions=0 \
    UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j "$jobs"

# The release binary (glibc 2.27+, only the C library shared), its wheel
# and source archive, the hooks that install it, and its findings against
# the development build's.
cmake -S . -B build-release -DALLOCLINT_RELEASE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DALLOCLINT_GRAMMAR_DIR="$PWD/build/grammars" -DALLOCLINT_REFERENCE_BUILD="$PWD/build"
cmake --build build-release -j "$jobs"
ctest --test-dir build-release --output-on-failure -j "$jobs"
