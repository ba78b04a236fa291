"""Runs AL104's fixture kernels (tests/rules/AL104/triton_stores.py) on a GPU
before and after alloclint's fixes and compares what they store.

  - every kernel alloclint fixes safely (triton_stores.py.fixed) must store
    the same bits as the original, on the input dtypes named below (the
    accumulator kernels get float16, bfloat16 or int8 inputs);
  - the unsafe fixes (triton_stores.py.unsafe-fixed) are run too: each
    trap in TRAPS must store something else, fail to compile, or store
    another dtype's values, which is why its fix is unsafe (the dead-store
    kernels launched in place, one tensor for both pointers, read the
    zeros the fix deletes).

Output memory is filled with NaN (or the dtype's maximum) before each
launch, so that a store the fix dropped shows. Also records two facts
about torch the rules rely on (AL201's integer prefix sums: torch refuses
a gradient for an integer cumsum of a floating input that requires grad,
with or without `out=`).

Usage: triton_stores.py REPO OUT_JSON. Exit 77 without torch, CUDA and
Triton; 1 on any disagreement.
"""
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

try:
    import torch
    import triton
    import triton.language as tl
    if not torch.cuda.is_available():
        raise ImportError("no CUDA device")
except ImportError as e:
    print("triton_stores: %s; skipped" % e)
    sys.exit(77)

BM = 32
# Kernels whose unsafe fix must change what they compute (or not compile).
TRAPS = {"single_block_gemm", "bf16_accumulator", "accumulator_dtype_given",
         "dead_zero_store in place", "zero_loop_then_real_loop in place"}


def load(path, name, work):
    """The module at path, copied under a .py name (Triton reads a kernel's
    source from its file)."""
    copy = os.path.join(work, name + ".py")
    shutil.copyfile(path, copy)
    spec = importlib.util.spec_from_file_location(name, copy)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def poisoned(shape, dtype):
    t = torch.empty(shape, dtype=dtype, device="cuda")
    if dtype.is_floating_point:
        t.fill_(float("nan"))
    else:
        t.fill_(torch.iinfo(dtype).max)
    return t


def inputs(dtype, shape, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    if dtype == torch.int8:
        return torch.randint(-8, 8, shape, dtype=dtype, device="cuda", generator=g)
    # Values whose float16 sums round: a float16 accumulation shows.
    return (torch.rand(shape, device="cuda", generator=g) * 3 + 0.01).to(dtype)


def launches(mod):
    """Each kernel of the fixture with a launch: name -> function giving
    what it stored."""
    f16, bf16, i8 = torch.float16, torch.bfloat16, torch.int8

    def square(kernel, in_dtype, out_dtype, **meta):
        def run():
            a = inputs(in_dtype, (BM, BM), 1)
            b = inputs(in_dtype, (BM, BM), 2)
            c = poisoned((BM, BM), out_dtype)
            kernel[(1,)](a, b, c, BM=BM, **meta)
            return c
        return run

    def qk():
        q = inputs(f16, (BM, BM), 3)
        k = inputs(f16, (BM, BM), 4)
        s = poisoned((BM, BM), torch.float32)
        mod.qk_scores[(1,)](q, k, s, BM=BM, BN=BM, D=BM)
        return s

    def gemm():
        a = inputs(f16, (BM, BM), 5)
        b = inputs(f16, (BM, BM), 6)
        c = poisoned((BM, BM), torch.float32)
        mod.single_block_gemm[(1,)](a, b, c, BM=BM, BN=BM, BK=BM)
        return c

    def rows(kernel):
        def run():
            n = 1000
            x = inputs(torch.float32, (n,), 7)
            out = poisoned((n,), torch.float32)
            kernel[(triton.cdiv(n, 128),)](x, out, n, BLOCK=128)
            return out
        return run

    def row_loops(in_place=False):
        def run():
            n = 300
            x = inputs(torch.float32, (4, n), 8)
            out = x if in_place else poisoned((4, n), torch.float32)
            mod.zero_loop_then_real_loop[(4,)](x, out, n, BLOCK=128)
            return out
        return run

    def rows_in_place():
        # One tensor for both pointers: the load reads what the zero
        # store left.
        n = 1000
        x = inputs(torch.float32, (n,), 9)
        mod.dead_zero_store[(triton.cdiv(n, 128),)](x, x, n, BLOCK=128)
        return x

    def positions():
        n = 1000
        out = poisoned((n,), torch.float32)
        mod.dead_store_of_positions[(triton.cdiv(n, 128),)](out, n, BLOCK=128)
        return out

    return {
        "qk_scores": qk,
        "single_block_gemm": gemm,
        "half_dot_half_acc": square(mod.half_dot_half_acc, f16, f16),
        "int8_gemm": square(mod.int8_gemm, i8, torch.int32),
        "bf16_accumulator": square(mod.bf16_accumulator, bf16, torch.float32),
        "accumulator_dtype_given": square(mod.accumulator_dtype_given, f16, torch.float32,
                                          ACC=tl.float16),
        "dead_zero_store": rows(mod.dead_zero_store),
        "dead_zero_store in place": rows_in_place,
        "zero_loop_then_real_loop": row_loops(),
        "zero_loop_then_real_loop in place": row_loops(in_place=True),
        "dead_store_of_positions": positions,
    }


def outcome(run):
    try:
        out = run()
        torch.cuda.synchronize()
        return out, None
    except Exception as e:  # a fix that does not compile
        return None, "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:200] if str(e) else "")


def same(a, b):
    if a is None or b is None or a.dtype != b.dtype or a.shape != b.shape:
        return False
    if not a.dtype.is_floating_point:
        return bool(torch.equal(a, b))
    return bool(torch.equal(torch.isnan(a), torch.isnan(b)) and
                torch.equal(torch.nan_to_num(a, nan=7.0), torch.nan_to_num(b, nan=7.0)))


@triton.jit
def _dot_into(a_ptr, b_ptr, c_ptr, BM: tl.constexpr, OUT: tl.constexpr):
    r = tl.arange(0, BM)
    a = tl.load(a_ptr + r[:, None] * BM + r[None, :])
    b = tl.load(b_ptr + r[:, None] * BM + r[None, :])
    tl.store(c_ptr + r[:, None] * BM + r[None, :], tl.dot(a, b, out_dtype=OUT))


@triton.jit
def _zeros_plus_dot(a_ptr, b_ptr, c_ptr, BM: tl.constexpr, ACC: tl.constexpr):
    r = tl.arange(0, BM)
    a = tl.load(a_ptr + r[:, None] * BM + r[None, :])
    b = tl.load(b_ptr + r[:, None] * BM + r[None, :])
    acc = tl.zeros((BM, BM), dtype=ACC)
    acc += tl.dot(a, b)
    tl.store(c_ptr + r[:, None] * BM + r[None, :], acc)


DOT_CASES = ((torch.int8, tl.float32), (torch.float16, tl.int32), (torch.float16, tl.float64),
             (torch.int8, tl.float64), (torch.float32, tl.float64))


def dot_case(i):
    """One case of dot_facts, in a process of its own (a Triton compiler
    assertion aborts the process): prints its row as JSON."""
    in_dtype, acc = DOT_CASES[i]
    a = inputs(in_dtype, (BM, BM), 11)
    b = inputs(in_dtype, (BM, BM), 12)
    want = poisoned((BM, BM), torch.float64)
    got = poisoned((BM, BM), torch.float64)
    row = {"inputs": str(in_dtype), "accumulator": str(acc)}
    try:
        _zeros_plus_dot[(1,)](a, b, want, BM=BM, ACC=acc)
        torch.cuda.synchronize()
        row["original"] = "ran"
    except Exception as e:
        row["original"] = "error: %s" % type(e).__name__
    print(json.dumps(row), flush=True)
    try:
        _dot_into[(1,)](a, b, got, BM=BM, OUT=acc)
        torch.cuda.synchronize()
        row["fixed"] = "ran"
        row["same"] = row["original"] == "ran" and same(want, got)
    except Exception as e:
        row["fixed"] = "error: %s" % type(e).__name__
    print(json.dumps(row), flush=True)


def dot_facts():
    """For a wide accumulator and inputs whose dot gives another dtype: does
    `tl.dot(a, b, out_dtype=ACC)` compile, and if it does, does it store
    what `acc = tl.zeros(..., ACC); acc += tl.dot(a, b)` stores?"""
    facts = []
    for i in range(len(DOT_CASES)):
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--dot-case", str(i)],
                           capture_output=True, text=True)
        lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
        row = json.loads(lines[-1]) if lines else {"case": i}
        if p.returncode != 0:
            stage = "fixed" if "original" in row else "original"
            row[stage] = "the compiler aborted (exit %d)" % p.returncode
        facts.append(row)
    return facts


def torch_facts():
    """What torch does with an integer prefix sum of a floating input that
    requires grad, with and without out=."""
    facts = {"torch": torch.__version__}
    x = torch.rand(5, device="cuda", requires_grad=True)
    for label, fn in (
            ("cumsum_int_dtype", lambda: torch.cumsum(x, 0, dtype=torch.int32)),
            ("cumsum_int_dtype_out", lambda: torch.cumsum(
                x, 0, dtype=torch.int32, out=torch.empty(5, dtype=torch.int32, device="cuda"))),
            ("cumsum_float_out", lambda: torch.cumsum(
                x, 0, dtype=torch.float32, out=torch.empty(5, device="cuda")))):
        try:
            fn()
            facts[label] = "ran"
        except Exception as e:
            facts[label] = "raised %s" % type(e).__name__
    return facts


def main():
    if sys.argv[1] == "--dot-case":
        dot_case(int(sys.argv[2]))
        return 0
    repo, out_json = sys.argv[1], sys.argv[2]
    base = os.path.join(repo, "tests", "rules", "AL104", "triton_stores.py")
    work = tempfile.mkdtemp()
    original = launches(load(base, "al104_original", work))
    fixed = launches(load(base + ".fixed", "al104_fixed", work))
    unsafe = launches(load(base + ".unsafe-fixed", "al104_unsafe", work))
    rows, failures = [], 0
    with open(base + ".fixed", encoding="utf-8") as f:
        fixed_text = f.read()
    with open(base, encoding="utf-8") as f:
        original_text = f.read()
    for name in original:
        want, err = outcome(original[name])
        if err:
            print("%s: the original does not run: %s" % (name, err))
            failures += 1
            continue
        got, ferr = outcome(fixed[name])
        ugot, uerr = outcome(unsafe[name])
        row = {"kernel": name, "trap": name in TRAPS,
               "safe_fix_same": ferr is None and same(want, got),
               "unsafe_fix_same": uerr is None and same(want, ugot),
               "unsafe_fix_error": uerr,
               "max_abs_diff_unsafe": None}
        if uerr is None and ugot is not None and want.dtype.is_floating_point and ugot.dtype == want.dtype:
            row["max_abs_diff_unsafe"] = float((ugot.float() - want.float()).abs().nan_to_num(0).max())
        rows.append(row)
        if not row["safe_fix_same"]:
            print("%s: the safe fix computes something else%s" % (name, ": " + ferr if ferr else ""))
            failures += 1
        if name in TRAPS and row["unsafe_fix_same"]:
            print("%s: a trap whose unsafe fix computes the same" % name)
            failures += 1
        # A kernel the safe fix leaves alone is the same code: nothing to learn.
        row["changed_by_safe_fix"] = fixed_text.count("def %s(" % name) == 1 and \
            original_text.split("def %s(" % name)[1].split("@triton.jit")[0] != \
            fixed_text.split("def %s(" % name)[1].split("@triton.jit")[0]
    result = {"device": torch.cuda.get_device_name(), "triton": triton.__version__,
              "kernels": rows, "dot_facts": dot_facts(), "torch_facts": torch_facts(),
              "failures": failures}
    with open(out_json, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)
    print(json.dumps(result, indent=1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
