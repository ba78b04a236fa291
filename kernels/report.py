#!/usr/bin/env python3
"""Merge the reference programs' raw JSON into results/<device>.json, a
Markdown table (<device>.md) and a plot of speedup against size
(<device>.svg). Standard library only.

usage: report.py RAW_DIR OUT_DIR [--date YYYY-MM-DD]
       report.py RESULTS.json OUT_DIR   (re-render a merged result)
       ... --rule-pages ../rules        (refresh each page's evidence block)
"""

import datetime
import glob
import json
import math
import os
import re
import sys


def load(raw):
    device = json.load(open(os.path.join(raw, "device.json")))
    programs = []
    for path in sorted(glob.glob(os.path.join(raw, "AL*.json"))):
        programs.append(json.load(open(path)))
    return device, programs


def slug(name):
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def human(nbytes):
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if nbytes >= size:
            return f"{nbytes / size:g} {unit}"
    return f"{nbytes} B"


def is_baseline(form):
    return form == "original" or form.endswith("per iteration")


def pairs(rows):
    """(rewrite, case, baseline form, target form) -> {elements: (base row, target row)}."""
    by_case = {}
    for r in rows:
        by_case.setdefault((r["rewrite"], r["case"]), []).append(r)
    out = {}
    for (rw, case), rs in by_case.items():
        forms = []
        for r in rs:
            if r["form"] not in forms:
                forms.append(r["form"])
        bases = [f for f in forms if is_baseline(f)]
        targets = [f for f in forms if not is_baseline(f)]
        for b in bases:
            for t in targets:
                series = {}
                for r in rs:
                    if r["form"] == b:
                        series.setdefault(r["elements"], [None, None])[0] = r
                    if r["form"] == t:
                        series.setdefault(r["elements"], [None, None])[1] = r
                out[(rw, case, b, t)] = {k: v for k, v in series.items() if v[0] and v[1]}
    return out


def markdown(device, date, programs):
    lines = [f"# Reference kernel results: {device['name']}", ""]
    lines.append(f"Measured {date} by `kernels/run`: GPU {device['name']} (compute capability "
                 f"{device['cc']}, {device['sms']} SMs, L2 {device['l2_bytes'] >> 20} MiB, "
                 f"{device['memory_bytes'] / 2**30:.0f} GiB), "
                 f"{'NVIDIA driver ' + device['nvidia_driver'] + ', ' if device.get('nvidia_driver') else ''}"
                 f"CUDA driver API {device['cuda_driver']}, "
                 f"runtime {device['cuda_runtime']}. Measured device-to-device copy bandwidth: "
                 f"**{device['copy_gbps']:.0f} GB/s** (bytes read + written). Times are medians "
                 "(CUDA events; host clock where allocation or host copies are part of the "
                 "pattern), inputs rotate over several buffer sets so that small sizes do not "
                 "run from a warm L2.")
    lines.append("")
    lines.append("Speedup = baseline time / rewritten time; above 1 the rewrite pays. "
                 "GB/s is the rewritten form's minimal traffic over its time.")
    lines.append("")
    rows = [r for p in programs for r in p["rows"]]
    for (rw, case, base, target), series in pairs(rows).items():
        lines.append(f"## {rw}: {case} — `{target}` vs `{base}`")
        lines.append("")
        own = program_date(programs, rw)
        if own and own != date:
            lines.append(f"Measured {own} (added to this run's tables, same GPU model).")
            lines.append("")
        lines.append("| size | elements | baseline µs | rewritten µs | speedup | GB/s (rewritten) | % of copy BW |")
        lines.append("|---:|---:|---:|---:|---:|---:|---:|")
        for n in sorted(series):
            b, t = series[n]
            sp = b["median_us"] / t["median_us"] if t["median_us"] > 0 else float("nan")
            pct = 100.0 * t["gbps"] / device["copy_gbps"] if device["copy_gbps"] else 0
            lines.append(f"| {human(t['bytes'])} | {n} | {b['median_us']:.2f} | {t['median_us']:.2f} "
                         f"| **{sp:.2f}x** | {t['gbps']:.0f} | {pct:.0f}% |")
        lines.append("")
    lines.append("## Equivalence checks")
    lines.append("")
    lines.append("Before each rewritten form runs, its output memory is poisoned (0xFF bytes: "
                 "NaN as float, -1 as int); both forms run on fresh random inputs and are "
                 "compared bit for bit. A deliberately wrong rewrite must be caught.")
    lines.append("")
    lines.append("| rewrite | check | elements | expected | result |")
    lines.append("|---|---|---:|---|---|")
    total = failed = 0
    for p in programs:
        for c in p["checks"]:
            total += 1
            failed += 0 if c["passed"] else 1
            expected = "identical" if c["expect_equal"] else "must differ"
            got = "identical" if c["equal"] else f"differ at byte {c['first_diff_byte']}"
            verdict = "pass" if c["passed"] else "**FAIL**"
            lines.append(f"| {c['rewrite']} | {c['case']} | {c['elements']} | {expected} | {got}: {verdict} |")
    lines.append("")
    lines.append(f"{total - failed} of {total} checks passed.")
    lines.append("")
    return "\n".join(lines)


COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf", "#000000", "#637939", "#f7b6d2", "#393b79",
           "#ad494a", "#6baed6"]


def svg(device, date, programs):
    rows = [r for p in programs for r in p["rows"]]
    series = []
    for (rw, case, base, target), s in pairs(rows).items():
        pts = []
        for n in sorted(s):
            b, t = s[n]
            if t["median_us"] > 0 and b["median_us"] > 0:
                pts.append((b["bytes"], b["median_us"] / t["median_us"]))
        label = f"{rw} {case}" if base == "original" and target == "rewritten" else f"{rw} {target} vs {base}"
        if pts:
            series.append((label, pts))
    if not series:
        return None
    W, H, L, R, T, B = 1100, 580, 70, 440, 40, 60
    xs = [math.log2(x) for _, pts in series for x, _ in pts]
    ys = [math.log10(y) for _, pts in series for _, y in pts]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(min(ys), -0.2), max(max(ys), 0.2)
    y0, y1 = math.floor(y0 * 2) / 2, math.ceil(y1 * 2) / 2
    px = lambda x: L + (math.log2(x) - x0) / (x1 - x0 or 1) * (W - L - R)
    py = lambda y: T + (y1 - math.log10(y)) / (y1 - y0 or 1) * (H - T - B)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{L}" y="22" font-size="15">Speedup of each rewrite against buffer size — {device["name"]}, {date}</text>']
    e = math.floor(y0)
    while e <= y1 + 1e-9:
        for m in (1, 2, 5):
            v = m * 10 ** e
            if y0 - 1e-9 <= math.log10(v) <= y1 + 1e-9:
                y = py(v)
                out.append(f'<line x1="{L}" x2="{W - R}" y1="{y:.1f}" y2="{y:.1f}" stroke="{"#555" if v == 1 else "#ddd"}"/>')
                out.append(f'<text x="{L - 6}" y="{y + 4:.1f}" text-anchor="end">{v:g}x</text>')
        e += 1
    k = math.ceil(x0)
    while k <= x1:
        x = L + (k - x0) / (x1 - x0 or 1) * (W - L - R)
        out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{T}" y2="{H - B}" stroke="#eee"/>')
        if k % 2 == 0:
            out.append(f'<text x="{x:.1f}" y="{H - B + 16}" text-anchor="middle">{human(2 ** k)}</text>')
        k += 1
    out.append(f'<text x="{(L + W - R) / 2}" y="{H - 16}" text-anchor="middle">buffer size (bytes of the main tensor)</text>')
    out.append(f'<text x="16" y="{(T + H - B) / 2}" transform="rotate(-90 16 {(T + H - B) / 2})" text-anchor="middle">speedup (baseline / rewritten, log scale)</text>')
    for i, (label, pts) in enumerate(series):
        c = COLOURS[i % len(COLOURS)]
        d = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)
        out.append(f'<polyline fill="none" stroke="{c}" stroke-width="2" points="{d}"/>')
        for x, y in pts:
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="2.5" fill="{c}"/>')
        ly = T + 14 + i * 17
        out.append(f'<line x1="{W - R + 14}" x2="{W - R + 34}" y1="{ly - 4}" y2="{ly - 4}" stroke="{c}" stroke-width="2"/>')
        out.append(f'<text x="{W - R + 40}" y="{ly}">{label}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


BEGIN, END = "<!-- evidence:begin -->", "<!-- evidence:end -->"


def program_date(programs, code):
    """The date a rule's programs carry of their own (a program measured
    after the rest and merged in), or None."""
    dates = {p.get("date") for p in programs if any(r["rewrite"] == code for r in p["rows"])}
    return dates.pop() if len(dates) == 1 else None


def evidence_block(device, date, programs, code):
    date = program_date(programs, code) or date
    rows = [r for p in programs for r in p["rows"] if r["rewrite"] == code]
    checks = [c for p in programs for c in p["checks"] if c["rewrite"] == code]
    if not rows:
        return None
    out = [BEGIN, f"Measured on an {device['name']} ({date}; CUDA driver {device['cuda_driver']}, "
                  f"copy bandwidth {device['copy_gbps']:.0f} GB/s) by `kernels/run`; full tables "
                  f"in [kernels/results](../kernels/results/{slug(device['name'])}.md).", ""]
    for (rw, case, base, target), series in pairs(rows).items():
        out.append(f"**{case}** — `{target}` against `{base}`:")
        out.append("")
        sizes = sorted(series)
        out.append("| " + " | ".join(["size"] + [human(series[n][1]["bytes"]) for n in sizes]) + " |")
        out.append("|---" * (len(sizes) + 1) + "|")
        out.append("| " + " | ".join(["speedup"] + [f"{series[n][0]['median_us'] / series[n][1]['median_us']:.2f}x" for n in sizes]) + " |")
        out.append("| " + " | ".join(["µs"] + [f"{series[n][0]['median_us']:.1f} → {series[n][1]['median_us']:.1f}" for n in sizes]) + " |")
        out.append("")
    ok = sum(1 for c in checks if c["passed"])
    wrong = [c for c in checks if not c["expect_equal"]]
    line = f"Equivalence: {ok} of {len(checks)} bit-for-bit checks passed on fresh random inputs with poisoned outputs"
    if wrong:
        caught = sum(1 for c in wrong if c["passed"])
        line += f"; the deliberately wrong rewrite was caught {caught} of {len(wrong)} times"
    out += [line + ".", END]
    return "\n".join(out)


def update_rule_pages(device, date, programs, pages_dir):
    for page in sorted(glob.glob(os.path.join(pages_dir, "AL*.md"))):
        code = os.path.basename(page)[:5]
        text = open(page).read()
        if BEGIN not in text or END not in text:
            continue
        block = evidence_block(device, date, programs, code)
        if block is None:
            continue
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        with open(page, "w") as f:
            f.write(head + block + tail)
        print(f"updated the evidence in {page}")


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    raw, outdir = argv[1], argv[2]
    date = argv[argv.index("--date") + 1] if "--date" in argv else datetime.date.today().isoformat()
    if raw.endswith(".json"):
        merged = json.load(open(raw))
        device, programs, date = merged["device"], merged["programs"], merged["date"]
    else:
        device, programs = load(raw)
    os.makedirs(outdir, exist_ok=True)
    name = slug(device["name"])
    merged = dict(device=device, date=date, programs=programs)
    with open(os.path.join(outdir, name + ".json"), "w") as f:
        json.dump(merged, f, indent=1)
    with open(os.path.join(outdir, name + ".md"), "w") as f:
        f.write(markdown(device, date, programs))
    plot = svg(device, date, programs)
    if plot:  # none in --check runs, which time nothing
        with open(os.path.join(outdir, name + ".svg"), "w") as f:
            f.write(plot)
    if "--rule-pages" in argv:
        update_rule_pages(device, date, programs, argv[argv.index("--rule-pages") + 1])
    failed = sum(1 for p in programs for c in p["checks"] if not c["passed"])
    print(f"wrote {name}.json, {name}.md, {name}.svg in {outdir}; {failed} failed checks")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
