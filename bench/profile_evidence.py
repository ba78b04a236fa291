#!/usr/bin/env python3
"""What `alloclint hot` attributes to each measured site of the profiler
fixtures (tests/profile/project), against the same site run alone many
times on the same GPU (tests/profile/lone.py).

Usage: bench/profile_evidence.py ALLOCLINT LONE.json TRACE_DIR > table.md

TRACE_DIR holds plain_<w>.json.gz (torch.profiler, with_stack) and
labelled_<w>.pt.trace.json.gz (`alloclint profile`) for each workload w.
Per call: a trace's attributed GPU time over its calls, against the lone
run's mean; within 10 % is the bar (sub-microsecond fills are near what one
launch's timing resolves).
"""
import json
import os
import subprocess
import sys

# lone.py's site -> (workload, file, line, the kind of call alloclint reports)
SITES = {
    "decode positions zeros": ("decode", "toyengine/decode.py", 16, "zeros"),
    "decode cu_seqlens cat": ("decode", "toyengine/decode.py", 19, "cat"),
    "decode slots zeros().to()": ("decode", "toyengine/decode.py", 29, "to"),
    "decode out zeros_like": ("decode", "toyengine/decode.py", 36, "zeros_like"),
    "loss grad_hidden zeros_like": ("loss", "toyengine/loss.py", 10, "zeros_like"),
    "loss grad_weight zeros_like": ("loss", "toyengine/loss.py", 12, "zeros_like"),
    "loss logits.float()": ("loss", "toyengine/loss.py", 17, "float"),
    "loss logits.float() after its matmul": ("loss", "toyengine/loss.py", 17, "float"),
    "triton out zeros_like": ("triton", "toyengine/kernels.py", 19, "zeros_like"),
    "graph scratch zeros_like": ("graph", "toyengine/graphs.py", 25, "zeros_like"),
}


def hot(alloclint, trace, tree):
    out = subprocess.run([alloclint, "hot", "--output-format", "json", "--top", "0", trace, tree],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    alloclint, lone_path, traces = sys.argv[1:4]
    tree = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "profile",
                        "project")
    lone = json.load(open(lone_path))
    rows = {}
    for kind, name in (("plain", "plain_%s.json.gz"), ("labelled", "labelled_%s.pt.trace.json.gz")):
        for w in ("decode", "loss", "triton", "graph"):
            path = os.path.join(traces, name % w)
            if os.path.exists(path):
                rows[(kind, w)] = hot(alloclint, path, tree)
    print("| site | place | alone (µs/call) | trace | calls | attributed (µs/call) | ratio | attribution |")
    print("|---|---|---:|---|---:|---:|---:|---|")
    worst = 0.0
    for site, (w, path, line, call) in SITES.items():
        alone = lone[site]["gpu_us_per_call"]
        for kind in ("plain", "labelled"):
            found = [r for r in rows.get((kind, w), [])
                     if r["filename"].endswith(path) and r["line"] == line and
                     r["attribution"] == "line" and
                     (r["op"] or "").replace("aten::", "") in (call, "to", "_to_copy")]
            if not found:
                print("| %s | %s:%d | %.3f | %s | — | not found | — | — |" % (site, path, line, alone, kind))
                continue
            r = max(found, key=lambda r: r["gpu_us"])
            per = r["gpu_us"] / r["calls"]
            ratio = per / alone
            if site != "loss logits.float()":
                worst = max(worst, abs(ratio - 1))
            print("| %s | %s:%d | %.3f | %s | %d | %.3f | %.3f | %s |" %
                  (site, path, line, alone, kind, r["calls"], per, ratio, r["attribution"]))
    print()
    print("Largest deviation from the lone runs (the cold-input `.float()` row aside): %.1f %%" %
          (100 * worst))


if __name__ == "__main__":
    main()
