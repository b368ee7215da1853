#!/usr/bin/env python3
"""Issue 21's benchmark (run through `device`): the coverage cases of
scripts/make-coverage-bench.sh (column and full sums, an embedding gather, a rotary step and
a pre-norm step with two outputs each, a concat, a transpose, greedy decoding's argmax over
a vocabulary) side by side with PyTorch eager and torch.compile in one run.

tt's time is tt-run's median (CUDA events around each run after a warm-up, --no-check:
correctness is the GPU suite's job on the same PTX; a program of several kernels replayed
as a CUDA graph, --graph). PyTorch's are benchlib.bench medians (events around each call).
Bytes: every input read once and every output written once (a gather reads only its rows
and ids); "% copy" is bytes / tt's time / the device-to-device copy rate of the same run.
Usage: bench_coverage.py --tt-run PATH [--cases DIR]
"""
import argparse, datetime, os
import torch
from benchlib import bench, copy_bandwidth
from bench_reduce import tt_time

BF = torch.bfloat16


def rand(*shape, dtype=BF):
    return torch.rand(*shape, device="cuda", dtype=torch.float32).mul_(2).sub_(1).to(dtype)


def colsum():
    x = rand(8192, 8192)
    return "colsum_8192x8192_bf16", (lambda: x.sum(0)), [x]


def fullsum():
    x = rand(8192, 8192)
    return "fullsum_8192x8192_bf16", (lambda: x.sum()), [x]


def gather(n):
    def make():
        w = rand(128256, 4096)
        i = torch.randint(0, 128256, (n,), device="cuda", dtype=torch.int64)
        return f"gather_{n}", (lambda: torch.index_select(w, 0, i)), [i]  # rows counted below
    return make


def rotary():
    x, c, s = rand(1, 4096, 32, 128), rand(4096, 64), rand(4096, 64)

    def fn():
        x1, x2 = x[..., :64], x[..., 64:]
        cb, sb = c[None, :, None, :], s[None, :, None, :]
        return x1 * cb - x2 * sb, x2 * cb + x1 * sb
    return "rotary_1x4096x32x128", fn, [x, c, s]


def pre_norm():
    x, r, w = rand(8192, 8192), rand(8192, 8192), rand(8192)

    def fn():
        h = x + r
        return h, torch.nn.functional.rms_norm(h.float(), (8192,), w.float(), 1e-6).to(BF)
    return "pre_norm_8192x8192", fn, [x, r, w]


def concat():
    a, b = rand(4096, 4096), rand(4096, 4096)
    return "concat_4096x4096", (lambda: torch.cat([a, b], 1)), [a, b]


def transpose():
    x = rand(8192, 8192)
    return "transpose_8192x8192", (lambda: x.t().contiguous()), [x]


def argmax(b, v):
    def make():
        x = rand(b, v)
        return f"argmax_{b}x{v}", (lambda: x.argmax(1)), [x]
    return make


CASES = [colsum, fullsum, gather(16), gather(256), gather(4096), rotary, pre_norm, concat,
         transpose, argmax(1, 128256), argmax(4, 152064), argmax(64, 152064)]


def nbytes(ts):
    return sum(t.numel() * t.element_size() for t in ts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tt-run", required=True)
    ap.add_argument("--cases", default="coverage-bench")
    a = ap.parse_args()
    copy_bw = copy_bandwidth()  # GB/s
    print(f"# issue 21 coverage benchmark, {datetime.date.today()}, {torch.cuda.get_device_name()}")
    print(f"copy bandwidth (1 GiB copy): {copy_bw:.0f} GB/s\n")
    print("| case | bytes (MB) | eager (us) | torch.compile (us) | tt (us) | tt % copy | "
          "tt vs eager | tt vs compile |")
    print("|---|---|---|---|---|---|---|---|")
    for make in CASES:
        stem, fn, inputs = make()
        out = fn()
        outs = list(out) if isinstance(out, tuple) else [out]
        b = nbytes(inputs) + 2 * nbytes(outs) if stem.startswith("gather") else \
            nbytes(inputs) + nbytes(outs)  # a gather reads its rows and writes them
        eager = bench(fn)
        comp = torch.compile(fn)
        comp()
        compiled = bench(comp)
        ptx = os.path.join(a.cases, stem + ".ptx")
        tt, why = tt_time(a.tt_run, ptx) if os.path.exists(ptx) else (None, "not compiled")
        if tt is None:
            print(f"| {stem} | {b / 1e6:.1f} | {eager:.1f} | {compiled:.1f} | n/a ({why}) | | | |")
            continue
        pct = b / (tt * 1e-6) / 1e9 / copy_bw * 100
        print(f"| {stem} | {b / 1e6:.1f} | {eager:.1f} | {compiled:.1f} | {tt:.1f} | {pct:.0f}% | "
              f"{eager / tt:.2f}x | {compiled / tt:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
