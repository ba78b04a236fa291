"""The fixes a report shows are the ones --fix writes.

For each golden fixture: the JSON report's applicable fixes (safe, and with
--unsafe-fixes unsafe too), applied together to the file, must give what
--fix gives, whenever --fix applied nothing a report could not show (a fix
found only in text an earlier fix wrote). Their edits must not overlap.
Usage: report_agrees.py ALLOCLINT RULES_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


def offsets(text):
    """Byte offset of (row, column in characters), 1-based."""
    lines = text.split("\n")
    starts, at = [], 0
    for line in lines:
        starts.append(at)
        at += len(line.encode()) + 1

    def to_offset(loc):
        line = lines[loc["row"] - 1] if loc["row"] <= len(lines) else ""
        return starts[loc["row"] - 1] + len(line[: loc["column"] - 1].encode())

    return to_offset


def run(alloclint, args, cwd):
    return subprocess.run([alloclint, "check", "--no-cache", "--no-respect-gitignore"] + args,
                          cwd=cwd, capture_output=True, text=True)


def check(alloclint, fixture, unsafe, failures):
    with open(fixture, encoding="utf-8", newline="") as f:
        src = f.read()
    m = re.search(r"^(?:#|//) golden-args: (.*)$", src, re.M)
    code = os.path.basename(os.path.dirname(fixture))
    args = m.group(1).split() if m else ["--select", code]
    extra = ["--unsafe-fixes"] if unsafe else []
    name = os.path.basename(fixture)
    with tempfile.TemporaryDirectory() as work:
        shutil.copy(fixture, os.path.join(work, name))
        report = run(alloclint, args + extra + ["--output-format", "json", name], work)
        if report.returncode not in (0, 1):
            failures.append(f"{fixture}: report exited {report.returncode}: {report.stderr}")
            return 0
        findings = json.loads(report.stdout)
        if any(f.get("fix") and "(shown alone:" in f["fix"]["message"] for f in findings):
            return 0  # a fix withheld as overlapping: --fix applies it in a later pass
        to_offset = offsets(src)
        wanted = ("safe", "unsafe") if unsafe else ("safe",)
        edits = []
        for f in findings:
            fix = f.get("fix")
            if f["filename"] != name or not fix or fix["applicability"] not in wanted:
                continue
            for e in fix["edits"]:
                edits.append((to_offset(e["location"]), to_offset(e["end_location"]),
                              e["content"], f"{f['code']} line {f['location']['row']}"))
        data = src.encode()
        edits.sort(key=lambda e: (e[0], e[1]))
        for a, b in zip(edits, edits[1:]):
            if b[0] < a[1] or (a[0] == b[0] and (a[0] == a[1]) != (b[0] == b[1])):
                failures.append(f"{fixture}: edits of {a[3]} and {b[3]} overlap")
                return 0
        out, at = bytearray(), 0
        for s, e, content, _ in edits:
            out += data[at:s] + content.encode()
            at = e
        out += data[at:]
        fixed = run(alloclint, args + extra + ["--fix", "--output-format", "json", name], work)
        if fixed.returncode not in (0, 1):
            failures.append(f"{fixture}: --fix exited {fixed.returncode}: {fixed.stderr}")
            return 0
        applied = [f for f in json.loads(fixed.stdout) if f.get("applied")]
        if any(f["after_earlier_fix"] for f in applied):
            return 0  # a chain: --fix writes what no report of this file shows
        after = open(os.path.join(work, name), "rb").read()
        if bytes(out) != after:
            failures.append(f"{fixture}{' (--unsafe-fixes)' if unsafe else ''}: the report's "
                            f"fixes applied together differ from --fix")
        return 1


def main():
    alloclint, rules = sys.argv[1], sys.argv[2]
    failures, compared = [], 0
    for code in sorted(os.listdir(rules)):
        folder = os.path.join(rules, code)
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py") and os.path.isfile(os.path.join(folder, name)):
                for unsafe in (False, True):
                    compared += check(alloclint, os.path.join(folder, name), unsafe, failures)
    for f in failures:
        print(f, file=sys.stderr)
    print(f"report_agrees: {compared} runs compared, {len(failures)} disagree")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
