"""tt-run on real data, on the GPU (issue 23, item 2): PyTorch makes the inputs of a
dynamic-batch linear (x[B,4104] @ w[1000,4104]^T, bf16: .gpu/dynamic/linear_bf16.ptx from
scripts/make-dynamic-cases.sh) and cuBLAS's output; tt-run --inputs reads them (bf16 as
raw V2 bits, as ml_dtypes saves them), checks its GPU output against cuBLAS's with
--expected, and --save-outputs writes it; numpy.load reads it back and it is compared with
PyTorch's output here too. Batches 1, 37 and 300 (the `?` dim bound from the arrays).
Usage (device): python scripts/tt_run_npz_gpu.py TT_RUN PTX OUTDIR"""

import os
import subprocess
import sys

import numpy as np
import torch


def raw(t: torch.Tensor) -> np.ndarray:
    return t.contiguous().view(torch.int16).cpu().numpy().view("V2")


def main(tt_run, ptx, outdir):
    os.makedirs(outdir, exist_ok=True)
    ok = True
    for b in (1, 37, 300):
        x = torch.randn(b, 4104, device="cuda", dtype=torch.bfloat16)
        w = torch.randn(1000, 4104, device="cuda", dtype=torch.bfloat16) * 0.02
        ref = x @ w.t()
        inp, exp, out = (os.path.join(outdir, f"{n}{b}.npz") for n in ("in", "exp", "out"))
        np.savez(inp, arg0=raw(x), arg1=raw(w))
        np.savez(exp, out0=ref.float().cpu().numpy())
        r = subprocess.run([tt_run, "--no-time", "--inputs", inp, "--expected", exp,
                            "--save-outputs", out, ptx], capture_output=True, text=True)
        print(r.stdout.strip().splitlines()[-2:], r.stderr.strip())
        got = torch.from_numpy(np.load(out)["out0"]).cuda()
        err = ((got - ref.float()).norm() / ref.float().norm()).item()
        good = r.returncode == 0 and err < 1e-2
        ok = ok and good
        print(f"batch {b}: tt-run rc {r.returncode}, saved output vs torch rel_l2 {err:.2e} "
              f"{'PASS' if good else 'FAIL'}")
    print("tt_run_npz_gpu:", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
