#!/usr/bin/env python3
"""Batched-matmul benchmark (issue 24 item 3: batched matmul on wgmma + TMA) on the GPU:
attention's two batched products (scripts/make-bmm-bench.sh: scores = Q @ K^T and
P @ V, f16, B = batch x heads), tt's defaults (TMA boxes, wgmma; --tile=tma-batched=1)
and _regs (tma-batched=0: operands staged through registers) against cuBLAS (torch.bmm)
in the same run.

Timing as bench_odd.py: tt is `tt-run --no-check --batch`; torch.bmm's calls are captured
20 to a CUDA graph and replayed (benchlib.bench_batched). Floor: the larger of the bytes of
A, B and C once at this run's copy rate and the flops at 989 TFLOP/s (dense f16 on an H100
or H200 SXM). Cases small enough for tt-run's float64 reference (<= 2^30 multiply-adds)
are also run once checked against it (column "check").

Usage: bench_bmm.py TT_RUN CASEDIR [--out FILE.md]
"""
import argparse, datetime, os, re, subprocess, sys
import torch
from benchlib import bench_batched, copy_bandwidth, tt_median

PEAK = 989e12  # dense f16 flop/s, H100 / H200 SXM

def cases(casedir):
    """(kind, B, M, N, K) in file-name order, for names like scores_8x512x512x64.ptx."""
    out = []
    for n in sorted(os.listdir(casedir)):
        m = re.match(r"(scores|pv)_(\d+)x(\d+)x(\d+)x(\d+)\.ptx$", n)
        if m:
            out.append((m.group(1), *(int(v) for v in m.groups()[1:])))
    return out

def checked(tt_run, ptx):
    r = subprocess.run([tt_run, "--seed", "7", ptx], capture_output=True, text=True, timeout=600)
    return "PASS" if r.returncode == 0 else f"FAIL ({(r.stdout + r.stderr).strip()[-120:]})"

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tt_run"); ap.add_argument("casedir"); ap.add_argument("--out")
    a = ap.parse_args()
    bw = copy_bandwidth()
    lines = [f"# batched matmul (attention products), {torch.cuda.get_device_name()}, "
             f"{datetime.date.today()}",
             f"copy rate {bw:.0f} GB/s; times in us; ratios: cuBLAS time / tt time",
             "", "| product | B x M x N x K | tt | tt regs | cuBLAS bmm | cuBLAS / tt | "
             "cuBLAS / tt regs | tt TFLOP/s | % floor | check |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    fmt = lambda t: "n/a" if t is None else f"{t:.1f}"
    ratio = lambda p, q: "n/a" if p is None or q is None else f"{p / q:.2f}x"
    geo, count = 1.0, 0
    for kind, b, m, n, k in cases(a.casedir):
        name = f"{kind}_{b}x{m}x{n}x{k}"
        ptx, regs = (os.path.join(a.casedir, f"{name}{s}.ptx") for s in ("", "_regs"))
        t_tt, why = tt_median(a.tt_run, ptx, batch=True)
        if t_tt is None:
            print(f"  {name}: {why}", file=sys.stderr)
        t_regs = tt_median(a.tt_run, regs, batch=True)[0] if os.path.exists(regs) else None
        x = torch.randn(b, m, k, device="cuda", dtype=torch.float16)
        w = torch.randn(b, n, k, device="cuda", dtype=torch.float16) if kind == "scores" \
            else torch.randn(b, k, n, device="cuda", dtype=torch.float16)
        f = (lambda: torch.bmm(x, w.transpose(1, 2))) if kind == "scores" else (lambda: torch.bmm(x, w))
        t_cb = bench_batched(f)
        del x, w
        flops = 2.0 * b * m * n * k
        floor = max(2 * b * (m * k + n * k + m * n) / bw / 1e3, flops / PEAK * 1e6)
        chk = checked(a.tt_run, ptx) if b * m * n * k <= 1 << 30 else "-"
        if t_tt:
            geo *= t_cb / t_tt
            count += 1
        lines.append(f"| {kind} | {b} x {m} x {n} x {k} | {fmt(t_tt)} | {fmt(t_regs)} | "
                     f"{t_cb:.1f} | {ratio(t_cb, t_tt)} | {ratio(t_cb, t_regs)} | "
                     f"{'n/a' if not t_tt else f'{flops / t_tt / 1e6:.0f}'} | "
                     f"{'n/a' if not t_tt else f'{100 * floor / t_tt:.0f}%'} | {chk} |")
        print(lines[-1], flush=True)
    if count:
        lines += ["", f"geometric mean cuBLAS / tt over {count} cases: {geo ** (1 / count):.2f}x"]
        print(lines[-1])
    if a.out:
        open(a.out, "w").write("\n".join(lines) + "\n")

if __name__ == "__main__":
    main()
