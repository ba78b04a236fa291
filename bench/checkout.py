#!/usr/bin/env python3
"""Materialise one commit of a bare mirror as a plain directory.

The mirrors brought by the search tool's fetch have no work tree and lack
their largest blobs, so `git archive` stops at the first missing one. This
writes every blob that is present and lists the missing ones on stderr.

Usage: bench/checkout.py GIT_DIR DEST [REV]
"""
import os
import subprocess
import sys


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    git_dir, dest = sys.argv[1], sys.argv[2]
    rev = sys.argv[3] if len(sys.argv) > 3 else "HEAD"
    tree = subprocess.run(
        ["git", "--git-dir", git_dir, "ls-tree", "-r", "-z", rev],
        check=True, capture_output=True).stdout
    entries = []
    for rec in tree.split(b"\0"):
        if not rec:
            continue
        meta, path = rec.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob" and mode != b"120000":
            entries.append((mode, sha, path.decode("utf-8", "surrogateescape")))
    cat = subprocess.Popen(["git", "--git-dir", git_dir, "cat-file", "--batch"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    missing = written = 0
    for mode, sha, path in entries:
        cat.stdin.write(sha + b"\n")
        cat.stdin.flush()
        header = cat.stdout.readline().split()
        if len(header) < 3 or header[1] == b"missing":
            missing += 1
            continue
        size = int(header[2])
        data = cat.stdout.read(size)
        cat.stdout.read(1)
        out = os.path.join(dest, path)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "wb") as fh:
            fh.write(data)
        if mode == b"100755":
            os.chmod(out, 0o755)
        written += 1
    cat.stdin.close()
    cat.wait()
    print(f"checkout: {written} files written, {missing} blobs missing from the mirror",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
