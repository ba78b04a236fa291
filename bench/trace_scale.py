#!/usr/bin/env python3
"""Writes a large Kineto trace for measuring the trace reader: the events
of one of tests/profile/traces repeated, each copy shifted in time and
given fresh External ids, correlations and Python ids, until the JSON
reaches SIZE megabytes.

Usage: bench/trace_scale.py SOURCE.json[.gz] OUT.json SIZE_MB
"""
import gzip
import json
import sys


def main():
    src, out, size_mb = sys.argv[1], sys.argv[2], float(sys.argv[3])
    opener = gzip.open if src.endswith(".gz") else open
    with opener(src, "rt") as f:
        doc = json.load(f)
    events = [e for e in doc["traceEvents"] if e.get("ph") in ("X", "s", "f")]
    times = [e["ts"] for e in events if "ts" in e]
    span = max(times) - min(times) + 1000.0
    ids = [e.get("args", {}).get(k, 0) or 0 for e in events
           for k in ("External id", "correlation", "Python id") if isinstance(e.get("args"), dict)]
    stride = max([int(i) for i in ids if isinstance(i, (int, float))] + [0]) + 1
    limit = int(size_mb * 1e6)
    written = 0
    with open(out, "w") as f:
        head = '{"schemaVersion": 1, "traceName": "scale", "traceEvents": [\n'
        f.write(head)
        written += len(head)
        copy = 0
        first = True
        while written < limit:
            for e in events:
                e2 = dict(e)
                if "ts" in e2:
                    e2["ts"] = e["ts"] + copy * span
                if isinstance(e.get("args"), dict):
                    a = dict(e["args"])
                    for k in ("External id", "correlation", "Python id", "Python parent id"):
                        if isinstance(a.get(k), (int, float)):
                            a[k] = a[k] + copy * stride
                    e2["args"] = a
                if e2.get("ph") in ("s", "f") and isinstance(e2.get("id"), int):
                    e2["id"] = e2["id"] + copy * stride
                line = ("" if first else ",\n") + json.dumps(e2)
                first = False
                f.write(line)
                written += len(line)
            copy += 1
        f.write("\n]}\n")
    print("%s: %d copies of %d events, %.1f MB" % (out, copy, len(events), written / 1e6))


if __name__ == "__main__":
    main()
