#!/bin/sh
# Measured cost from profiler traces, end to end, on the traces recorded on
# an H200 from tests/profile/project (bench/results/profile_evidence.md):
#  - check --profile: text, JSON (the cost fields exactly), --statistics,
#    --sort file, costliest first, the profile's notes on stderr;
#  - hot: text and JSON (the row fields exactly), line and function
#    attribution, a CUDA-graph replay's share;
#  - bad input: a missing, truncated, corrupt, misnamed or non-trace file
#    stops the run with exit 2, naming the file (and the offset), and
#    writes no output file; a trace without Python frames, and one whose
#    frames name no checked file, are said so;
#  - profile: CMD run under the companion on Debian's CPU torch, its calls
#    put on their lines by the labels alone (skipped without that torch).
# Goldens: tests/profile/expected/ (UPDATE_GOLDEN=1 rewrites them).
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
say() { echo "FAIL: $*" >&2; fail=1; }
traces=$here/traces
expected=$here/expected

golden() { # name, file
    if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
        cp "$2" "$expected/$1"
    elif ! cmp -s "$2" "$expected/$1"; then
        say "$1 differs:"
        diff -u "$expected/$1" "$2" >&2
    fi
}

cd "$here/project" || exit 2
run() { # name, expected exit, args...
    run_name=$1 run_want=$2
    shift 2
    "$bin" "$@" >"$work/$run_name.out" 2>"$work/$run_name.err"
    rc=$?
    [ $rc -eq "$run_want" ] || { say "$run_name: exit $rc, not $run_want"; cat "$work/$run_name.err" >&2; }
}

run check_text 1 check --no-cache --profile "$traces/plain_decode.json.gz" \
    --profile "$traces/plain_loss.json.gz" --profile "$traces/plain_triton.json.gz" \
    --profile "$traces/plain_graph.json.gz" .
golden check.text "$work/check_text.out"
golden check.stderr "$work/check_text.err"
run check_json 1 check --no-cache --output-format json --profile "$traces/plain_decode.json.gz" \
    --profile "$traces/plain_triton.json.gz" .
golden check.json "$work/check_json.out"
run statistics 1 check --no-cache --statistics --profile "$traces/labelled_decode.pt.trace.json.gz" .
golden statistics.text "$work/statistics.out"
# --sort file: the order of a check without a profile.
run by_file 1 check --no-cache --output-format concise --sort file \
    --profile "$traces/plain_decode.json.gz" .
run no_profile 1 check --no-cache --output-format concise .
cmp -s "$work/by_file.out" "$work/no_profile.out" || say "--sort file is not the file order"
run by_cost 1 check --no-cache --output-format concise --profile "$traces/plain_decode.json.gz" .
cmp -s "$work/by_cost.out" "$work/no_profile.out" && say "with a profile, findings are not sorted by cost"

run hot_text 0 hot --top 6 "$traces/plain_loss.json.gz" "$traces/plain_decode.json.gz" .
golden hot.text "$work/hot_text.out"
run hot_json 0 hot --output-format json --top 0 "$traces/labelled_loss.pt.trace.json.gz" .
golden hot_labelled.json "$work/hot_json.out"
run hot_graph 0 hot --top 3 "$traces/labelled_graph.pt.trace.json.gz"
golden hot_graph.stderr "$work/hot_graph.err"

# The JSON fields, exactly as documented.
/usr/bin/env python3 - "$work/check_json.out" "$work/hot_json.out" <<'EOF' || say "JSON fields"
import json, sys
check, hot = (json.load(open(p)) for p in sys.argv[1:3])
costs = [f["cost"] for f in check]
assert all(c is None or set(c) == {"calls", "gpu_us", "host_us", "removable_gpu_us", "share",
                                   "attribution"} for c in costs), costs
assert sum(c is not None for c in costs) >= 4
gpu = [c["gpu_us"] if c else -1 for c in costs]
assert gpu == sorted(gpu, reverse=True), gpu
assert all(set(r) == {"filename", "line", "function", "op", "calls", "gpu_us", "host_us", "share",
                      "attribution", "finding", "reason"} for r in hot)
assert all((r["finding"] is None) != (r["reason"] is None) for r in hot)
assert [r["gpu_us"] for r in hot] == sorted((r["gpu_us"] for r in hot), reverse=True)
# The companion's labels split the loop's two subscript assignments.
assert {(r["line"], r["attribution"]) for r in hot if r["op"] in ("aten::index_put_", "aten::copy_")} >= {(21, "line"), (23, "line")}
EOF

# Bad input: exit 2, the file (and where) named, no output file written.
head -c 30000 "$traces/plain_loss.json.gz" >"$work/cut.json.gz"
cp "$traces/plain_loss.json.gz" "$work/corrupt.json.gz"
printf 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX' | dd of="$work/corrupt.json.gz" bs=1 seek=2000 conv=notrunc 2>/dev/null
gzip -dc "$traces/plain_triton.json.gz" >"$work/misnamed.json.gz"
printf '{"other": []}' >"$work/other.json"
for case in "missing:$work/nowhere.json:nowhere.json: No such file" \
            "cut:$work/cut.json.gz:of the decompressed data: the gzip data ends early" \
            "corrupt:$work/corrupt.json.gz:corrupt gzip data" \
            "misnamed:$work/misnamed.json.gz:at byte 0: named .gz, but not gzip data" \
            "other:$work/other.json:not a Chrome trace: no traceEvents"; do
    bad=${case%%:*}
    rest=${case#*:}
    trace=${rest%%:*}
    what=${rest#*:}
    run "bad_$bad" 2 check --no-cache -o "$work/report.txt" --profile "$trace" .
    grep -q "$what" "$work/bad_$bad.err" || { say "bad_$bad: no \`$what\`"; cat "$work/bad_$bad.err" >&2; }
    grep -q "$(basename "$trace")" "$work/bad_$bad.err" || say "bad_$bad: the file is not named"
    [ -e "$work/report.txt" ] && { say "bad_$bad: the output file was written"; rm -f "$work/report.txt"; }
    run "hot_$bad" 2 hot "$trace" .
done
grep -q "at byte [0-9]" "$work/bad_cut.err" || say "bad_cut: no offset"
printf '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::zeros", "pid": 1, "tid": 1, "ts": 1, "dur": 2}]}' \
    >"$work/frameless.json"
run frameless 1 check --no-cache --profile "$work/frameless.json" .
grep -q "holds no Python frames: record it with .*with_stack=True" "$work/frameless.err" ||
    say "frameless: not said"
run elsewhere 1 check --no-cache --profile "$traces/plain_decode.json.gz" "$here/cpu"
grep -q "none of the traces' [0-9]* Python frames is in a checked file" "$work/elsewhere.err" ||
    say "elsewhere: not said"
run hot_usage 2 hot .
grep -q "hot needs a trace" "$work/hot_usage.err" || say "hot_usage"
run profile_usage 2 profile .
grep -q "needs a command after" "$work/profile_usage.err" || say "profile_usage"

# profile, on the CPU: Debian's torch writes the legacy layout, with no
# Python frames; the labels alone place the calls.
if /usr/bin/python3 -c 'import torch' 2>/dev/null; then
    cd "$here/cpu" || exit 2
    run profile 1 profile -o "$work/cpu.json" --output-format json --no-cache . -- /usr/bin/python3 batch.py
    [ -s "$work/cpu.json" ] || say "profile wrote no trace"
    /usr/bin/env python3 - "$work/profile.out" <<'EOF' || say "profile: costs"
import json, sys
found = {(f["code"], f["location"]["row"]): f["cost"] for f in json.load(open(sys.argv[1]))}
for key in (("AL101", 9), ("AL201", 11)):
    c = found[key]
    assert c and c["calls"] == 3 and c["attribution"] == "line" and c["host_us"] > 0, (key, c)
EOF
    run profile_notrace 2 profile -o "$work/none.json" . -- /usr/bin/python3 -c 'import os; os._exit(0)'
    grep -q "wrote no trace" "$work/profile_notrace.err" || say "profile_notrace"
    run profile_hot 0 hot --output-format json "$work/cpu.json" .
    /usr/bin/env python3 -c 'import json,sys; rows=json.load(open(sys.argv[1])); assert {(r["line"], r["op"]) for r in rows} >= {(9, "aten::zeros"), (11, "aten::cat"), (12, "aten::ones")}, rows' \
        "$work/profile_hot.out" || say "profile: hot rows"
else
    echo "profile: /usr/bin/python3 has no torch; the CPU run is skipped" >&2
fi
[ $fail -eq 0 ] && echo "profile: ok"
exit $fail
