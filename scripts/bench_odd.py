#!/usr/bin/env python3
"""Odd-shape GEMM benchmark (issue 24, "no alignment cliffs") on the GPU: linear layers
y = x @ w^T, f16 and fp8 (e4m3 torch._scaled_mm, f16 out), at odd (M, N, K) and at each
one's aligned neighbour (scripts/make-odd-bench.sh), tt against cuBLAS (torch.matmul;
torch._scaled_mm, which refuses K or N off a multiple of 16: n/a) in the same run; and the issue's first
row, linear + bias + GELU(tanh) 7 x 1000 x 4100, against eager and torch.compile.

Timing as bench_variants.py's: medians of --rounds rounds (default 3), each timing every
case warm (the same weight back to back) and cold (`tt-run --cold N` over N weight copies,
N = ceil(2 x 50 MB / the weight's bytes), at least 2: a model's layers each read their own
weights); tt is `tt-run --batch` (its launches back to back between one event pair), the
peers' calls are captured 20 to a CUDA graph and replayed (benchlib.cublas_linear, cycling
over as many weight copies cold). The ratios are read on the cold column. Floor: the bytes
of A, B and C once at this run's copy rate. A BEFORE folder (the same cases from an
earlier compiler) adds a "before" column. --warm-only times warm alone (the tables before
2026-11-29's second odd run).

A full run (18 shapes in f16 and fp8, 3 rounds warm and cold, a before folder) takes about
15 minutes on an H200: past a device command's 10, so run a dtype at a time (--dtype) or
fewer rounds.

Usage: bench_odd.py TT_RUN CASEDIR [BEFOREDIR] [--rounds 3] [--warm-only] [--dtype f16|fp8]
                    [--out FILE.md]
"""
import argparse, datetime, math, os, re, statistics, sys
import torch
import torch.nn.functional as F
from benchlib import bench_batched, copy_bandwidth, cublas_linear, tt_median

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

def tt(tt_run, folder, name, extra=()):
    if not folder:
        return None
    t, why = tt_median(tt_run, os.path.join(folder, name), batch=True, extra=extra)
    if t is None:
        print(f"  {name}: {why}", file=sys.stderr)
    return t

L2 = 50 << 20

def timed(a, dt, odd, aligned):
    """Medians over a.rounds of {(what, mode): us}: what in odd, before, aligned, cublas;
    mode warm or cold (cold left out with --warm-only)."""
    (m, n, k), (am, an, ak) = odd, aligned
    eb = 2 if dt == "f16" else 1
    name, aname = f"{dt}_{m}x{n}x{k}.ptx", f"{dt}_{am}x{an}x{ak}.ptx"
    modes = ("warm",) if a.warm_only else ("warm", "cold")
    got = {}
    for _ in range(a.rounds):
        for mode in modes:
            for what, folder, file, kk, nn in (("odd", a.casedir, name, k, n),
                                               ("before", a.before, name, k, n),
                                               ("aligned", a.casedir, aname, ak, an)):
                copies = max(2, min(64, math.ceil(2 * L2 / (eb * nn * kk))))
                t = tt(a.tt_run, folder, file, () if mode == "warm" else ("--cold", str(copies)))
                if t is not None:
                    got.setdefault((what, mode), []).append(t)
        try:
            copies = 2 if a.warm_only else max(2, min(64, math.ceil(2 * L2 / (eb * n * k))))
            w, c = cublas_linear(dt, m, n, k, copies)
            got.setdefault(("cublas", "warm"), []).append(w)
            got.setdefault(("cublas", "cold"), []).append(c)
        except RuntimeError:  # torch._scaled_mm refuses K or N off a multiple of 16
            pass
    return {key: statistics.median(v) for key, v in got.items()}

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tt_run"); ap.add_argument("casedir"); ap.add_argument("before", nargs="?")
    ap.add_argument("--out"); ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--warm-only", action="store_true")
    ap.add_argument("--dtype", choices=("f16", "fp8"), help="time only this dtype's shapes")
    a = ap.parse_args()
    read = "warm" if a.warm_only else "cold"
    bw = copy_bandwidth()
    lines = [f"# odd-shape GEMMs, {torch.cuda.get_device_name()}, {datetime.date.today()}",
             f"copy rate {bw:.0f} GB/s; times in us, medians of {a.rounds} rounds; ratios "
             f"(read {read}): peer or aligned time / tt odd time",
             "", f"| dtype | M x N x K | tt odd warm | tt odd {read} | tt before {read} | "
             f"tt aligned {read} (shape) | odd / aligned | cuBLAS odd {read} | cuBLAS / tt | "
             "% floor |", "|---|---|---|---|---|---|---|---|---|---|"]
    fmt = lambda t: "n/a" if t is None else f"{t:.1f}"
    ratio = lambda p, q: "n/a" if p is None or q is None else f"{p / q:.2f}x"
    for dt, (m, n, k), (am, an, ak) in shapes(a.casedir):
        if a.dtype and dt != a.dtype:
            continue
        t = timed(a, dt, (m, n, k), (am, an, ak))
        odd, al, bef, cb = (t.get((w, read)) for w in ("odd", "aligned", "before", "cublas"))
        eb = 2 if dt == "f16" else 1
        floor = (eb * (m * k + n * k) + 2 * m * n) / bw / 1e3
        lines.append(f"| {dt} | {m} x {n} x {k} | {fmt(t.get(('odd', 'warm')))} | {fmt(odd)} | "
                     f"{fmt(bef)} | {fmt(al)} ({am}x{an}x{ak}) | {ratio(al, odd)} | {fmt(cb)} | "
                     f"{ratio(cb, odd)} | {'n/a' if odd is None else f'{100 * floor / odd:.0f}%'} |")
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
