#!/usr/bin/env python3
"""Decode GEMMs timed warm and cold (issue 24 item 6), tt against cuBLAS in the same run.

In a model each layer reads its own weights, so a weight that fits the L2 cache (50 MB on
an H100/H200) is not in it when its layer runs. Warm: the same weight back to back (as the
earlier GEMM tables). Cold: N copies of the inputs, N = ceil(2 x 50 MB / the weight's
bytes) (at least 2, at most 64), used in turn: tt through `tt-run --cold N`, cuBLAS
(torch.matmul) through a CUDA graph of 20 calls cycling over the copies. Timing otherwise
as bench_gemm.py's default: tt `--batch` (the runs back to back between one event pair),
cuBLAS 20 calls per graph replay. Floor: the bytes of x, w and y once at this run's copy
rate; "% floor" is read on the cold column.

Cases: scripts/make-cold-bench.sh (<dtype>_<M>x<N>x<K>.ptx, dtype f16, bf16 or fp8; the
peer of fp8 is torch._scaled_mm with f32 scales and a bf16 result, its weight bytes one
per element). Usage: bench_cold.py TT_RUN CASEDIR [--out FILE.md]
"""
import argparse, datetime, math, os, re, sys
import torch
from benchlib import copy_bandwidth, cublas_linear, tt_median

L2 = 50 << 20

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tt_run"); ap.add_argument("casedir"); ap.add_argument("--out")
    a = ap.parse_args()
    bw = copy_bandwidth()
    cases = []
    for name in os.listdir(a.casedir):
        m = re.match(r"(f16|bf16|fp8)_(\d+)x(\d+)x(\d+)\.ptx$", name)
        if m:
            cases.append((m.group(1),) + tuple(int(v) for v in m.groups()[1:]))
    lines = [f"# decode GEMMs warm and cold, {torch.cuda.get_device_name()}, {datetime.date.today()}",
             f"copy rate {bw:.0f} GB/s; times in us; ratio = cuBLAS time / tt time", "",
             "| dtype | M x N x K | weight MB | copies | tt warm | tt cold | cuBLAS warm | cuBLAS cold | "
             "ratio warm | ratio cold | % floor cold |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    print("\n".join(lines), flush=True)
    ratios = {}
    for t, m, n, k in sorted(cases, key=lambda c: (c[0], c[2] * c[3], c[1])):
        eb = 1 if t == "fp8" else 2
        wbytes = eb * n * k
        copies = max(2, min(64, math.ceil(2 * L2 / wbytes)))
        ptx = os.path.join(a.casedir, f"{t}_{m}x{n}x{k}.ptx")
        warm, why = tt_median(a.tt_run, ptx, batch=True)
        cold, why2 = tt_median(a.tt_run, ptx, batch=True, extra=("--cold", str(copies)))
        if warm is None or cold is None:
            print(f"  {ptx}: {why or why2}", file=sys.stderr)
        cb_warm, cb_cold = cublas_linear(t, m, n, k, copies)
        floor = (eb * (m * k + n * k) + 2 * m * n) / bw / 1e3
        f = lambda t: "n/a" if t is None else f"{t:.1f}"
        r = lambda p, q: "n/a" if q is None else f"{p / q:.2f}x"
        if cold:
            ratios.setdefault(t, []).append(cb_cold / cold)
        lines.append(f"| {t} | {m} x {n} x {k} | {wbytes / 1e6:.0f} | {copies} | {f(warm)} | {f(cold)} | "
                     f"{cb_warm:.1f} | {cb_cold:.1f} | {r(cb_warm, warm)} | {r(cb_cold, cold)} | "
                     f"{'n/a' if cold is None else f'{100 * floor / cold:.0f}%'} |")
        print(lines[-1], flush=True)
    for t, rs in sorted(ratios.items()):
        g = math.exp(sum(math.log(v) for v in rs) / len(rs))
        lines += ["", f"{t}: geometric mean of the cold ratios: {g:.2f}x over {len(rs)} rows; "
                      f"rows at >= 1.00x: {sum(v >= 1.0 for v in rs)}"]
        print(lines[-1])
    if a.out:
        open(a.out, "w").write("\n".join(lines) + "\n")

if __name__ == "__main__":
    main()
