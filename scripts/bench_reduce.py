#!/usr/bin/env python3
"""Benchmark of reductions over dims other than the last (issue 21, item 2) on the GPU (run
through `device`), side by side with PyTorch eager and torch.compile in one run.

Cases are the PTX files of scripts/make-reduce-cases.sh named in CASES (column sums and
full sums, bf16, at the benchmark shapes and others); tt's time is tt-run's median (CUDA
events, warm-up, --no-check: correctness is the GPU suite's job on the same PTX), a
program of two kernels (a full sum: column sums, then the row) replayed as a CUDA graph
(--graph), as torch.compile's are. Bytes counted: the input read once and the output
written once; "% copy" is bytes / time / the device-to-device copy rate of the same run.
Usage: bench_reduce.py --tt-run PATH [--cases DIR]
"""
import argparse, datetime, os, re, subprocess
import torch
from benchlib import bench, copy_bandwidth

# (case file stem, shape, dims, dtype): the PyTorch function is torch.sum over dims
CASES = [
    ("colsum", "8192x8192", (0,), torch.bfloat16),
    ("fullsum", "8192x8192", (0, 1), torch.bfloat16),
    ("colsum", "4096x32768", (0,), torch.bfloat16),
    ("fullsum", "4096x32768", (0, 1), torch.bfloat16),
    ("colsum", "1048576x128", (0,), torch.bfloat16),
    ("midsum", "64x4096x256", (1,), torch.bfloat16),
]
TAG = {torch.bfloat16: "bf16", torch.float16: "f16", torch.float32: "f32"}


def tt_time(tt_run, ptx, runs=100, warmup=10):
    """(median us, "") of tt-run on ptx, a program of several launches as a graph replay."""
    graph = sum(1 for l in open(ptx) if l.startswith("//@launch")) > 1
    cmd = [tt_run, "--no-check", "--seed", "1", "--runs", str(runs), "--warmup", str(warmup)]
    cmd += ["--graph"] if graph else []
    r = subprocess.run(cmd + [ptx], capture_output=True, text=True, timeout=300)
    m = re.search(r"^time median ([0-9.]+) us", r.stdout, re.M)
    if r.returncode != 0 or not m:
        return None, f"exit {r.returncode}: {(r.stdout[-200:] + r.stderr[-200:]).strip()}"
    return float(m.group(1)), ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tt-run", required=True)
    ap.add_argument("--cases", default="reduce-cases")
    a = ap.parse_args()
    copy_bw = copy_bandwidth()  # GB/s
    print(f"# reductions over other dims, {datetime.date.today()}, {torch.cuda.get_device_name()}")
    print(f"copy bandwidth (1 GiB copy): {copy_bw:.0f} GB/s\n")
    print("| case | shape | dims | bytes (MB) | eager (us) | torch.compile (us) | tt (us) | "
          "tt % copy | tt vs eager | tt vs compile |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for stem, shape, dims, dt in CASES:
        ptx = os.path.join(a.cases, f"{stem}_{shape}_{TAG[dt]}.ptx")
        dimsn = list(map(int, shape.split("x")))
        x = torch.randn(*dimsn, device="cuda", dtype=dt)
        fn = lambda t: torch.sum(t, dim=dims)  # noqa: E731
        out = fn(x)
        nbytes = x.numel() * x.element_size() + out.numel() * out.element_size()
        eager = bench(lambda: fn(x))
        comp = torch.compile(fn)
        comp(x)
        compiled = bench(lambda: comp(x))
        if os.path.exists(ptx):
            tt, why = tt_time(a.tt_run, ptx)
        else:
            tt, why = None, "not compiled"
        if tt is None:
            print(f"| {stem} | {shape} | {dims} | {nbytes / 1e6:.1f} | {eager:.1f} | "
                  f"{compiled:.1f} | n/a ({why}) | | | |")
            continue
        pct = nbytes / (tt * 1e-6) / 1e9 / copy_bw * 100
        print(f"| {stem} | {shape} | {dims} | {nbytes / 1e6:.1f} | {eager:.1f} | {compiled:.1f} | "
              f"{tt:.1f} | {pct:.0f}% | {eager / tt:.2f}x | {compiled / tt:.2f}x |")


if __name__ == "__main__":
    main()
