"""PyTorch -> tt -> PyTorch, end to end (issue 23's GPU check): an nn.Module with linear
layers, rms_norm, a silu-gated MLP and residual adds, through tt.compile and through
torch.compile(backend="tt") (with and without CUDA graphs), on the model's own CUDA
tensors; checked against PyTorch eager on the same tensors, and timed against eager and
torch.compile (Inductor, default and mode="reduce-overhead") in the same run.

Three steps, since the GPU machine has no compiler (LLVM/MLIR) and PyTorch's graphs
depend on the device (on CUDA, rms_norm stays whole):
  device:  python scripts/torch_e2e.py --export DIR
           (DIR/block.mlir from tt.export; DIR/misses/*.json: the parts the tt backend
           could not find in the cache, recorded through TT_MISSES)
  here:    .venv/bin/python scripts/torch_e2e.py --precompile CACHE --text DIR/block.mlir
           TT_CACHE=CACHE .venv/bin/python -m tt fill DIR/misses/*.json
  device:  TT_LIBTTRT=build-gpu/libttrt.so python scripts/torch_e2e.py --cache CACHE
The cache is keyed by the program text without its locations (tt/compile.py), so the
device finds the PTX compiled here.
"""

import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import tt  # noqa: E402
import tt.dynamo  # noqa: E402

if "tt" not in torch._dynamo.list_backends():  # the package is not pip-installed here
    print("note: tt is not installed (pip install -e python); registering its backend")
    torch._dynamo.register_backend(tt.dynamo.backend, name="tt")

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
    os.environ["TT_MISSES"] = os.path.join(outdir, "misses")
    os.environ["TT_CACHE"] = os.path.join(outdir, "empty-cache")
    c = torch.compile(m, backend="tt")
    with torch.no_grad():
        for b in BATCHES:  # batch 1 is specialized by Dynamo; the others share a graph
            c(torch.randn(b, D, dtype=torch.bfloat16, device="cuda"))
    print("backend graphs:", len(tt.dynamo.reports()), "misses:",
          os.listdir(os.environ["TT_MISSES"]))


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
    torch._dynamo.config.cache_size_limit = 64  # six compiled variants of one forward
    m, x16 = model("cuda")
    compiled = tt.compile(m, x16, dynamic_shapes=dynamic(), arch="sm_90a")
    variants = {  # name -> (callable, is it tt)
        "tt.compile": (compiled, True),
        "backend=tt": (torch.compile(m, backend="tt"), True),
        "backend=tt, no graphs": (torch.compile(m, backend="tt",
                                                options={"cudagraphs": False}), True),
        "eager": (m, False),
        "inductor": (torch.compile(m), False),
        "inductor reduce-overhead": (torch.compile(m, mode="reduce-overhead"), False),
    }
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}, ptx {compiled.ptx.name}")
    names = list(variants)
    print("| batch | " + " | ".join(f"{n} us" for n in names) +
          " | tt.compile rel. err | backend=tt rel. err (graphs, none) |")
    print("|---" * (len(names) + 3) + "|")
    ok, rows = True, []
    with torch.no_grad():
        for b in BATCHES:
            x = torch.randn(b, D, dtype=torch.bfloat16, device="cuda")
            ref = m(x).float()
            errs = []
            for n in ("tt.compile", "backend=tt", "backend=tt, no graphs"):
                out = variants[n][0](x).float()
                errs.append(((out - ref).norm() / ref.norm()).item())
            # bf16: a few ulps through GEMMs of K = 4096, 11008 (a NaN fails)
            good = all(e < 2e-2 for e in errs)
            ok = ok and good
            times = [timed(variants[n][0], x) for n in names]
            rows.append((b, dict(zip(names, times))))
            print(f"| {b} | " + " | ".join(f"{t:.1f}" for t in times) +
                  f" | {errs[0]:.2e} | {errs[1]:.2e}, {errs[2]:.2e} {'PASS' if good else 'FAIL'} |")
    peers = [n for n in names if not variants[n][1]]
    print("\nspeedup = peer time / tt time (above 1: tt faster)")
    print("| batch | tt form | " + " | ".join(f"vs {p}" for p in peers) + " |")
    print("|---|---|" + "---|" * len(peers))
    for b, t in rows:
        for n in ("tt.compile", "backend=tt"):
            print(f"| {b} | {n} | " + " | ".join(f"{t[p] / t[n]:.2f}x" for p in peers) + " |")
    for r in tt.dynamo.reports():
        print(r)
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
