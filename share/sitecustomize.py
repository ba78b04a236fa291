# alloclint's run-time companion (embedded in the alloclint binary; written
# to a temporary folder on PYTHONPATH by `alloclint verify` and by the
# poisoned-execution tests). Read at interpreter start-up:
#
#   ALLOCLINT_POISON=nan|max|off   fill every freshly allocated tensor
#       (torch.empty, empty_like, empty_strided, Tensor.new_empty) and
#       NumPy array (numpy.empty, empty_like) with NaN
#       for floating dtypes and the dtype's maximum for integers ("max":
#       the maximum for every dtype), so that code reading memory nobody
#       wrote gets values it cannot mistake for data.
#   ALLOCLINT_POISON_HOST_ONLY=1   leave device tensors alone: under
#       compute-sanitizer's initcheck, unwritten device memory must stay
#       unwritten for the tool to see it read.
#   ALLOCLINT_TRACE=FILE  ALLOCLINT_TRACE_PATHS=p1:p2:...
#       record "path:line" for every line executed in those files (absolute
#       paths), written to FILE at exit; and, since a Triton kernel's body
#       runs on the device and is never traced, "K<TAB>path<TAB>first<TAB>
#       last<TAB>name" for every @triton.jit function of those files the
#       program launched (a hook on Triton's launcher, JITFunction.run).
#   ALLOCLINT_PROFILE=FILE  ALLOCLINT_PROFILE_PATHS=p1:p2:...
#       run the program under torch.profiler (CPU and CUDA, with_stack,
#       record_shapes) and write its Chrome trace to FILE at exit (gzipped
#       when FILE ends in .gz); and every call of torch's allocation, fill,
#       copy and concatenation functions made from a line of those files
#       or folders runs inside record_function("alloclint.site:KIND:LINE:
#       COL:END_LINE:END_COL:PATH", the call's place as co_positions gives it
#       from Python 3.11, the line alone before), so that alloclint puts each
#       of its kernels on its call.
#
# It must never change what a correct program computes: poisoning only
# writes memory the program has not written yet.
import os
import sys


def _chain(original):
    prev = original

    def wrapped(*args, **kwargs):
        out = prev(*args, **kwargs)
        _poison(out)
        return out

    wrapped.__wrapped__ = prev
    wrapped.__name__ = getattr(prev, "__name__", "wrapped")
    return wrapped


_MODE = os.environ.get("ALLOCLINT_POISON", "off")
_HOST_ONLY = os.environ.get("ALLOCLINT_POISON_HOST_ONLY") == "1"


def _poison_array(a):
    import numpy

    if not isinstance(a, numpy.ndarray) or a.size == 0:
        return
    if a.dtype == numpy.bool_:
        a.fill(True)
    elif a.dtype.kind in "fc":
        a.fill(numpy.finfo(a.dtype).max if _MODE == "max" else numpy.nan)
    elif a.dtype.kind in "iu":
        a.fill(numpy.iinfo(a.dtype).max)


def _poison(t):
    if type(t).__module__ == "numpy":
        _poison_array(t)
        return
    import torch

    if not isinstance(t, torch.Tensor) or t.numel() == 0:
        return
    if _HOST_ONLY and t.device.type != "cpu":
        return
    with torch.no_grad():
        if t.dtype == torch.bool:
            t.fill_(True)
        elif t.is_floating_point() or t.is_complex():
            if _MODE == "max":
                t.fill_(torch.finfo(t.dtype).max)
            else:
                t.fill_(float("nan"))
        else:
            t.fill_(torch.iinfo(t.dtype).max)


def _install_poison():
    try:
        import numpy
    except Exception:  # no numpy: its arrays are not poisoned
        numpy = None
    if numpy is not None:
        for name in ("empty", "empty_like"):
            setattr(numpy, name, _chain(getattr(numpy, name)))
    try:
        import torch
    except Exception:  # no torch: nothing to poison
        return
    for name in ("empty", "empty_like", "empty_strided"):
        if hasattr(torch, name):
            setattr(torch, name, _chain(getattr(torch, name)))
    torch.Tensor.new_empty = _chain(torch.Tensor.new_empty)
    det = getattr(getattr(torch, "utils", None), "deterministic", None)
    if det is not None and hasattr(det, "fill_uninitialized_memory"):
        det.fill_uninitialized_memory = True


# Triton's launchers: `kernel[grid](...)` ends in the class's `run`, also
# through an autotuner or heuristics, which hold the JIT function.
_LAUNCHERS = (("triton.runtime.jit", "JITFunction"),
              ("triton.runtime.interpreter", "InterpretedFunction"))


def _hook_triton_launches(record):
    def patch(module, cls_name):
        cls = getattr(module, cls_name, None)
        run = getattr(cls, "run", None)
        if run is None or getattr(run, "_alloclint_launch", False):
            return

        def launch(self, *args, **kwargs):
            try:
                record(self)
            except Exception:  # the record must never break the program
                pass
            return run(self, *args, **kwargs)

        launch._alloclint_launch = True
        launch.__wrapped__ = run
        cls.run = launch

    wanted = dict(_LAUNCHERS)
    for name, cls_name in _LAUNCHERS:
        if name in sys.modules:
            patch(sys.modules[name], cls_name)

    import importlib.abc

    class _AfterImport(importlib.abc.MetaPathFinder):
        """Patches a launcher module once it has been executed: Triton
        is imported by the program, after this file ran."""

        def find_spec(self, name, path=None, target=None):
            if name not in wanted:
                return None
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(name, path, target)
                if spec is not None:
                    break
            else:
                return None
            loader = spec.loader
            if loader is None or not hasattr(loader, "exec_module"):
                return spec
            execute = loader.exec_module

            def exec_module(module):
                execute(module)
                patch(module, wanted[name])

            loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, _AfterImport())


def _install_trace(out_path, paths):
    wanted = {os.path.realpath(p) for p in paths if p}
    seen = set()
    known = {}

    def local(frame, event, arg):
        if event == "line":
            seen.add((frame.f_code.co_filename, frame.f_lineno))
        return local

    def tracer(frame, event, arg):
        fn = frame.f_code.co_filename
        hit = known.get(fn)
        if hit is None:
            hit = known[fn] = os.path.realpath(fn) in wanted
        if not hit:
            return None
        seen.add((fn, frame.f_lineno))
        return local

    launched = set()

    def record_launch(jit):
        code = getattr(getattr(jit, "fn", None), "__code__", None)
        if code is None or os.path.realpath(code.co_filename) not in wanted:
            return
        import dis

        rows = [r for _, r in dis.findlinestarts(code) if r]
        launched.add((os.path.realpath(code.co_filename), code.co_firstlineno,
                      max(rows + [code.co_firstlineno]), code.co_name))

    _hook_triton_launches(record_launch)

    def dump():
        with open(out_path, "a", encoding="utf-8") as f:
            for fn, line in sorted(seen):
                f.write("%s:%d\n" % (os.path.realpath(fn), line))
            for fn, first, last, name in sorted(launched):
                f.write("K\t%s\t%d\t%d\t%s\n" % (fn, first, last, name))

    import atexit
    import threading

    atexit.register(dump)
    threading.settrace(tracer)
    sys.settrace(tracer)


# The calls `alloclint profile` labels, by the kind its sites are read as
# (the callee's last name; a subscript assignment is "[]=").
_LABELLED_TORCH = ("zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like",
                   "empty_like", "cat", "concat", "concatenate", "stack", "tensor", "as_tensor")
_LABELLED_TENSOR = ("fill_", "zero_", "copy_", "to", "cuda", "new_zeros", "new_ones",
                    "new_full", "new_empty", "clone")


def _install_labels(paths):
    import functools

    import torch

    roots = tuple(os.path.join(os.path.realpath(p), "") for p in paths if p and os.path.isdir(p))
    files = {os.path.realpath(p) for p in paths if p and os.path.isfile(p)}
    known = {}

    def in_tree(filename):
        hit = known.get(filename)
        if hit is None:
            real = os.path.realpath(filename)
            hit = known[filename] = real in files or real.startswith(roots)
        return hit

    record = torch.autograd.profiler.record_function
    positions = {}  # code object -> its instructions' places (Python 3.11+)

    def place(frame):
        code = frame.f_code
        spans = positions.get(code)
        if spans is None:
            spans = positions[code] = list(code.co_positions()) if hasattr(code, "co_positions") else []
        i = frame.f_lasti // 2
        if i < len(spans) and None not in spans[i]:
            line, end_line, col, end_col = spans[i]
            return "%d:%d:%d:%d" % (line, col, end_line, end_col)
        return "%d:::" % frame.f_lineno

    def wrap(owner, name, kind):
        original = getattr(owner, name, None)
        if original is None or getattr(original, "_alloclint_label", False):
            return

        @functools.wraps(original)
        def labelled(*args, **kwargs):
            caller = sys._getframe(1)
            code = caller.f_code
            if not in_tree(code.co_filename):
                return original(*args, **kwargs)
            with record("alloclint.site:%s:%s:%s" % (kind, place(caller), code.co_filename)):
                return original(*args, **kwargs)

        labelled._alloclint_label = True
        setattr(owner, name, labelled)

    for name in _LABELLED_TORCH:
        wrap(torch, name, name)
    for name in _LABELLED_TENSOR:
        wrap(torch.Tensor, name, name)
    wrap(torch.Tensor, "__setitem__", "[]=")
    wrap(torch.nn.functional, "pad", "pad")


def _install_profile(out_path, paths):
    try:
        import torch
        from torch.profiler import ProfilerActivity, profile
    except Exception as e:  # no torch: nothing to profile, and say so
        sys.stderr.write("alloclint profile: cannot import torch.profiler: %s\n" % e)
        return
    activities = [ProfilerActivity.CPU]
    if torch.cuda.is_available():
        activities.append(ProfilerActivity.CUDA)
    _install_labels(paths)
    prof = profile(activities=activities, with_stack=True, record_shapes=True)
    prof.__enter__()

    def stop():
        if torch.cuda.is_available() and torch.cuda.is_initialized():
            torch.cuda.synchronize()
        prof.__exit__(None, None, None)
        target = out_path[:-3] if out_path.endswith(".gz") else out_path
        prof.export_chrome_trace(target)
        if target != out_path:
            import gzip
            import shutil

            with open(target, "rb") as src, gzip.open(out_path, "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.remove(target)

    import atexit

    atexit.register(stop)


if _MODE in ("nan", "max"):
    _install_poison()
if os.environ.get("ALLOCLINT_PROFILE"):
    _install_profile(os.environ["ALLOCLINT_PROFILE"],
                     os.environ.get("ALLOCLINT_PROFILE_PATHS", "").split(os.pathsep))
if os.environ.get("ALLOCLINT_TRACE"):
    _install_trace(os.environ["ALLOCLINT_TRACE"],
                   os.environ.get("ALLOCLINT_TRACE_PATHS", "").split(os.pathsep))
