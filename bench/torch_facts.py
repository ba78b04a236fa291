"""What torch does in the cases alloclint's fix tiers rest on, checked on a
real device (run it where torch has CUDA; the CPU-only cases run anywhere):
each line is a premise of a rule, the code that tests it, and what
happened. Prints JSON; bench/results/torch_facts_<device>.json keeps runs.

Usage: torch_facts.py [OUT_JSON]
"""
import json
import sys

import torch

dev = "cuda" if torch.cuda.is_available() else "cpu"


def outcome(fn):
    try:
        fn()
        if dev == "cuda":
            torch.cuda.synchronize()
        return "ran"
    except Exception as e:
        return "raised %s: %s" % (type(e).__name__, str(e).splitlines()[0][:120])


def grad_input():
    return torch.rand(5, device=dev, requires_grad=True)


def inference_tensor():
    with torch.inference_mode():
        return torch.ones(4, device=dev)


FACTS = [
    # AL501 leaves these alone: device= cannot replace the host allocation.
    ("AL501", "a pinned factory given a device raises",
     lambda: torch.zeros(4, pin_memory=True, device=dev)),
    ("AL501", "a factory writing a host out= buffer given a device raises",
     lambda: torch.zeros(4, out=torch.empty(4), device=dev)),
    # AL201: the buffer form's out= and autograd.
    ("AL201", "cumsum with out= of an input that requires grad raises",
     lambda: torch.cumsum(grad_input(), 0, dtype=torch.float32,
                          out=torch.empty(5, device=dev))),
    ("AL201", "an integer cumsum of an input that requires grad raises without out= too",
     lambda: torch.cumsum(grad_input(), 0, dtype=torch.int32)),
    # AL401: in-place updates that raise where the out-of-place form runs.
    ("AL401", "an in-place update of an expanded view raises",
     lambda: torch.zeros(1, 4, device=dev).expand(3, 4).add_(1)),
    ("AL401", "an in-place update of an inference tensor under no_grad raises",
     lambda: _under_no_grad(lambda: inference_tensor().mul_(2))),
    ("AL401", "an in-place update of an inference tensor inside inference_mode runs",
     lambda: _under_inference(lambda: inference_tensor().mul_(2))),
    ("AL401", "an in-place update of a saved exp result breaks backward",
     lambda: _saved_then_updated()),
    ("AL401", "an in-place update on the current stream changes what another stream's "
              "queued work reading the tensor computes (8192x8192 matmul, 5 tries)",
     lambda: _side_stream_race()),
    # AL204: out= under autograd.
    ("AL204", "an elementwise op with out= of an input that requires grad raises",
     lambda: torch.cos(grad_input(), out=torch.empty(5, device=dev))),
]


def _side_stream_race():
    """Raises when the side stream's result differs from the same work done
    with nothing written meanwhile; runs (no difference seen) otherwise.
    CUDA only."""
    if dev != "cuda":
        raise RuntimeError("needs CUDA")
    for _ in range(5):
        y = torch.rand(8192, 8192, device=dev)
        want = (y @ y).sum()
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            got = (y @ y).sum()
        y.mul_(0)  # the in-place form of `y = y * 0`
        torch.cuda.synchronize()
        if not torch.equal(want, got):
            raise RuntimeError("the side stream computed %.6g, %.6g with y unchanged"
                               % (got.item(), want.item()))


def _under_no_grad(fn):
    with torch.no_grad():
        fn()


def _under_inference(fn):
    with torch.inference_mode():
        fn()


def _saved_then_updated():
    x = grad_input()
    y = torch.exp(x)
    z = y * 2
    with torch.no_grad():
        y.add_(1)
    z.sum().backward()


def write_result(result):
    """Prints result as JSON, and writes it to the file named on the
    command line, if any."""
    text = json.dumps(result, indent=1)
    print(text)
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w", encoding="utf-8") as f:
            f.write(text + "\n")


def main():
    rows = [{"rule": r, "premise": p, "outcome": outcome(f)} for r, p, f in FACTS]
    write_result({"torch": torch.__version__,
                  "device": torch.cuda.get_device_name() if dev == "cuda" else "cpu", "facts": rows})


if __name__ == "__main__":
    main()
