"""PyTorch -> tt -> PyTorch, end to end (issue 23's GPU check): an nn.Module with linear
layers, rms_norm, a silu-gated MLP and residual adds, through tt.compile, on the model's
own CUDA tensors; checked against PyTorch eager on the same tensors, and timed against
eager and torch.compile (Inductor) in the same run.

Three steps, since the GPU machine has no compiler (LLVM/MLIR) and PyTorch's export
depends on the device (on CUDA, rms_norm stays whole):
  device:  python scripts/torch_e2e.py --export DIR            (DIR/block.mlir)
  here:    .venv/bin/python scripts/torch_e2e.py --precompile CACHE --text DIR/block.mlir
  device:  TT_LIBTTRT=build-gpu/libttrt.so python scripts/torch_e2e.py --cache CACHE
The cache is keyed by the exported program without its locations (tt/compile.py), so
the device's tt.compile finds the PTX compiled here.
"""

import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import tt  # noqa: E402

D, H = 4096, 11008
BATCHES = [1, 16, 37, 128]


class Block(torch.nn.Module):
    """x + down(silu(gate(norm(x))) * up(norm(x))): a decoder's MLP half."""

    def __init__(self, d=D, h=H):
        super().__init__()
        self.norm = torch.nn.RMSNorm(d, eps=1e-6)
        self.gate = torch.nn.Linear(d, h, bias=False)
        self.up = torch.nn.Linear(d, h, bias=False)
        self.down = torch.nn.Linear(h, d, bias=False)

    def forward(self, x):
        y = self.norm(x)
        return x + self.down(F.silu(self.gate(y)) * self.up(y))


def dynamic():
    return {"x": {0: torch.export.Dim("batch", min=1, max=4096)}}


def model(device):
    torch.manual_seed(0)
    m = Block().to(device=device, dtype=torch.bfloat16)
    for p in m.parameters():  # weights of a trained model's scale
        torch.nn.init.normal_(p, std=0.02)
    return m, torch.randn(16, D, dtype=torch.bfloat16, device=device)


def export(outdir):
    m, x = model("cuda")
    os.makedirs(outdir, exist_ok=True)
    text = tt.export(m, x, dynamic_shapes=dynamic()).text
    open(os.path.join(outdir, "block.mlir"), "w").write(text)
    print("exported", len(text.splitlines()), "lines")


def precompile(cache, text_file):
    os.environ["TT_CACHE"] = cache
    from tt.compile import build_ptx
    print("precompiled", build_ptx(open(text_file).read(), arch="sm_90a"))


def timed(fn, x, reps=50):
    for _ in range(5):
        fn(x)
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn(x)
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) * 1000)
    return statistics.median(times)


def run(cache):
    os.environ["TT_CACHE"] = cache
    m, x16 = model("cuda")
    compiled = tt.compile(m, x16, dynamic_shapes=dynamic(), arch="sm_90a")
    inductor = torch.compile(m)
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}, ptx {compiled.ptx.name}")
    print("| batch | rel. error vs eager | tt us | eager us | inductor us | eager/tt | inductor/tt |")
    print("|---|---|---|---|---|---|---|")
    ok = True
    with torch.no_grad():
        for b in BATCHES:
            x = torch.randn(b, D, dtype=torch.bfloat16, device="cuda")
            ref, out = m(x), compiled(x)
            torch.cuda.synchronize()
            err = ((out.float() - ref.float()).norm() / ref.float().norm()).item()
            good = err < 2e-2  # bf16: a few ulps through two GEMMs of K = 4096 and 11008
            ok = ok and good
            t_tt, t_eager, t_ind = timed(compiled, x), timed(m, x), timed(inductor, x)
            print(f"| {b} | {err:.2e} {'PASS' if good else 'FAIL'} | {t_tt:.1f} | {t_eager:.1f} "
                  f"| {t_ind:.1f} | {t_eager / t_tt:.2f}x | {t_ind / t_tt:.2f}x |")
    print("torch_e2e:", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--export", metavar="DIR")
    ap.add_argument("--precompile", metavar="CACHE")
    ap.add_argument("--text", metavar="FILE")
    ap.add_argument("--cache", metavar="CACHE")
    a = ap.parse_args()
    if a.export:
        export(a.export)
    elif a.precompile:
        precompile(a.precompile, a.text)
    else:
        sys.exit(run(a.cache or os.path.expanduser("~/.cache/tt")))
