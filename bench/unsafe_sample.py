#!/usr/bin/env python3
"""Draws a reproducible random sample of unsafe fixes to read by hand.

Usage: bench/unsafe_sample.py SEED JSON:TREE... > sample.txt

Each JSON is `alloclint check --select ALL --output-format json` of TREE
(a checkout made by bench/checkout.py, inside a git work tree). Draws 20
AL101, 20 AL401 and 20 of the other rules among the findings whose fix is
unsafe, and prints each with its message, its fix's edits and the lines
around it, for a reader to judge against the code. Nothing of the trees
is written anywhere else: the verdicts go to bench/results/ by hand,
naming file and line only.
"""
import json
import os
import random
import sys


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    rng = random.Random(int(sys.argv[1]))
    pool = {"AL101": [], "AL401": [], "rest": []}
    for arg in sys.argv[2:]:
        path, tree = arg.split(":", 1)
        for f in json.load(open(path)):
            fix = f.get("fix")
            if not fix or fix.get("applicability") != "unsafe":
                continue
            key = f["code"] if f["code"] in pool else "rest"
            pool[key].append((tree, f))
    for key in ("AL101", "AL401", "rest"):
        items = sorted(pool[key], key=lambda tf: (tf[1]["filename"], tf[1]["location"]["row"],
                                                  tf[1]["code"]))
        pick = rng.sample(items, min(20, len(items)))
        print("=" * 30, key, "(%d unsafe in all)" % len(items))
        for n, (tree, f) in enumerate(pick, 1):
            name = f["filename"]
            print("\n#%s-%d %s %s:%d" % (key, n, f["code"], name, f["location"]["row"]))
            print("  " + f["message"])
            for e in f["fix"]["edits"]:
                print("  edit %d:%d-%d:%d -> %r" % (e["location"]["row"], e["location"]["column"],
                                                    e["end_location"]["row"],
                                                    e["end_location"]["column"], e["content"]))
            full = os.path.join(os.path.dirname(tree), name)
            try:
                lines = open(full, encoding="utf-8").read().split("\n")
            except OSError:
                continue
            row = f["location"]["row"]
            for i in range(max(1, row - 12), min(len(lines), row + 12) + 1):
                print("  %5d%s %s" % (i, ">" if i == row else " ", lines[i - 1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
