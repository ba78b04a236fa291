#!/usr/bin/env python3
"""Host-side NumPy twins of the GPU rewrites, timed on this CPU: what
AL201's NumPy fix buys in scheduler and metadata code that runs every
step (a padded prefix sum -> an n + 1 array the cumsum writes with out=),
and what np.zeros -> np.empty would. Each pair is checked equal first.
Prints Markdown tables (best of 7 repeats, ns per call).

Usage: /usr/bin/python3 bench/numpy_twins.py (Debian's numpy)
"""
import platform
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


if __name__ == "__main__":
    main()
