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
#       paths), written to FILE at exit.
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

    def dump():
        with open(out_path, "a", encoding="utf-8") as f:
            for fn, line in sorted(seen):
                f.write("%s:%d\n" % (os.path.realpath(fn), line))

    import atexit
    import threading

    atexit.register(dump)
    threading.settrace(tracer)
    sys.settrace(tracer)


if _MODE in ("nan", "max"):
    _install_poison()
if os.environ.get("ALLOCLINT_TRACE"):
    _install_trace(os.environ["ALLOCLINT_TRACE"],
                   os.environ.get("ALLOCLINT_TRACE_PATHS", "").split(os.pathsep))
