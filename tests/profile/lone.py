"""Each measured site of toyengine run alone, many times, under
torch.profiler: the mean GPU time per call of the kernels it launches,
for comparison with what alloclint attributes to that site in a trace of
the whole workload (bench/profile_evidence.py).

    python lone.py OUT.json [--repeat N]
"""
import argparse
import json
import os
import tempfile

import torch
from torch.profiler import ProfilerActivity, profile


def sites(device):
    """name -> (a function running the site's statement once, the site's
    place as alloclint reports it). Shapes and dtypes are drive.py's."""
    seq_lens = torch.randint(1, 512, (128,), dtype=torch.int32, device=device)
    hidden16 = torch.randn(128, 1024, device=device, dtype=torch.float16)
    zero1 = torch.zeros(1, dtype=torch.int32, device=device)
    sums = torch.cumsum(seq_lens, dim=0, dtype=torch.int32)
    hidden = torch.randn(4096, 1024, device=device, dtype=torch.bfloat16)
    weight = torch.randn(8192, 1024, device=device, dtype=torch.bfloat16)
    logits = torch.randn(1024, 8192, device=device, dtype=torch.bfloat16)
    hidden_chunk = torch.randn(1024, 1024, device=device, dtype=torch.bfloat16)
    x = torch.randn(1 << 22, device=device)
    static_out = torch.zeros(64, 1024, device=device, dtype=torch.float16)
    return {
        "decode positions zeros": (lambda: torch.zeros(128, dtype=torch.int64, device=device),
                                   "toyengine/decode.py:16"),
        "decode cu_seqlens cat": (lambda: torch.cat([zero1, sums]), "toyengine/decode.py:19"),
        "decode slots zeros().to()": (lambda: torch.zeros(128, dtype=torch.int64).to(device),
                                      "toyengine/decode.py:29"),
        "decode out zeros_like": (lambda: torch.zeros_like(hidden16), "toyengine/decode.py:36"),
        "loss grad_hidden zeros_like": (lambda: torch.zeros_like(hidden), "toyengine/loss.py:10"),
        "loss grad_weight zeros_like": (lambda: torch.zeros_like(weight), "toyengine/loss.py:12"),
        "loss logits.float()": (lambda: logits.float(), "toyengine/loss.py:17"),
        # As in the loss: its input just written by the matmul (in L2); the
        # matmul's own kernels are not counted.
        "loss logits.float() after its matmul": (
            lambda: (hidden_chunk @ weight.t()).float(), "toyengine/loss.py:17"),
        "triton out zeros_like": (lambda: torch.zeros_like(x), "toyengine/kernels.py:19"),
        "graph scratch zeros_like": (lambda: torch.zeros_like(static_out),
                                     "toyengine/graphs.py:25"),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--repeat", type=int, default=200)
    args = ap.parse_args()
    results = {}
    for name, (run, place) in sites("cuda").items():
        for _ in range(10):
            run()
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            for _ in range(args.repeat):
                run()
            torch.cuda.synchronize()
        # The kernels, memsets and memcopies of the trace, as alloclint reads them.
        fd, path = tempfile.mkstemp(suffix=".json")
        os.close(fd)
        prof.export_chrome_trace(path)
        with open(path) as f:
            events = json.load(f)["traceEvents"]
        os.remove(path)
        gemm = ("gemm", "nvjet", "cutlass", "sm90_xmma")
        gpu_us = sum(e.get("dur", 0) for e in events
                     if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")
                     and not any(g in e.get("name", "") for g in gemm))
        results[name] = {"place": place, "repeat": args.repeat,
                         "gpu_us_per_call": gpu_us / args.repeat}
    with open(args.out, "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
