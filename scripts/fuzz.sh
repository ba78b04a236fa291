#!/bin/sh
# Runs every libFuzzer target for SECONDS each (default 60), two at a time
# (or $FUZZ_JOBS), and prints per target the executions, coverage reached
# and crashes. Builds build-fuzz/ with clang-14 (libFuzzer, ASan, UBSan).
# New inputs go to build-fuzz/corpus/<target>/, crashes to
# build-fuzz/crashes/; the seeds under tests/fuzz/corpus/ are read, never
# written. Exits 1 when any target crashed. FUZZ_TARGETS="python fix" runs
# only those.
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-60}
case $seconds in '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2 ;; esac
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
targets=${FUZZ_TARGETS:-"python fix noqa config compdb patch notebook trace"}
out=build-fuzz

# libFuzzer comes with clang; install it as setup.sh installs the rest.
for p in clang-14 libclang-rt-14-dev; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="${missing:-} $p"
done
if [ -n "${missing:-}" ]; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi

grammars=""
[ -f build/grammars/tree-sitter-python/src/parser.c ] && grammars="-DALLOCLINT_GRAMMAR_DIR=$PWD/build/grammars"
CC=${CC:-clang-14} cmake -S . -B "$out" -DALLOCLINT_FUZZ=ON -DALLOCLINT_WITH_LIBCLANG=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo $grammars >/dev/null
for t in $targets; do
    cmake --build "$out" -j "$jobs" --target "fuzz_$t" >/dev/null
done
mkdir -p "$out/logs" "$out/crashes"
# A crash counts for the run that found it: an earlier run's go (keep
# those worth keeping in tests/fuzz/corpus/<target>/crash_*).
for t in $targets; do
    rm -f "$out/crashes/$t-"*
done

run_target() {
    t=$1
    mkdir -p "$out/corpus/$t"
    seeds="tests/fuzz/corpus/$t"
    dict=""
    case $t in
        python | fix | noqa)
            seeds="$seeds tests/fuzz/corpus/python tests/rules examples"
            dict="-dict=tests/fuzz/python.dict" ;;
        trace) dict="-dict=tests/fuzz/json.dict" ;;
    esac
    # shellcheck disable=SC2086
    "$out/tests/fuzz/fuzz_$t" "$out/corpus/$t" $seeds $dict -max_total_time="$seconds" -timeout=20 \
        -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 \
        -artifact_prefix="$out/crashes/$t-" >"$out/logs/$t.log" 2>&1
}

pids=""
running=0
for t in $targets; do
    run_target "$t" &
    pids="$pids $!"
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n 2>/dev/null || wait
        running=$((running - 1))
    fi
done
wait

status=0
printf '%-8s %10s %8s %8s %8s %8s  %s\n' target execs exec/s cov ft corpus crashes
for t in $targets; do
    log="$out/logs/$t.log"
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
    cov=$(printf '%s\n' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
    ft=$(printf '%s\n' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
    corp=$(printf '%s\n' "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
    crashes=$(find "$out/crashes" -name "$t-*" -type f | wc -l)
    [ "$crashes" -gt 0 ] && status=1
    printf '%-8s %10s %8s %8s %8s %8s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" \
        "${ft:-?}" "${corp:-?}" "$crashes"
done
exit $status
