"""Peak device memory of the rewrites that save memory, not time (issue 30):

  AL205 list-then-stack   64 experts' weights converted and transposed one
                          by one, appended to a list and stacked, against
                          one preallocated result written slice by slice;
  AL205 gathered          the same experts' rows gathered by a permutation
                          and made fp32 (`w[e][idx].float()`), stacked,
                          against alloclint's fix: the result made from the
                          first element, each element copied into its row;
  AL205 views             views of a tensor held anyway (`w[e].t()`),
                          stacked, against a preallocated result: the list
                          holds no memory of its own, so alloclint does not
                          report it;
  AL401 in-place          a residual chain `x = x + f(x)` over L layers,
                          against `x += f(x)`.

Measured with torch.cuda.max_memory_allocated() around each form, after
emptying the cache, so a figure is the bytes PyTorch's allocator had handed
out at the peak (inputs included; the other form's result is moved to the
host first, so it is not counted). Each pair is also checked to compute the
same bits, and timed (median of 5 runs after one warm-up, CUDA events).
`--check` runs small sizes only; `--json PATH` writes the rows."""

import json
import sys

from pairs import require_gpu, same_bits

require_gpu()

import torch  # noqa: E402


def peak(fn):
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    out = fn()
    torch.cuda.synchronize()
    return out, torch.cuda.max_memory_allocated(), base


def millis(fn):
    fn()
    times = []
    for _ in range(5):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[2]


def pair(rewrite, case, result_bytes, original, rewritten):
    """Both forms' peaks, the first's result moved to the host before the
    second runs (so it is not counted), whether they agree, and their
    times."""
    a, pa, base = peak(original)
    a = a.cpu()
    b, pb, _ = peak(rewritten)
    b = b.cpu()
    return {"rewrite": rewrite, "case": case, "inputs_MiB": base / 2**20,
            "result_MiB": result_bytes / 2**20, "original_peak_MiB": pa / 2**20,
            "rewritten_peak_MiB": pb / 2**20, "same_bits": same_bits(a, b),
            "original_ms": millis(original), "rewritten_ms": millis(rewritten)}


def experts_list(weights):
    mats = []
    for e in range(len(weights)):
        mats.append(weights[e].float().t())
    return torch.stack(mats)


def experts_prealloc(weights):
    n, (rows, cols) = len(weights), weights[0].shape
    out = torch.empty((n, cols, rows), dtype=torch.float32, device=weights[0].device)
    for e in range(n):
        out[e].copy_(weights[e].t())
    return out


def gathered_list(w, idx):
    rows = []
    for e in range(w.shape[0]):
        rows.append(w[e][idx].float())
    return torch.stack(rows)


def gathered_first_element(w, idx):
    # alloclint's AL205 fix, as it writes it.
    for e in range(w.shape[0]):
        row = w[e][idx].float()
        if e == 0:
            rows = row.new_empty((w.shape[0], *row.shape))
        rows[e] = row
    return rows


def views_list(w):
    mats = []
    for e in range(w.shape[0]):
        mats.append(w[e].t())
    return torch.stack(mats)


def views_prealloc(w):
    n, rows, cols = w.shape
    out = torch.empty((n, cols, rows), dtype=w.dtype, device=w.device)
    for e in range(n):
        out[e] = w[e].t()
    return out


def residual_out_of_place(x, ws):
    for w in ws:
        x = x + torch.tanh(x @ w)
    return x


def residual_in_place(x, ws):
    for w in ws:
        x += torch.tanh(x @ w)
    return x


def scale_out_of_place(x, scales):
    for s in scales:
        x = x * s
        x = x + 1.0
    return x


def scale_in_place(x, scales):
    for s in scales:
        x *= s
        x += 1.0
    return x


def main(argv):
    check = "--check" in argv
    out_path = argv[argv.index("--json") + 1] if "--json" in argv else None
    rows = []
    torch.manual_seed(0)
    with torch.inference_mode():
        # 64 experts of a 2048 x 1408 bf16 projection (a DeepSeek-style
        # MoE layer's down projection), made fp32 and transposed.
        n_exp, r, c = (8, 64, 32) if check else (64, 2048, 1408)
        weights = [torch.randn(r, c, device="cuda", dtype=torch.bfloat16) for _ in range(n_exp)]
        rows.append(pair("AL205", f"{n_exp} experts {r}x{c} bf16 -> fp32, stacked", n_exp * r * c * 4,
                         lambda: experts_list(weights), lambda: experts_prealloc(weights)))
        del weights
        # The same shapes in one tensor: rows gathered by a permutation.
        w = torch.randn(n_exp, r, c, device="cuda", dtype=torch.bfloat16)
        idx = torch.randperm(r, device="cuda")
        rows.append(pair("AL205", f"{n_exp} experts {r}x{c} bf16, rows gathered, fp32",
                         n_exp * r * c * 4, lambda: gathered_list(w, idx),
                         lambda: gathered_first_element(w, idx)))
        rows.append(pair("AL205", f"{n_exp} experts {r}x{c} bf16, transposed views",
                         n_exp * r * c * 2, lambda: views_list(w), lambda: views_prealloc(w)))
        del w, idx
        # A residual chain of L layers over tokens x hidden bf16.
        tokens, hidden, layers = (64, 128, 4) if check else (8192, 4096, 8)
        x0 = torch.randn(tokens, hidden, device="cuda", dtype=torch.bfloat16)
        ws = [torch.randn(hidden, hidden, device="cuda", dtype=torch.bfloat16) / hidden**0.5
              for _ in range(layers)]
        rows.append(pair("AL401", f"residual chain, {layers} layers, {tokens}x{hidden} bf16",
                         tokens * hidden * 2, lambda: residual_out_of_place(x0.clone(), ws),
                         lambda: residual_in_place(x0.clone(), ws)))
        # Elementwise steps alone (`h = h * normalizer`, `x = x + bias`):
        # no larger temporary of a matmul hides the copy.
        scales = [0.5, 1.5, 0.75, 1.25]
        rows.append(pair("AL401", f"scale and shift, 4 steps, {tokens}x{hidden} bf16",
                         tokens * hidden * 2, lambda: scale_out_of_place(x0.clone(), scales),
                         lambda: scale_in_place(x0.clone(), scales)))
    ok = all(rw["same_bits"] for rw in rows)
    dev = torch.cuda.get_device_name()
    print(f"peak device memory on {dev} (torch {torch.__version__})")
    print("| rewrite | case | inputs MiB | result MiB | original peak MiB | rewritten peak MiB | "
          "peak above inputs: original / rewritten | ms: original / rewritten | same bits |")
    print("|---|---|---|---|---|---|---|---|---|")
    for rw in rows:
        above_a = rw["original_peak_MiB"] - rw["inputs_MiB"]
        above_b = rw["rewritten_peak_MiB"] - rw["inputs_MiB"]
        print(f"| {rw['rewrite']} | {rw['case']} | {rw['inputs_MiB']:.0f} | {rw['result_MiB']:.0f} | "
              f"{rw['original_peak_MiB']:.0f} | {rw['rewritten_peak_MiB']:.0f} | "
              f"{above_a:.0f} / {above_b:.0f} | {rw['original_ms']:.2f} / {rw['rewritten_ms']:.2f} | "
              f"{rw['same_bits']} |")
    if out_path:
        with open(out_path, "w") as fh:
            json.dump({"device": dev, "torch": torch.__version__, "rows": rows}, fh, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
