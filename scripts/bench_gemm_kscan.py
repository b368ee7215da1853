#!/usr/bin/env python3
"""K scan of the GEMM benchmark on the GPU: tt (the PTX of scripts/make-gemm-kscan.sh) and
cuBLAS (torch.matmul f16; torch._scaled_mm e4m3, best of use_fast_accum off/on) at M x N x K
for each K in CASEDIR, all timed like tt-run (benchlib.bench_queued, medians). A straight
line through time against the bytes read splits each kernel's time into a streaming rate
(the slope, in GB/s, against the copy rate measured in the same run) and a fixed cost per
launch (the intercept, us): the part of the bandwidth floor's gap that no K loop removes.

Usage: bench_gemm_kscan.py TT_RUN CASEDIR [--out FILE.md] [--runs R]
"""
import argparse, datetime, os, re
import torch
from benchlib import bench_queued, copy_bandwidth, scaled_mm_time, tt_median

def cublas_times(M, N, K, runs):
    """cuBLAS f16 (torch.matmul) and fp8 (benchlib.scaled_mm_time) at M x N x K, us."""
    x = torch.rand(M, K, device="cuda").mul_(2).sub_(1).half()
    w = torch.rand(N, K, device="cuda").mul_(2).sub_(1).half()
    y, wt = torch.empty(M, N, device="cuda", dtype=torch.float16), w.t()
    t16 = bench_queued(lambda: torch.matmul(x, wt, out=y), runs=runs)
    return t16, scaled_mm_time(x, w, runs, 10)[0]

def fmt(t):
    return "n/a" if t is None else f"{t:.1f}"

def fit(points):  # least squares t = a + bytes / rate: (a us, rate GB/s)
    n = len(points)
    if n < 2 or any(t is None for _, t in points):
        return None, None
    sx = sum(b for b, _ in points); sy = sum(t for _, t in points)
    sxx = sum(b * b for b, _ in points); sxy = sum(b * t for b, t in points)
    slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)  # us per byte
    return (sy - slope * sx) / n, 1e-3 / slope

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tt_run"); ap.add_argument("casedir")
    ap.add_argument("--out"); ap.add_argument("--runs", type=int, default=100)
    a = ap.parse_args()
    cases = {}
    for f in sorted(os.listdir(a.casedir)):
        m = re.fullmatch(r"(f16|f8e4m3)_(\d+)x(\d+)x(\d+)\.ptx", f)
        if m:
            cases.setdefault((int(m.group(2)), int(m.group(3))), []).append(
                (m.group(1), int(m.group(4)), os.path.join(a.casedir, f)))
    bw = copy_bandwidth()
    lines = [f"# GEMM K scan, {datetime.date.today()}, {torch.cuda.get_device_name()}",
             f"copy bandwidth (1 GiB copy): {bw:.0f} GB/s; torch {torch.__version__}; medians of "
             f"{a.runs} runs, launches enqueued back to back (tt-run --no-check, benchlib.bench_queued)\n",
             "Fit: time = fixed + bytes / rate over the K column (bytes: A, B and C once).\n",
             "| dtype | M | N | K | tt (us) | cuBLAS (us) | floor (us) |", "|---|---|---|---|---|---|---|"]
    fits = []
    for (M, N), lst in sorted(cases.items()):
        for dt in ("f16", "f8e4m3"):
            pts_tt, pts_cb = [], []
            for d, K, ptx in sorted(c for c in lst if c[0] == dt):
                eb = 2 if dt == "f16" else 1
                nbytes = eb * (M * K + N * K) + 2 * M * N
                t = tt_median(a.tt_run, ptx, a.runs)[0]
                t16, t8 = cublas_times(M, N, K, a.runs)
                tc = t16 if dt == "f16" else t8
                pts_tt.append((nbytes, t)); pts_cb.append((nbytes, tc))
                lines.append(f"| {dt} | {M} | {N} | {K} | {fmt(t)} | {fmt(tc)} | "
                             f"{nbytes / bw / 1e3:.1f} |")
            for who, pts in (("tt", pts_tt), ("cuBLAS", pts_cb)):
                fixed, rate = fit(pts)
                if fixed is not None:
                    fits.append(f"| {dt} | {M} | {N} | {who} | {fixed:.1f} | {rate:.0f} | "
                                f"{100 * rate / bw:.0f}% |")
    lines += ["", "| dtype | M | N | kernel | fixed cost (us) | streaming rate (GB/s) | of copy rate |",
              "|---|---|---|---|---|---|---|"] + fits
    print("\n".join(lines))
    if a.out:
        with open(a.out, "w") as f:
            f.write("\n".join(lines) + "\n")

if __name__ == "__main__":
    main()
