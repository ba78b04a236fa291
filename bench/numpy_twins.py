#!/usr/bin/env python3
"""Host-side NumPy twins of the GPU rewrites, timed on this CPU: what
AL201's NumPy fix buys in scheduler and metadata code that runs every
step (a padded prefix sum -> an n + 1 array the cumsum writes with out=),
what np.zeros -> np.empty would, and what hoisting a loop-invariant
np.zeros/np.empty out of a loop would (issue 13's "allocation in loops"). Each pair is checked equal first.
Prints Markdown tables (best of 7 repeats, ns per call).

Usage: /usr/bin/python3 bench/numpy_twins.py (Debian's numpy)
       python3 bench/numpy_twins.py --sites DIR...   (count the loop
       allocation sites in Python trees; no timing)
"""
import ast
import os
import platform
import sys
import timeit

import numpy as np


def best_ns(fn, number):
    return min(timeit.repeat(fn, number=number, repeat=7)) / number * 1e9


def forms(a, n):
    """(label, original, rewritten) as AL201's NumPy fix writes them."""

    def pad_astype():
        return np.pad(np.cumsum(a), (1, 0)).astype(np.int32)

    def buffer_int32():
        cu = np.empty(a.size + 1, dtype=np.int32)
        cu[0] = 0
        np.cumsum(a, out=cu[1:])
        return cu

    def pad_dtype():
        return np.pad(np.cumsum(a, dtype=np.int64), (1, 0))

    def concat():
        return np.concatenate([[0], np.cumsum(a)])

    def buffer_int64():
        cu = np.empty(a.size + 1, dtype=np.int64)
        cu[0] = 0
        np.cumsum(a, dtype=np.int64, out=cu[1:])
        return cu

    def buffer_int64_plain():
        cu = np.empty(a.size + 1, dtype=np.int64)
        cu[0] = 0
        np.cumsum(a, out=cu[1:])
        return cu

    return (("np.pad(np.cumsum(a), (1, 0)).astype(np.int32)", pad_astype, buffer_int32),
            ("np.pad(np.cumsum(a, dtype=np.int64), (1, 0))", pad_dtype, buffer_int64),
            ("np.concatenate([[0], np.cumsum(a)])", concat, buffer_int64_plain))


def main():
    print("NumPy %s, Python %s, %s" % (np.__version__, platform.python_version(),
                                      platform.processor() or platform.machine()))
    print()
    print("| form (a: int64) | n | original ns | n + 1 array, out= ns | speedup |")
    print("|---|---:|---:|---:|---:|")
    rng = np.random.default_rng(0)
    for n in (16, 256, 4096, 65536):
        a = rng.integers(1, 64, n).astype(np.int64)
        for label, original, rewritten in forms(a, n):
            want, got = original(), rewritten()
            assert want.dtype == got.dtype and np.array_equal(want, got), label
            number = 5000 if n <= 4096 else 500
            t0, t1 = best_ns(original, number), best_ns(rewritten, number)
            print("| `%s` | %d | %s | %s | %.2fx |" % (label, n, f"{t0:,.0f}", f"{t1:,.0f}", t0 / t1))
    print()
    print("| n (int32) | np.zeros ns | np.empty ns |")
    print("|---:|---:|---:|")
    for n in (64, 4096, 65536):
        print("| %d | %s | %s |" % (n, f"{best_ns(lambda: np.zeros(n, dtype=np.int32), 5000):,.0f}",
                                    f"{best_ns(lambda: np.empty(n, dtype=np.int32), 5000):,.0f}"))

    print()
    loops()


def loop_forms(n, rows):
    """A loop that makes a per-row scratch array, writes part of it and
    reduces it; the hoisted form makes it once (zeros: refilled with
    fill(0) each iteration, as a hoisting fix must)."""

    def zeros_each():
        total = 0
        for r in rows:
            buf = np.zeros(n, dtype=np.int32)
            buf[: r.size] = r
            total += int(buf[-1])
        return total

    def zeros_hoisted():
        total = 0
        buf = np.zeros(n, dtype=np.int32)
        for r in rows:
            buf.fill(0)
            buf[: r.size] = r
            total += int(buf[-1])
        return total

    def empty_each():
        total = 0
        for r in rows:
            buf = np.empty(n, dtype=np.int32)
            buf[:] = r[0]
            total += int(buf[-1])
        return total

    def empty_hoisted():
        total = 0
        buf = np.empty(n, dtype=np.int32)
        for r in rows:
            buf[:] = r[0]
            total += int(buf[-1])
        return total

    return (("np.zeros in the loop vs hoisted + fill(0)", zeros_each, zeros_hoisted),
            ("np.empty in the loop vs hoisted", empty_each, empty_hoisted))


def loops():
    print("| loop of 100 iterations | n (int32) | in the loop ns/iter | hoisted ns/iter | speedup |")
    print("|---|---:|---:|---:|---:|")
    rng = np.random.default_rng(1)
    for n in (64, 4096, 65536, 1 << 20):
        rows = [rng.integers(1, 9, rng.integers(1, n + 1)).astype(np.int32) for _ in range(100)]
        for label, each, hoisted in loop_forms(n, rows):
            assert each() == hoisted(), label
            number = 20 if n <= 65536 else 3
            t0 = best_ns(each, number) / len(rows)
            t1 = best_ns(hoisted, number) / len(rows)
            print("| %s | %d | %s | %s | %.2fx |" % (label, n, f"{t0:,.0f}", f"{t1:,.0f}", t0 / t1))


MAKERS = ("zeros", "empty", "ones", "full", "zeros_like", "empty_like", "ones_like", "full_like")


def loop_sites(tree):
    """(line, maker) of `name = np.<maker>(...)` inside a for/while loop
    whose name the loop does not append, return, yield or rebind to
    another name: candidates for hoisting, before any shape check."""
    out = []
    for loop in ast.walk(tree):
        if not isinstance(loop, (ast.For, ast.While)):
            continue
        for st in ast.walk(loop):
            if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and
                    isinstance(st.targets[0], ast.Name) and isinstance(st.value, ast.Call)):
                continue
            fn = st.value.func
            if not (isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name) and
                    fn.value.id in ("np", "numpy") and fn.attr in MAKERS):
                continue
            name = st.targets[0].id
            escapes = False
            for n in ast.walk(loop):
                if isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom)):
                    escapes = True
                elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and
                      n.func.attr in ("append", "extend") and
                      any(isinstance(a, ast.Name) and a.id == name for a in n.args)):
                    escapes = True
                elif (isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and
                      n.value.id == name):
                    escapes = True
            if not escapes:
                out.append((st.lineno, fn.attr))
    return out


def sites(roots):
    total = 0
    for root in roots:
        found = []
        for dirpath, _, files in os.walk(root):
            for f in sorted(files):
                if not f.endswith(".py"):
                    continue
                path = os.path.join(dirpath, f)
                try:
                    tree = ast.parse(open(path, encoding="utf-8").read())
                except (SyntaxError, UnicodeDecodeError, ValueError):
                    continue
                found += [(path, line, maker) for line, maker in loop_sites(tree)]
        for path, line, maker in found:
            print("%s:%d: np.%s" % (path, line, maker))
        print("%s: %d sites" % (root, len(found)))
        total += len(found)
    print("total: %d sites" % total)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--sites":
        sites(sys.argv[2:])
    else:
        main()
