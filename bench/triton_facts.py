"""What Triton does in the cases alloclint's Triton rules rest on, checked
on a GPU: each fact is a rule, a premise, the kernels that test it and
what happened. Prints JSON; bench/results/triton_facts_<device>.json keeps
runs. Needs torch with CUDA and Triton.

Usage: triton_facts.py [OUT_JSON]
"""
import importlib.util
import os
import tempfile

import torch
import triton

from torch_facts import write_result

# AL302: a tl.arange under a branch on a constexpr, as written and hoisted
# out of the branch (the build before stop 52 hoisted it).
KERNELS = '''
import triton
import triton.language as tl


@triton.jit
def tail_in_branch(x_ptr, out_ptr, n, BLOCK: tl.constexpr, HAS_TAIL: tl.constexpr, TAIL: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        if HAS_TAIL:
            t = tl.arange(0, TAIL)
            acc += tl.sum(tl.load(x_ptr + t, mask=t < n, other=0.0))
    tl.store(out_ptr + tl.arange(0, BLOCK), acc)


@triton.jit
def tail_hoisted(x_ptr, out_ptr, n, BLOCK: tl.constexpr, HAS_TAIL: tl.constexpr, TAIL: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    arange_0_TAIL = tl.arange(0, TAIL)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        if HAS_TAIL:
            t = arange_0_TAIL
            acc += tl.sum(tl.load(x_ptr + t, mask=t < n, other=0.0))
    tl.store(out_ptr + tl.arange(0, BLOCK), acc)


@triton.jit
def unrolled(x_ptr, out_ptr, NUM: tl.constexpr, B: tl.constexpr):
    for i in tl.static_range(NUM):
        v = tl.load(x_ptr + i * B + tl.arange(0, B))
        tl.store(out_ptr + i * B + tl.arange(0, B), v)


@triton.jit
def unrolled_hoisted(x_ptr, out_ptr, NUM: tl.constexpr, B: tl.constexpr):
    arange_0_B = tl.arange(0, B)
    for i in tl.static_range(NUM):
        v = tl.load(x_ptr + i * B + arange_0_B)
        tl.store(out_ptr + i * B + arange_0_B, v)
'''


def load_kernels():
    path = os.path.join(tempfile.mkdtemp(), "facts_kernels.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(KERNELS)
    spec = importlib.util.spec_from_file_location("facts_kernels", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def outcome(fn):
    try:
        out = fn()
        torch.cuda.synchronize()
        return "ran", out
    except Exception as e:
        return "raised %s: %s" % (type(e).__name__, (str(e).splitlines() or [""])[-1][:120]), None


def main():
    k = load_kernels()
    x = torch.rand(1000, device="cuda")
    rows = []
    # (the kernel as written, hoisted, what is hoisted out of, the launch's
    # arguments after the pointers, the constexprs of each case)
    pairs = (("tail_in_branch", "tail_hoisted", "the branch", (1000,),
              ({"BLOCK": 64, "HAS_TAIL": False, "TAIL": 0}, {"BLOCK": 64, "HAS_TAIL": False, "TAIL": 3},
               {"BLOCK": 64, "HAS_TAIL": True, "TAIL": 4})),
             ("unrolled", "unrolled_hoisted", "the loop", (),
              ({"NUM": 0, "B": 0}, {"NUM": 0, "B": 3}, {"NUM": 2, "B": 4})))
    for written, hoisted, out_of, args, cases in pairs:
        for meta in cases:
            results = []
            for kernel in (getattr(k, written), getattr(k, hoisted)):
                def run(kernel=kernel):
                    out = torch.full((64,), float("nan"), device="cuda")
                    kernel[(1,)](x, out, *args, **meta)
                    return out
                results.append(outcome(run))
            (a, got_a), (b, got_b) = results
            rows.append(dict({"rule": "AL302", "kernel": written}, **meta,
                             **{"as written": a, "hoisted out of " + out_of: b,
                                "same": got_a is not None and got_b is not None and
                                        bool(torch.equal(torch.nan_to_num(got_a, 7.0),
                                                         torch.nan_to_num(got_b, 7.0)))}))
    write_result({"device": torch.cuda.get_device_name(), "triton": triton.__version__,
                  "torch": torch.__version__, "facts": rows})


if __name__ == "__main__":
    main()
