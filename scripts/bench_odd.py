#!/usr/bin/env python3
"""Odd-shape GEMM benchmark (issue 24, "no alignment cliffs") on the GPU: linear layers
y = x @ w^T, f16 and fp8 (e4m3 torch._scaled_mm, f16 out), at odd (M, N, K) and at each
one's aligned neighbour (scripts/make-odd-bench.sh), tt against cuBLAS (torch.matmul;
torch._scaled_mm, which refuses K or N off a multiple of 16: n/a) in the same run; and the issue's first
row, linear + bias + GELU(tanh) 7 x 1000 x 4100, against eager and torch.compile.

Timing as bench_gemm.py's default: tt is `tt-run --no-check --batch` (its launches back to
back between one event pair, their mean); the peers' calls are captured 20 to a CUDA graph
and replayed (benchlib.bench_batched). Floor: the bytes of A, B and C once at this run's
copy rate. A BEFORE folder (the same cases from an earlier compiler) adds a "before" column.

Usage: bench_odd.py TT_RUN CASEDIR [BEFOREDIR] [--out FILE.md]
"""
import argparse, datetime, os, re, sys
import torch
import torch.nn.functional as F
from benchlib import bench_batched, copy_bandwidth, tt_median

def shapes(casedir):
    """(dtype, odd (M, N, K), aligned (M, N, K)) in make-odd-bench.sh's order."""
    got = set()
    for name in sorted(os.listdir(casedir)):
        g = re.match(r"(f16|fp8)_(\d+)x(\d+)x(\d+)\.ptx$", name)
        if g:
            got.add((g.group(1),) + tuple(int(v) for v in g.groups()[1:]))
    pairs = []
    for dt, m, n, k in sorted(got, key=lambda c: (c[0] != "f16",) + c[1:]):
        am, an, ak = (m + 7) // 8 * 8, max(64, (n + 32) // 64 * 64), max(64, (k + 32) // 64 * 64)
        if (am, an, ak) != (m, n, k) and (dt, am, an, ak) in got:
            pairs.append((dt, (m, n, k), (am, an, ak)))
    return pairs

def cublas(dt, m, n, k):
    """cuBLAS's time for the shape: torch.matmul (f16) or torch._scaled_mm (fp8, f16 out;
    None where it refuses the shape)."""
    if dt == "f16":
        x = torch.randn(m, k, device="cuda", dtype=torch.float16)
        w = torch.randn(n, k, device="cuda", dtype=torch.float16)
        return bench_batched(lambda: torch.matmul(x, w.t()))
    x = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
    w = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)
    one = torch.ones((), device="cuda")
    f = lambda: torch._scaled_mm(x, w.t(), scale_a=one, scale_b=one, out_dtype=torch.float16)
    try:
        f()
    except RuntimeError:
        return None
    return bench_batched(f)

def tt(tt_run, folder, name):
    if not folder:
        return None
    t, why = tt_median(tt_run, os.path.join(folder, name), batch=True)
    if t is None:
        print(f"  {name}: {why}", file=sys.stderr)
    return t

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tt_run"); ap.add_argument("casedir"); ap.add_argument("before", nargs="?")
    ap.add_argument("--out")
    a = ap.parse_args()
    bw = copy_bandwidth()
    lines = [f"# odd-shape GEMMs, {torch.cuda.get_device_name()}, {datetime.date.today()}",
             f"copy rate {bw:.0f} GB/s; times in us; ratios: peer or aligned time / tt odd time",
             "", "| dtype | M x N x K | tt odd | tt before | tt aligned (shape) | odd / aligned | "
             "cuBLAS odd | cuBLAS / tt | % floor |", "|---|---|---|---|---|---|---|---|---|"]
    fmt = lambda t: "n/a" if t is None else f"{t:.1f}"
    for dt, (m, n, k), (am, an, ak) in shapes(a.casedir):
        name, aname = f"{dt}_{m}x{n}x{k}.ptx", f"{dt}_{am}x{an}x{ak}.ptx"
        t_odd, t_al, t_before = tt(a.tt_run, a.casedir, name), tt(a.tt_run, a.casedir, aname), \
            tt(a.tt_run, a.before, name)
        t_cb = cublas(dt, m, n, k)
        eb = 2 if dt == "f16" else 1
        floor = (eb * (m * k + n * k) + 2 * m * n) / bw / 1e3
        ratio = lambda p, q: "n/a" if p is None or q is None else f"{p / q:.2f}x"
        lines.append(f"| {dt} | {m} x {n} x {k} | {fmt(t_odd)} | {fmt(t_before)} | {fmt(t_al)} "
                     f"({am}x{an}x{ak}) | {ratio(t_al, t_odd)} | {fmt(t_cb)} | "
                     f"{ratio(t_cb, t_odd)} | {'n/a' if t_odd is None else f'{100 * floor / t_odd:.0f}%'} |")
        print(lines[-1], flush=True)
    # the first row
    x = torch.randn(7, 4100, device="cuda", dtype=torch.float16)
    w = torch.randn(1000, 4100, device="cuda", dtype=torch.float16) * 0.02
    b = torch.randn(1000, device="cuda", dtype=torch.float16)
    f = lambda x, w, b: F.gelu(F.linear(x, w, b), approximate="tanh")
    comp = torch.compile(f)
    t_tt = tt(a.tt_run, a.casedir, "bias_gelu_7x1000x4100.ptx")
    t_before = tt(a.tt_run, a.before, "bias_gelu_7x1000x4100.ptx")
    t_e, t_c = bench_batched(lambda: f(x, w, b)), bench_batched(lambda: comp(x, w, b))
    lines += ["", "| linear + bias + gelu(tanh) 7 x 1000 x 4100 f16 | tt | tt before | eager | "
              "torch.compile | eager / tt | torch.compile / tt |", "|---|---|---|---|---|---|---|",
              f"| | {fmt(t_tt)} | {fmt(t_before)} | {t_e:.1f} | {t_c:.1f} | "
              f"{t_e / t_tt:.2f}x | {t_c / t_tt:.2f}x |" if t_tt else "| | n/a |"]
    print("\n".join(lines[-3:]))
    if a.out:
        open(a.out, "w").write("\n".join(lines) + "\n")

if __name__ == "__main__":
    main()
