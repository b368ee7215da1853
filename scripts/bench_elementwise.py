#!/usr/bin/env python3
"""Benchmark of a fused elementwise chain on the GPU (run through `device`).

y = gelu_tanh(x * a + b) on an 8192x8192 bf16 tensor x with per-column a, b (bf16):
measures, in one run, the device's copy bandwidth, PyTorch eager, torch.compile and tt
(tt-run on examples/bias_gelu.mlir compiled by tt-opt --fuse --splitk | tt-translate),
and prints times and ratios. Bytes counted: x read once, y written once (a, b are 32 KB).
Usage: bench_elementwise.py --tt-run PATH --ptx FILE
"""
import argparse, datetime, re, subprocess
import torch
from benchlib import bench, copy_bandwidth

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tt-run", required=True)
    ap.add_argument("--ptx", required=True)
    a = ap.parse_args()
    M = N = 8192
    x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    sa = torch.randn(N, device="cuda", dtype=torch.bfloat16)
    sb = torch.randn(N, device="cuda", dtype=torch.bfloat16)
    nbytes = 2 * M * N * 2

    copy_bw = copy_bandwidth()  # GB/s, read + write: the device's rate
    y = torch.empty_like(x)
    same_us = bench(lambda: y.copy_(x), 200)  # a copy of x itself: what this size allows

    f = lambda: torch.nn.functional.gelu(x * sa + sb, approximate="tanh")
    eager = bench(f, 200)
    comp = torch.compile(f)
    compiled = bench(comp, 200)

    out = subprocess.run([a.tt_run, "--runs", "200", "--warmup", "20", a.ptx],
                         capture_output=True, text=True)
    print(out.stdout + out.stderr)
    m = re.search(r"time median ([0-9.]+) us", out.stdout)
    tt = float(m.group(1)) if m else float("nan")
    floor = nbytes / copy_bw / 1e3
    print(f"# elementwise benchmark, {datetime.date.today()}, {torch.cuda.get_device_name()}")
    print(f"copy bandwidth: {copy_bw:.0f} GB/s; floor for {nbytes/1e6:.0f} MB: {floor:.1f} us")
    print("| case | time (us) | GB/s | % of copy bw | tt speedup |")
    print("|---|---|---|---|---|")
    for name, t in (("copy of x (y.copy_(x))", same_us), ("PyTorch eager", eager),
                    ("torch.compile", compiled), ("tt", tt)):
        bw = nbytes / t / 1e3
        print(f"| {name} | {t:.1f} | {bw:.0f} | {100*bw/copy_bw:.1f}% | {t/tt:.2f}x |")
    print("tt check:", "PASS" if out.returncode == 0 else f"FAIL (exit {out.returncode})")

if __name__ == "__main__":
    main()
