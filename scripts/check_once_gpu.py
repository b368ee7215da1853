"""`once` launches through the PyTorch runtime (tt.load), on the GPU (issue 24): a linear
layer x [M, K] @ w[N, K]^T with K = 4100 (its weight padded to 128-byte rows by a `once`
launch: scripts/make-odd-bench.sh's f16_7x1000x4100.ptx) called as a model calls it:
  1. twice with the same weight (the second call skips the pad and reads the padded copy
     kept from the first), each against torch.matmul;
  2. after the weight changed in place: stale without refresh() (shown, not required),
     right after Program.refresh();
  3. with another weight tensor (another address): right without a refresh;
  4. in a torch CUDA graph captured after a warm-up call, replayed on new activations;
  5. a call with a new weight captured into a CUDA graph (nothing runs at a capture, so the
     once kernels stay due) and not replayed, then an eager call with that weight.
Usage (device): python scripts/check_once_gpu.py PTX   (TT_LIBTTRT: build-gpu/libttrt.so)
Exit 1 on any wrong result."""

import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from tt.runtime import load  # noqa: E402


def check(what, got, x, w, want_ok=True):
    ref = (x.double() @ w.double().t())
    err = ((got.double() - ref).norm() / ref.norm()).item()
    ok = err < 2e-3
    print(f"{what}: rel_l2 {err:.1e} {'PASS' if ok == want_ok else 'FAIL'}"
          f"{'' if want_ok else ' (stale, as expected without refresh)'}")
    return ok == want_ok


def main(ptx):
    torch.manual_seed(0)
    p = load(ptx)
    m, n, k = 7, 1000, 4100
    x = torch.randn(m, k, device="cuda", dtype=torch.float16)
    w = torch.randn(n, k, device="cuda", dtype=torch.float16) * 0.05
    good = check("first call", p(x, w), x, w)
    x2 = torch.randn_like(x)
    good &= check("second call, same weight (pad skipped)", p(x2, w), x2, w)
    w.mul_(-2.0)  # in place: same address
    good &= check("weight changed in place, no refresh", p(x, w), x, w, want_ok=False)
    p.refresh()
    good &= check("after refresh()", p(x, w), x, w)
    w2 = torch.randn(n, k, device="cuda", dtype=torch.float16) * 0.05
    good &= check("another weight tensor", p(x, w2), x, w2)
    xs = torch.randn_like(x)
    p(xs, w2)  # warm-up: the once launches ran for w2
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = p(xs, w2)
    xs.copy_(torch.randn_like(x))
    g.replay()
    torch.cuda.synchronize()
    good &= check("CUDA graph replay on new activations", out, xs, w2)
    q = load(ptx)
    q(x, w2)  # binds the sizes (a first call allocates: never inside a capture)
    w3 = torch.randn(n, k, device="cuda", dtype=torch.float16) * 0.05
    g2 = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g2):
        q(xs, w3)
    good &= check("after a captured call with a new weight, eager", q(x, w3), x, w3)
    print("check_once:", "PASS" if good else "FAIL")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
