#!/usr/bin/env python3
"""fp8 quantization kernels against PyTorch eager and torch.compile (run through `device`).

The cases (BENCH_SHAPES="4096x4096 ..." scripts/make-fp8-cases.sh DIR):
  quant_<M>x<N>_bf16_e4m3.ptx   (x.float() * s).to(float8_e4m3fn), s a scalar tensor
  rms_norm_quant_<M>x<N>_e4m3.ptx  rms_norm(x, w).to(float8_e4m3fn), x bf16
  row_quant_<M>x<N>_e4m3.ptx    per-row dynamic: s = amax(|x|, -1) / 448, q = (x / s).to(e4m3)
For each, in one run: tt (tt-run --batch, median), eager and torch.compile (in CUDA graphs
of 20 calls, benchlib.bench_batched: no CPU launch cost, as tt-run --batch), and the bytes
moved over the device's copy rate (x read once, q written once: 3 bytes an element) as %
of the floor. Usage: bench_fp8_quant.py TT_RUN DIR [--out FILE.md]
"""
import argparse, datetime, os, re
import torch
from benchlib import bench_batched, copy_bandwidth, tt_median


def programs(m, n):
    w = torch.randn(n, device="cuda", dtype=torch.bfloat16)
    s = torch.rand((), device="cuda") + 0.5
    e4 = torch.float8_e4m3fn
    def quant(x):
        return (x.float() * s).to(e4)
    def norm_quant(x):
        return torch.nn.functional.rms_norm(x, (n,), w, 1e-6).to(e4)
    def row_quant(x):
        xf = x.float()
        sc = xf.abs().amax(-1, keepdim=True) / 448.0
        return (xf / sc).to(e4), sc
    return {"quant": (quant, "quant_{m}x{n}_bf16_e4m3"),
            "rms_norm_quant": (norm_quant, "rms_norm_quant_{m}x{n}_e4m3"),
            "row_quant": (row_quant, "row_quant_{m}x{n}_e4m3")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tt_run")
    ap.add_argument("dir")
    ap.add_argument("--out")
    a = ap.parse_args()
    bw = copy_bandwidth()
    rows = []
    for name in sorted(os.listdir(a.dir)):
        mt = re.match(r"(quant|rms_norm_quant|row_quant)_(\d+)x(\d+)_", name)
        if not mt:
            continue
        kind, m, n = mt.group(1), int(mt.group(2)), int(mt.group(3))
        fn = programs(m, n)[kind][0]
        x = torch.randn(m, n, device="cuda", dtype=torch.bfloat16)
        eager = bench_batched(lambda: fn(x), 200)
        torch._dynamo.reset()  # each shape its own static compile, not a dynamic-shape one
        comp = torch.compile(fn, dynamic=False)
        compiled = bench_batched(lambda: comp(x), 200)
        tt, why = tt_median(a.tt_run, os.path.join(a.dir, name), runs=200, batch=True)
        floor = 3 * m * n / (bw * 1e3)  # us: 2 bytes read, 1 written an element
        rows.append((kind, m, n, tt, why, eager, compiled, floor))
    gpu = torch.cuda.get_device_name()
    lines = [f"# fp8 quantization kernels, {gpu}, {datetime.date.today()}",
             f"copy rate {bw:.0f} GB/s; times in us (medians); floor: 3 bytes an element at the copy rate",
             "", "| program | M x N | tt | eager | torch.compile | torch.compile / tt | tt % of floor |",
             "|---|---|---|---|---|---|---|"]
    for kind, m, n, tt, why, eager, compiled, floor in rows:
        if tt is None:
            lines.append(f"| {kind} | {m} x {n} | n/a ({why[:60]}) | {eager:.1f} | {compiled:.1f} | | |")
            continue
        lines.append(f"| {kind} | {m} x {n} | {tt:.1f} | {eager:.1f} | {compiled:.1f} | "
                     f"{compiled / tt:.2f}x | {100 * floor / tt:.0f}% |")
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
