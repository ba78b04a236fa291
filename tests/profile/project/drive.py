"""Runs one of toyengine's workloads on the GPU for a few steps.

    python drive.py WORKLOAD [--steps N] [--trace FILE]

WORKLOAD: decode, loss, triton, graph. With --trace the steps run under
plain torch.profiler (with_stack, record_shapes) and the Chrome trace is
written to FILE; without it, under `alloclint profile`, the run-time
companion records the trace.
"""
import argparse
import contextlib

import torch

from toyengine import decode, graphs, loss


def decode_workload(steps, device):
    torch.manual_seed(0)
    builder = decode.DecodeMetadataBuilder(256, 64, 16, device)
    weight = torch.randn(1024, 1024, device=device, dtype=torch.float16)
    hidden = torch.randn(128, 1024, device=device, dtype=torch.float16)
    seq_lens = torch.randint(1, 512, (128,), dtype=torch.int32, device=device)
    block_tables = [list(range(i % 7 + 1)) for i in range(128)]

    def step():
        decode.decode_step(builder, weight, hidden, seq_lens, block_tables)

    return step


def loss_workload(steps, device):
    torch.manual_seed(0)
    hidden = torch.randn(4096, 1024, device=device, dtype=torch.bfloat16)
    weight = torch.randn(8192, 1024, device=device, dtype=torch.bfloat16)
    target = torch.randint(0, 8192, (4096,), device=device)

    def step():
        loss.chunked_linear_cross_entropy(hidden, weight, target, 1024)

    return step


def triton_workload(steps, device):
    from toyengine import kernels

    x = torch.randn(1 << 22, device=device)
    y = torch.randn(1 << 22, device=device)

    def step():
        kernels.silu_mul(x, y)

    return step


def graph_workload(steps, device):
    weight = torch.randn(1024, 1024, device=device, dtype=torch.float16)
    runner = graphs.GraphRunner(weight, 64)
    runner.capture()
    x = torch.randn(64, 1024, device=device, dtype=torch.float16)

    def step():
        runner.replay(x)
        # One eager step beside the replays: its kernels are visible.
        runner._step()

    return step


WORKLOADS = {"decode": decode_workload, "loss": loss_workload, "triton": triton_workload,
             "graph": graph_workload}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("workload", choices=sorted(WORKLOADS))
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--trace")
    args = ap.parse_args()
    step = WORKLOADS[args.workload](args.steps, "cuda")
    for _ in range(2):  # warm up: allocator, kernels compiled
        step()
    torch.cuda.synchronize()
    prof = contextlib.nullcontext()
    if args.trace:
        from torch.profiler import ProfilerActivity, profile

        prof = profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                       with_stack=True, record_shapes=True)
    with prof as p:
        for _ in range(args.steps):
            step()
        torch.cuda.synchronize()
    if args.trace:
        p.export_chrome_trace(args.trace)


if __name__ == "__main__":
    main()
