"""On a whole tree: the report's safe fixes, applied together per file, give
what --diff writes for that file (files where --diff applied a fix found
only in text an earlier fix wrote are counted apart: no report shows those).

Usage: bench/report_agrees_tree.py ALLOCLINT TREE [--unsafe-fixes]
Prints the counts and each file that disagrees; exits 1 when one does.
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def to_offset(text, loc):
    lines = text.split("\n")
    start = sum(len(l.encode()) + 1 for l in lines[: loc["row"] - 1])
    line = lines[loc["row"] - 1] if loc["row"] <= len(lines) else ""
    return start + len(line[: loc["column"] - 1].encode())


def main():
    alloclint, tree = os.path.abspath(sys.argv[1]), sys.argv[2]
    extra = sys.argv[3:]
    tiers = ("safe", "unsafe") if "--unsafe-fixes" in extra else ("safe",)
    base = [alloclint, "check", "--select", "ALL", "--no-cache"] + extra
    report = subprocess.run(base + ["--output-format", "json", "."], cwd=tree,
                            capture_output=True, text=True)
    diff = subprocess.run(base + ["--diff", "--show-fixes", "."], cwd=tree,
                          capture_output=True, text=True)
    chained = set()
    current = None
    for line in diff.stderr.splitlines():
        m = re.match(r"^- (.*):$", line)
        if m:
            current = m.group(1)
        elif current and "found after an earlier fix" in line:
            chained.add(current)
        m = re.match(r"^(.*?):\d+:\d+: .*\(fix withheld: ", line)
        if m:
            chained.add(m.group(1))  # --diff left it out: it would chain into an unsafe fix
    patches = {}
    for part in re.split(r"(?m)^(?=--- a/)", diff.stdout):
        m = re.match(r"--- a/(.*)\n\+\+\+ b/", part)
        if m:
            patches[m.group(1)] = part
    by_file = {}
    for f in json.loads(report.stdout):
        fix = f.get("fix")
        if fix and "(shown alone:" in fix["message"]:
            chained.add(f["filename"])  # withheld as overlapping: --fix applies it later
        if fix and fix["applicability"] in tiers:
            by_file.setdefault(f["filename"], []).append(f)
    agree, differ, skipped = 0, [], 0
    for path in sorted(set(by_file) | set(patches)):
        if path in chained:
            skipped += 1
            continue
        with open(os.path.join(tree, path), encoding="utf-8", newline="") as fh:
            src = fh.read()
        # Stable on position: insertions at one place keep the report's order.
        edits = sorted(((to_offset(src, e["location"]), to_offset(src, e["end_location"]),
                         e["content"]) for f in by_file.get(path, []) for e in f["fix"]["edits"]),
                       key=lambda e: (e[0], e[1]))
        data, out, at = src.encode(), bytearray(), 0
        for s, e, content in edits:
            out += data[at:s] + content.encode()
            at = max(at, e)
        out += data[at:]
        if path in patches:
            with tempfile.TemporaryDirectory() as work:
                target = os.path.join(work, "f")
                with open(target, "wb") as fh:
                    fh.write(data)
                subprocess.run(["patch", "-s", "-o", target + ".new", target],
                               input=patches[path].encode(), check=True, capture_output=True)
                after = open(target + ".new", "rb").read()
        else:
            after = data
        if bytes(out) == after:
            agree += 1
        else:
            differ.append(path)
    for p in differ:
        print("differs:", p)
    print(f"{tree}: {agree} files agree, {len(differ)} differ, {skipped} with chained or withheld "
          f"fixes not compared")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
