#!/usr/bin/env python3
"""Host-side NumPy twins of the GPU rewrites, timed on this CPU: what
np.zeros -> np.empty and a padded prefix sum -> an n + 1 buffer would buy
in scheduler and metadata code that runs every step. Prints a Markdown
table (best of 5 repeats, ns per call).

Usage: bench/numpy_twins.py (with /usr/bin/python3: Debian's numpy)
"""
import timeit

import numpy as np


def best_ns(fn, number):
    return min(timeit.repeat(fn, number=number, repeat=5)) / number * 1e9


def main():
    print('| n | np.zeros | np.empty | concatenate([[0], cumsum]) | pad(cumsum, (1, 0)) | n + 1 buffer, out= |')
    print('|---:|---:|---:|---:|---:|---:|')
    rng = np.random.default_rng(0)
    for n in (64, 256, 4096, 65536):
        a = rng.integers(1, 64, n).astype(np.int32)

        def concat():
            return np.concatenate([[0], np.cumsum(a)])

        def pad():
            return np.pad(np.cumsum(a), (1, 0))

        def buffer():
            b = np.empty(n + 1, dtype=np.int64)
            b[0] = 0
            np.cumsum(a, out=b[1:])
            return b

        assert np.array_equal(concat(), buffer()) and np.array_equal(pad(), buffer())
        number = 2000 if n <= 4096 else 200
        row = [best_ns(lambda: np.zeros(n, dtype=np.int32), number),
               best_ns(lambda: np.empty(n, dtype=np.int32), number),
               best_ns(concat, number), best_ns(pad, number), best_ns(buffer, number)]
        print(f'| {n} | ' + ' | '.join(f'{v:,.0f}' for v in row) + ' |')


if __name__ == '__main__':
    main()
