#!/usr/bin/env python3
"""Decode GEMM variants A/B, warm and cold, medians of rounds, cuBLAS in the same run.

Each variant is a folder of scripts/make-cold-bench.sh's cases (<dtype>_<M>x<N>x<K>.ptx,
the same set compiled with other options, e.g. SPLITK=split-k=1). For every case, in
each of --rounds rounds, every variant is timed warm and cold (tt-run --batch; cold:
--cold N over N = ceil(2 x 50 MB / weight bytes) copies, as bench_cold.py) one after the
other, then cuBLAS (torch.matmul, torch._scaled_mm for fp8) warm and cold; the table
gives the median of the rounds of each, the best variant's cold ratio to cuBLAS, and
every variant's cold time over the first's. --warm-only times warm alone and reads the
ratios on it (prefill GEMMs: compute-bound, a weight's reads a small part of the time).
Small GEMMs swing up to 2x between single runs: read the medians. Usage:
  bench_variants.py TT_RUN NAME=DIR [NAME=DIR ...] [--rounds 3] [--warm-only] [--out FILE.md]
"""
import argparse, datetime, math, os, re, statistics, sys
import torch
from benchlib import copy_bandwidth, cublas_linear, tt_median

L2 = 50 << 20


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tt_run")
    ap.add_argument("variants", nargs="+", help="NAME=DIR")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--warm-only", action="store_true")
    ap.add_argument("--out")
    a = ap.parse_args()
    modes = ("warm",) if a.warm_only else ("warm", "cold")
    read = modes[-1]  # the column the ratios are read on
    variants = [v.split("=", 1) for v in a.variants]
    bw = copy_bandwidth()
    cases = []
    for name in os.listdir(variants[0][1]):
        mt = re.match(r"(f16|bf16|fp8)_(\d+)x(\d+)x(\d+)\.ptx$", name)
        if mt:
            cases.append((mt.group(1),) + tuple(int(v) for v in mt.groups()[1:]))
    cases.sort(key=lambda c: (c[0], c[2] * c[3], c[2], c[1]))
    names = [n for n, _ in variants]
    head = ("| dtype | M x N x K | weight MB | "
            + " | ".join(f"{n} {c}" for n in names for c in modes)
            + " | " + " | ".join(f"cuBLAS {c}" for c in modes) + f" | best {read} / cuBLAS | "
            + " | ".join(f"{n} / {names[0]} {read}" for n in names[1:]) + " |")
    lines = [f"# GEMM variants {' and '.join(modes)}, {torch.cuda.get_device_name()}, "
             f"{datetime.date.today()}",
             f"copy rate {bw:.0f} GB/s; times in us, medians of {a.rounds} rounds; "
             f"ratios > 1: the first named faster", "", head,
             "|" + "---|" * head.count(" | ") + "---|"]
    print("\n".join(lines), flush=True)
    f = lambda v: "n/a" if v is None else f"{v:.1f}"
    for t, m, n, k in cases:
        wbytes = (1 if t == "fp8" else 2) * n * k
        copies = 2 if a.warm_only else max(2, min(64, math.ceil(2 * L2 / wbytes)))
        file = f"{t}_{m}x{n}x{k}.ptx"
        times = {(v, c): [] for v in names for c in ("warm", "cold")}
        cb = {"warm": [], "cold": []}
        for _ in range(a.rounds):
            for v, d in variants:
                for c, extra in (("warm", ()), ("cold", ("--cold", str(copies))))[:len(modes)]:
                    us, why = tt_median(a.tt_run, os.path.join(d, file), batch=True, extra=extra)
                    if us is None:
                        print(f"  {v} {file} {c}: {why}", file=sys.stderr)
                    else:
                        times[(v, c)].append(us)
            try:
                w, c = cublas_linear(t, m, n, k, copies)
                cb["warm"].append(w)
                cb["cold"].append(c)
            except RuntimeError as exc:  # e.g. _scaled_mm's K % 16 rule: no peer
                print(f"  cuBLAS {file}: {str(exc).splitlines()[0]}", file=sys.stderr)
        med = {key: statistics.median(x) if x else None for key, x in times.items()}
        cbw = statistics.median(cb["warm"]) if cb["warm"] else None
        cbc = statistics.median(cb["cold"]) if cb["cold"] else None
        cbr = cbc if read == "cold" else cbw
        got = [med[(v, read)] for v in names if med[(v, read)] is not None]
        best = f"{cbr / min(got):.2f}x" if got and cbr else "n/a"
        base = med[(names[0], read)]
        rel = [f"{med[(v, read)] / base:.2f}x" if base and med[(v, read)] else "n/a"
               for v in names[1:]]
        lines.append(f"| {t} | {m} x {n} x {k} | {wbytes / 1e6:.1f} | "
                     + " | ".join(f(med[(v, c)]) for v in names for c in modes)
                     + " | " + " | ".join(f(cbw if c == "warm" else cbc) for c in modes)
                     + f" | {best} | " + " | ".join(rel) + " |")
        print(lines[-1], flush=True)
    if a.out:
        open(a.out, "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
