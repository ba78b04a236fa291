"""Shared helpers for the Triton reference pairs: skip without a GPU, fresh
random inputs, poisoned outputs, median timing over rotating inputs, and
the same JSON rows as the CUDA programs."""

import json
import sys
import time

SKIP = 77


def require_gpu():
    try:
        import torch
        import triton  # noqa: F401
    except Exception as exc:  # torch or triton missing: not this machine
        print(f"torch/triton unavailable ({exc}): skipped")
        sys.exit(SKIP)
    if not torch.cuda.is_available():
        print("no CUDA device: skipped")
        sys.exit(SKIP)


class Report:
    def __init__(self, program, argv):
        self.program = program
        self.check_only = "--check" in argv
        self.json_path = argv[argv.index("--json") + 1] if "--json" in argv else None
        self.seed = time.time_ns() & 0xFFFFFFFF
        self.rows = []
        self.checks = []

    def check(self, rewrite, case, n, expect_equal, equal):
        passed = equal == expect_equal
        self.checks.append(dict(rewrite=rewrite, case=case, elements=n, expect_equal=expect_equal,
                                equal=equal, first_diff_byte=-1 if equal else 0, passed=passed))
        print(f"check {rewrite:6} {case:40} n={n:<10} {'ok' if passed else 'FAILED'}")

    def row(self, rewrite, case, form, n, nbytes, median_ms, p10_ms, p90_ms, traffic):
        us = median_ms * 1000.0
        self.rows.append(dict(rewrite=rewrite, case=case, form=form, elements=n, bytes=nbytes,
                              median_us=us, p10_us=p10_ms * 1000.0, p90_us=p90_ms * 1000.0,
                              gbps=traffic / us / 1e3 if us > 0 else 0.0))
        print(f"time  {rewrite:6} {case:28} {form:22} n={n:<10} {us:10.2f} us")

    def finish(self):
        ok = all(c["passed"] for c in self.checks)
        if self.json_path:
            with open(self.json_path, "w") as f:
                json.dump(dict(program=self.program, seed=self.seed, rows=self.rows,
                               checks=self.checks), f, indent=1)
        print(f"{self.program}: {len(self.checks)} checks, {'all passed' if ok else 'SOME FAILED'}")
        return 0 if ok else 1


def bench(fn, sets):
    """Median, p10 and p90 in ms of fn(i) over rotating input sets."""
    import triton.testing

    counter = [0]

    def call():
        fn(counter[0] % sets)
        counter[0] += 1

    q = triton.testing.do_bench(call, warmup=25, rep=200, quantiles=[0.5, 0.1, 0.9])
    return q[0], q[1], q[2]


def rotation_sets(nbytes):
    import torch

    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    return max(2, min(256, 2 * l2 // max(nbytes, 1) + 1))
