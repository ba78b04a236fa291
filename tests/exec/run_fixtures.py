"""Runs fixture functions before and after alloclint's safe fixes, on
random inputs, with freshly allocated memory poisoned (share/
sitecustomize.py, ALLOCLINT_POISON=nan), and compares what they return
and what they leave in their tensor arguments; then, where the original
has a backward (its floating inputs made to require grad), whether the
fixed code's backward runs and computes the same gradients.

Usage: run_fixtures.py LIST_OUT ORIGINAL FIXED [ORIGINAL FIXED ...]
           [--trees BEFORE_ROOT AFTER_ROOT LABEL MODULES ...]

Each function is called with arguments chosen from its parameter names
(tried in a few shapes until the original runs), and so are the forward
and the other public methods of each torch.nn.Module class, built from
arguments chosen the same way, the same weights before and after, in eval
mode; functions the original
cannot run on the CPU (Triton kernels, CUDA-only code) are listed as not
run, with the reason. LIST_OUT receives one line per function ("ran" or
"not run: reason") so the caller can check that the set that ran did not
shrink. Exit 1 on any difference.
"""
import asyncio
import copy
import importlib.util
import inspect
import math
import os
import sys
import types
import zlib

import numpy
import torch
import warnings

warnings.simplefilter("ignore")

INT_NAMES = ("n", "m", "k", "b", "rows", "cols", "steps", "width", "size", "dim", "bs",
             "num", "count", "length", "value", "pad_id", "max_len", "max_tokens",
             "num_tokens", "num_experts", "top_k", "topk", "seq_len", "heads", "head_dim",
             "hidden", "block", "page_size", "batch", "world_size", "rank", "offset", "start")


def arg_for(name, shape, seed):
    g = torch.Generator().manual_seed(seed)
    low = name.lower()
    if low == "device":
        return "cpu"
    if low == "dtype":
        return torch.float32
    if low in ("eps", "scale", "temperature", "alpha", "beta"):
        return 0.5
    if low in ("flag", "enabled", "training", "causal"):
        return True
    if low == "shape":
        return tuple(shape)
    if low in ("chunks", "items", "parts", "tensors", "xs", "tokens", "outputs"):
        return [torch.randn(*shape, generator=g) for _ in range(3)]
    if low in ("seq_lens", "lens", "lengths", "counts"):
        return torch.randint(1, shape[0] + 1, (shape[0],), generator=g)
    if low in ("index", "idx", "ids", "indices", "positions"):
        return torch.randperm(shape[0], generator=g)
    if low in INT_NAMES or low.startswith(("num_", "max_", "n_")) or low.endswith(("_size", "_len")):
        return shape[0]
    return torch.randn(*shape, generator=g)


SHAPES = ((8,), (8, 8), (4, 8), (8, 4, 2))


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def same(a, b):
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        if a.is_floating_point():
            return bool(torch.equal(torch.nan_to_num(a, nan=1.5e38), torch.nan_to_num(b, nan=1.5e38))
                        and torch.equal(torch.isnan(a), torch.isnan(b)))
        return bool(torch.equal(a, b))
    if isinstance(a, numpy.ndarray) and isinstance(b, numpy.ndarray):
        return (a.shape == b.shape and a.dtype == b.dtype and
                bool(numpy.array_equal(a, b, equal_nan=a.dtype.kind in "fc")))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return type(a) is type(b) and (a == b if not hasattr(a, "__dict__") else True)


def call(fn, args):
    args = copy.deepcopy(args)
    torch.manual_seed(1234)  # uniform_, randn inside the function: same draws
    out = fn(*args)
    if inspect.iscoroutine(out):  # an async def: run it to its result
        out = asyncio.run(out)
    return out, args


def flatten(v):
    if isinstance(v, (list, tuple)):
        for x in v:
            yield from flatten(v=x)
    elif isinstance(v, dict):
        for x in v.values():
            yield from flatten(v=x)
    else:
        yield v


def grad_args(args):
    """A copy of args whose floating tensors are leaves that require grad."""
    out = []
    for a in copy.deepcopy(args):
        if isinstance(a, torch.Tensor) and a.is_floating_point():
            a = a.detach().requires_grad_(True)
        out.append(a)
    return out


def gradients(fn, args):
    """The gradients, with respect to args, of the sum of what fn returns
    that requires grad; None when nothing it returns does (autograd off,
    or no floating input reaches the result)."""
    torch.manual_seed(1234)
    out = fn(*args)
    if inspect.iscoroutine(out):
        out = asyncio.run(out)
    results = [t for t in flatten(out) if isinstance(t, torch.Tensor) and t.requires_grad]
    if not results:
        return None
    sum(t.double().sum() for t in results).backward()
    return [a.grad for a in args if isinstance(a, torch.Tensor) and a.requires_grad]


def compare_gradients(label, name, fn, fixed, args):
    """Backward through the original and the fixed function, on the same
    inputs made to require grad: a fix must not break it (an in-place
    update of a tensor a graph saved raises there) nor change what it
    computes. Returns the number of differences."""
    try:
        want = gradients(fn, grad_args(args))
    except Exception:  # no backward to compare (an in-place update of an input)
        return 0
    if want is None:
        return 0
    try:
        got = gradients(fixed, grad_args(args))
    except Exception as e:
        print("%s:%s: the fixed code's backward raised %s: %s" % (label, name, type(e).__name__, e))
        return 1
    if got is None or not same(want, got):
        print("%s:%s: the fixed code's backward computes other gradients" % (label, name))
        return 1
    return 0


def functions(mod):
    for name, fn in list(vars(mod).items()):
        if isinstance(fn, types.FunctionType) and fn.__module__ == mod.__name__:
            yield name, fn


def modules(mod):
    """The torch.nn.Module classes of the fixture, each with the methods to
    run: forward (its own or inherited from another class of the fixture)
    and every other public method of its own."""
    for name, cls in list(vars(mod).items()):
        if not (isinstance(cls, type) and issubclass(cls, torch.nn.Module) and
                cls.__module__ == mod.__name__):
            continue
        methods = [m for m, f in vars(cls).items()
                   if isinstance(f, types.FunctionType) and not m.startswith("_") and m != "forward"]
        if cls.forward is not torch.nn.Module.forward:
            methods.insert(0, "forward")
        for method in methods:
            yield name, cls, method


def module_runner(cls, init_args, method):
    """A function calling a method of a module built with init_args, the
    same weights every time (the seed is set before it is built), in eval
    mode (Dropout the identity)."""
    def run(*args):
        torch.manual_seed(4321)
        m = cls(*init_args)
        m.eval()
        return m(*args) if method == "forward" else getattr(m, method)(*args)
    return run


def compare(label, before, after, lines, backward=True):
    """Runs every function and module method of before and of after (the
    same module before and after the fix) on the same inputs; appends one
    line per function to lines and returns the number of differences.
    backward: compare gradients too (not for a project whose configuration
    says no autograd runs: its fixes rest on that)."""
    failures = 0
    runs = [(name, fn, None) for name, fn in functions(before)] + list(modules(before))
    for name, fn, method in runs:
        fixed_fn = getattr(after, name, None)
        if fixed_fn is None:
            print("%s:%s: missing after the fix" % (label, name))
            failures += 1
            continue
        module = method is not None
        if module:
            name += "." + method
        try:
            params = list(inspect.signature(getattr(fn, method) if module else fn).parameters)
            init = list(inspect.signature(fn.__init__).parameters)[1:] if module else []
        except (TypeError, ValueError):
            lines.append("%s:%s: not run: no signature" % (label, name))
            continue
        if module:
            params = params[1:]  # self
            init = [p for p in init if p not in ("args", "kwargs")]
        ran = False
        reason = "no argument shape fits"
        for shape in SHAPES:
            args = [arg_for(p, shape, seed=zlib.crc32((name + ":" + p).encode()) & 0xFFFF) for p in params]
            if module:
                init_args = [arg_for(p, shape, seed=1) for p in init]
                fn_now = module_runner(fn, init_args, method)
                fixed_now = module_runner(fixed_fn, init_args, method)
            else:
                fn_now, fixed_now = fn, fixed_fn
            try:
                want = call(fn_now, args)
            except Exception as e:
                reason = type(e).__name__
                continue
            ran = True
            try:
                got = call(fixed_now, args)
            except Exception as e:
                print("%s:%s: the fixed code raised %s: %s" % (label, name, type(e).__name__, e))
                failures += 1
                break
            if not same(want, got):
                print("%s:%s: the fixed code computes something else on shape %s"
                      % (label, name, shape))
                failures += 1
            elif backward:
                failures += compare_gradients(label, name, fn_now, fixed_now, args)
            break
        lines.append("%s:%s: %s" % (label, name, "ran" if ran else "not run: " + reason))
    return failures


def inference_configured(root):
    """Whether the project at root says `inference = true` (alloclint's
    configuration, in pyproject.toml or alloclint.toml)."""
    for name in ("alloclint.toml", "pyproject.toml"):
        try:
            with open(os.path.join(root, name), encoding="utf-8") as f:
                text = f.read()
        except OSError:
            continue
        if any(line.split("#")[0].replace(" ", "") == "inference=true" for line in text.splitlines()):
            return True
    return False


def import_tree(root, names):
    """The modules names (dotted) of the project at root, imported afresh:
    the packages of a tree imported before (the same names before and
    after the fix) are forgotten first."""
    tops = {n.split(".")[0] for n in names}
    for k in [k for k in sys.modules if k.split(".")[0] in tops]:
        del sys.modules[k]
    sys.path.insert(0, root)
    try:
        return [importlib.import_module(n) for n in names]
    finally:
        sys.path.remove(root)


def main():
    """Arguments: LIST_OUT, then ORIGINAL FIXED pairs of single files, then
    optionally `--trees` and BEFORE_ROOT AFTER_ROOT LABEL MODULES quads
    (a project fixture before and after its fix; MODULES the dotted names
    of the modules the fix changed, comma-separated)."""
    list_out, rest = sys.argv[1], sys.argv[2:]
    trees = rest[rest.index("--trees") + 1:] if "--trees" in rest else []
    pairs = rest[:rest.index("--trees")] if "--trees" in rest else rest
    lines, failures = [], 0
    for i in range(0, len(pairs), 2):
        original, fixed = pairs[i], pairs[i + 1]
        label = os.path.basename(os.path.dirname(original)) + "/" + os.path.basename(original)
        try:
            before = load(original, "before_%d" % i)
            after = load(fixed, "after_%d" % i)
        except Exception as e:  # an import the CPU lacks (triton)
            lines.append("%s: not run: cannot import (%s)" % (label, type(e).__name__))
            continue
        failures += compare(label, before, after, lines)
    for i in range(0, len(trees), 4):
        before_root, after_root, label, names = trees[i:i + 4]
        names = names.split(",")
        try:
            befores = import_tree(before_root, names)
            afters = import_tree(after_root, names)
        except Exception as e:  # an extension or a library the CPU lacks
            lines.append("%s: not run: cannot import (%s)" % (label, type(e).__name__))
            continue
        backward = not inference_configured(before_root)
        for name, before, after in zip(names, befores, afters):
            failures += compare("%s:%s" % (label, name), before, after, lines, backward)
    with open(list_out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("%d functions ran, %d differences" % (sum(l.endswith(": ran") for l in lines), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
