#!/usr/bin/env bash
# Compiles the GPU suite's reduction cases into OUTDIR (default reduce-cases/): reductions
# over dims other than the last alone (issue 21, item 2) through the main job
# (tt-opt --decompose --fuse --splitk | tt-translate --ptx), in f32, f16 and bf16:
#  - column sums (dim 0) of 3x1000, 5x4097, 1x1 and 4097x3 (one column kernel each;
#    4097x3: 3 columns, a loop over 4097 rows), amax and amin of 5x4097;
#  - a middle dim of 2x3x1000 (keepdim false and true), and amax over the middle dim of
#    3x70001x5 (5 columns; 70001 rows: odd, so no two-level split, one loop);
#  - full reductions (sum to a scalar) of 3x1000, 5x4097, 1x1, 4097x3 and a 3-D 2x3x1000,
#    amax of 5x4097, and dims {0, 2} of 2x3x1000 (two runs);
#  - a fused prologue and epilogue: sum over dim 0 of x*x, plus a bias, converted back;
#  - the benchmark shapes in bf16: column sums and the full sum of 8192x8192 (two-level:
#    64 slices of 128 rows) and of 4096x32768, column sums of 1048576x128, the middle dim
#    of 64x4096x256 (scripts/bench_reduce.py times these against torch.compile).
# Runs on the build machine; the device runs the PTX with
#   scripts/gpu-suite.sh build-gpu/tt-run reduce-cases
# and without a GPU `tt-run --ref-only FILE` evaluates the float64 reference of a case.
set -euo pipefail
default_out=reduce-cases
source "$(dirname "$0")/caselib.sh"

# reduce NAME OP DTYPE SHAPE DIMS KEEPDIM (caselib.sh): OP over DIMS of a SHAPE tensor

for t in f32 f16 bf16; do
  for shape in 3x1000 5x4097 1x1 4097x3; do
    reduce colsum sum $t $shape 0 false
    reduce fullsum sum $t $shape 0,1 false
  done
  reduce colmax amax $t 5x4097 0 false
  reduce colmin amin $t 5x4097 0 false
  reduce fullmax amax $t 5x4097 0,1 false
  reduce midsum sum $t 2x3x1000 1 false
  reduce midsum_keepdim sum $t 2x3x1000 1 true
  reduce midmax amax $t 3x70001x5 1 false
  reduce fullsum3d sum $t 2x3x1000 0,1,2 false
  reduce fullsum_keepdim sum $t 3x1000 0,1 true
  reduce runs02 sum $t 2x3x1000 0,2 false
  # prologue x*x (in f32) and epilogue bias add, rounded once
  compile colsq_bias "5x4097_$t" "func.func @main(%x: tensor<5x4097x$t>, %b: tensor<4097x$t>) -> tensor<4097x$t> {
  %xf = \"prim.convert\"(%x) : (tensor<5x4097x$t>) -> tensor<5x4097xf32>
  %q = \"prim.mul\"(%xf, %xf) : (tensor<5x4097xf32>, tensor<5x4097xf32>) -> tensor<5x4097xf32>
  %s = \"prim.sum\"(%q) {dims = array<i64: 0>, keepdim = false} : (tensor<5x4097xf32>) -> tensor<4097xf32>
  %bf = \"prim.convert\"(%b) : (tensor<4097x$t>) -> tensor<4097xf32>
  %y = \"prim.add\"(%s, %bf) : (tensor<4097xf32>, tensor<4097xf32>) -> tensor<4097xf32>
  %r = \"prim.convert\"(%y) : (tensor<4097xf32>) -> tensor<4097x$t>
  return %r : tensor<4097x$t>
}"
done
reduce colsum sum bf16 8192x8192 0 false
reduce fullsum sum bf16 8192x8192 0,1 false
# more shapes for scripts/bench_reduce.py: wide and tall columns, a middle dim
reduce colsum sum bf16 4096x32768 0 false
reduce fullsum sum bf16 4096x32768 0,1 false
reduce colsum sum bf16 1048576x128 0 false
reduce midsum sum bf16 64x4096x256 1 false
# A full sum to one scalar of inputs uniform in [-1, 1] may cancel to near 0, where a
# relative error means nothing (the dynamic suite's sum of 3 x 64 f32 once read rel_l2
# 4.1e-5 at a sum of 0.015): full sums run on [0, 1], whose sum cannot cancel and still
# shows one element lost or added (1 / (n / 2), past the tolerance for every n here).
for f in "$out"/fullsum_*.ptx "$out"/fullsum3d_*.ptx; do
  echo "--range 0,1" > "${f%.ptx}.runs"
done
ls "$out" | wc -l
