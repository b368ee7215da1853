#!/usr/bin/env python3
"""Benchmark of row kernels (softmax, norms) and elementwise chains on the GPU (run
through `device`), side by side with PyTorch eager and torch.compile in one run.

For each case the compiled PTX is gpu-cases/<op>_<shape>.ptx (scripts/make-gpu-cases.sh);
tt's time is tt-run's median (CUDA events, warm-up; --no-check: correctness is the GPU
suite's job, scripts/gpu-suite.sh, on the same PTX). Bytes counted: every input read once
and the output written once. The copy rate is a 1 GiB device-to-device copy, measured in
the same run; "% copy" is bytes / time / that rate. Prints a Markdown table with ratios.
A second table times programs of two outputs (pre_norm: one kernel) launched on a stream and replayed
as a CUDA graph (tt-run --graph), with the launch gap.
Usage: bench_rows.py --tt-run PATH [--cases DIR]
"""
import argparse, datetime, re, subprocess
import torch
from benchlib import bench, copy_bandwidth
import torch.nn.functional as F

# op -> (inputs from (M, N, dtype), the PyTorch function)
def rand(*shape, dtype):
    return torch.randn(*shape, device="cuda", dtype=dtype)

OPS = {
    "softmax": (lambda M, N, dt: [rand(M, N, dtype=dt)],
                lambda x: torch.softmax(x, -1)),
    "log_softmax": (lambda M, N, dt: [rand(M, N, dtype=dt)],
                    lambda x: torch.log_softmax(x, -1)),
    "layer_norm": (lambda M, N, dt: [rand(M, N, dtype=dt), rand(N, dtype=dt), rand(N, dtype=dt)],
                   lambda x, w, b: F.layer_norm(x, (x.shape[-1],), w, b, 1e-5)),
    "rms_norm": (lambda M, N, dt: [rand(M, N, dtype=dt), rand(N, dtype=dt)],
                 lambda x, w: F.rms_norm(x, (x.shape[-1],), w, 1e-6)),
    "residual_rms_norm": (lambda M, N, dt: [rand(M, N, dtype=dt), rand(M, N, dtype=dt), rand(N, dtype=dt)],
                          lambda x, r, w: F.rms_norm(x + r, (x.shape[-1],), w, 1e-6)),
    "bias_gelu": (lambda M, N, dt: [rand(M, N, dtype=dt), rand(N, dtype=dt), rand(N, dtype=dt)],
                  lambda x, a, b: F.gelu(x * a + b, approximate="tanh")),
    "swiglu_f16": (lambda M, N, dt: [rand(M * N, dtype=torch.float16), rand(M * N, dtype=torch.float16)],
                   lambda a, b: F.silu(a) * b),
}
CASES = [(op, shape, torch.bfloat16) for shape in ("8192x8192", "4096x32768", "1048576x128", "2048x65536")
         for op in ("softmax", "log_softmax", "layer_norm", "rms_norm", "residual_rms_norm")]
CASES += [("softmax_f16", "8192x8192", torch.float16), ("bias_gelu", "8192x8192", torch.bfloat16),
          ("swiglu_f16", "8192x8192", torch.float16)]

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tt-run", required=True)
    ap.add_argument("--cases", default="gpu-cases")
    a = ap.parse_args()
    copy_bw = copy_bandwidth()  # GB/s
    print(f"# row kernels and chains, {datetime.date.today()}, {torch.cuda.get_device_name()}")
    print(f"copy bandwidth (1 GiB copy): {copy_bw:.0f} GB/s\n")
    print("| case | shape | bytes (MB) | eager (us) | torch.compile (us) | tt (us) | tt % copy | "
          "tt vs eager | tt vs compile | check |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for op, shape, dt in CASES:
        M, N = map(int, shape.split("x"))
        make, fn = OPS[op.replace("_f16", "") if op == "softmax_f16" else op]
        args = make(M, N, dt)
        out = fn(*args)
        nbytes = sum(t.numel() * t.element_size() for t in args) + out.numel() * out.element_size()
        eager = bench(lambda: fn(*args))
        comp = torch.compile(fn)
        compiled = bench(lambda: comp(*args))
        ptx = f"{a.cases}/{op}_{shape}.ptx"
        r = subprocess.run([a.tt_run, "--no-check", "--runs", "100", "--warmup", "10", ptx],
                           capture_output=True, text=True)
        m = re.search(r"time median ([0-9.]+) us", r.stdout)
        tt = float(m.group(1)) if m else float("nan")
        check = "ran" if r.returncode == 0 else f"FAIL({r.returncode})"
        if r.returncode != 0:
            print(r.stdout[-400:] + r.stderr[-400:])
        pct = 100 * nbytes / tt / 1e3 / copy_bw
        print(f"| {op} | {shape} | {nbytes/1e6:.0f} | {eager:.1f} | {compiled:.1f} | {tt:.1f} | "
              f"{pct:.1f}% | {eager/tt:.2f}x | {compiled/tt:.2f}x | {check} |", flush=True)
        del args, out, comp
        torch._dynamo.reset()
    several_kernels(a)

def pre_norm(x, r, w):
    h = x + r
    return h, F.rms_norm(h, (h.shape[-1],), w, 1e-6)

def several_kernels(a):
    """Programs of two outputs (examples/pre_norm_bf16.mlir: two kernels until multi-output
    fusion, one row kernel since): the launches on a stream and replayed as a CUDA graph,
    with tt-run's launch gap per launch."""
    print("\n| program (two outputs) | shape | eager (us) | torch.compile (us) | tt stream (us) | "
          "tt graph (us) | kernels alone (us) | graph saves (us per launch) | check |")
    print("|---|---|---|---|---|---|---|---|---|")
    for shape in ("16x8192", "8192x8192"):
        M, N = map(int, shape.split("x"))
        args = [rand(M, N, dtype=torch.bfloat16), rand(M, N, dtype=torch.bfloat16),
                rand(N, dtype=torch.bfloat16)]
        eager = bench(lambda: pre_norm(*args))
        comp = torch.compile(pre_norm)
        compiled = bench(lambda: comp(*args))
        r = subprocess.run([a.tt_run, "--no-check", "--runs", "200", "--warmup", "20", "--graph",
                            f"{a.cases}/pre_norm_{shape}.ptx"], capture_output=True, text=True)
        num = lambda pat: float(m.group(1)) if (m := re.search(pat, r.stdout, re.M)) else float("nan")
        seq, graph = num(r"^time median ([0-9.]+)"), num(r"time graph median ([0-9.]+)")
        alone = num(r"= ([0-9.]+) us")
        gaps = re.search(r"saves (-?[0-9.]+) us", r.stdout)
        check = "ran" if r.returncode == 0 else f"FAIL({r.returncode})"
        print(f"| pre_norm | {shape} | {eager:.1f} | {compiled:.1f} | {seq:.1f} | {graph:.1f} | "
              f"{alone:.1f} | {gaps.group(1) if gaps else '?'} "
              f"| {check} |", flush=True)
        del args, comp
        torch._dynamo.reset()

main()
