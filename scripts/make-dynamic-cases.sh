#!/usr/bin/env bash
# Compiles the GPU suite's dynamic-dimension cases into OUTDIR (default dynamic-cases/)
# (issue 21, item 5): programs whose leading dimension is `?`, compiled once through the
# main job (tt-opt --decompose --fuse --splitk | tt-translate --ptx), each run at several
# sizes. Beside each NAME.ptx, NAME.runs holds one line of tt-run arguments per run
# (--dim s0=N; gpu-suite.sh runs the case once per line):
#  - elementwise: bias + GELU(tanh) on [?, 8192] bf16 (the example), a per-row scale
#    x [?, 1000] * s [?, 1] f32 (a broadcast along the dynamic dim), at 1, 3, 1000 rows;
#  - data movement: an embedding lookup of a dynamic number of i64 ids in a 1000x4097 bf16
#    table, then exp (1, 3, 37 ids), and a pad of the last dim of [?, 1000] f32;
#  - rows: rms_norm [?, 4096] bf16, softmax [?, 1000] f16, layer_norm [?, 4097] f32, and a
#    looped row (softmax [?, 65536] bf16), at 1, 3, 37 (and 1000) rows;
#  - reductions over the dynamic dim: a column sum of squares with a bias epilogue
#    ([?, 1000] bf16), an amax over two dims from the dynamic one, an amax with a dynamic
#    outer ([?, 5, 64] over dim 1) then exp, a full sum of [?, 64];
#  - argmin over rows of 40001 f32 (the looped form's one pass) at 1, 3, 50 rows;
#  - format 7 sizes (s0*3): a linear layer on [?, 3, 512] activations, and attention on
#    [?, 8, 128, 64] through reshapes to batched matmuls, at 1, 3 (and 5, 300);
#  - batched matmuls with a dynamic batch: Q @ K^T [?, 128, 64] f16, P @ V + bias
#    [?, 100, 128] x [?, 128, 64] bf16, at batch 1, 3, 17;
#  - dot: f32 (bf16x3), f16 and bf16 linear layers [?, K] x [N, K]^T with odd N and K (4100 x 1000 with a
#    bias and GELU epilogue; 3001 x 4096: split-K adds rows off 16-byte alignment with no
#    static extent), an fp8 scaled_mm [?, 4096] x [4096, 4096]^T, and the decode
#    shape 8192 x 8192 f16, at M = 1, 7, 16, 17, 33, 64, 65, 100, 129, 300, 400 (every bucket
#    and its edges; 300 and 400 on the two parts of 257-512 that bucket-split makes at N = 4100).
# Runs on the build machine; the device runs the PTX with
#   scripts/gpu-suite.sh build-gpu/tt-run dynamic-cases
# and without a GPU `tt-run --ref-only --dim s0=N FILE` evaluates a case's reference.
set -euo pipefail
default_out=dynamic-cases
source "$(dirname "$0")/caselib.sh"
rm -f "$out"/*.runs

sizes() { # name size...: the case's runs, --dim s0=N each (a sum to a scalar, full_sum_*,
  # on inputs in [0, 1]: a sum of [-1, 1] may cancel to near 0, make-reduce-cases.sh)
  local name=$1 range=
  shift
  case $name in full_sum_*) range=" --range 0,1" ;; esac
  for n in "$@"; do echo "--dim s0=$n$range"; done > "$out/$name.runs"
}
dyn() { # name mlir-text size...: compile, then the sizes
  local name=$1 text=$2
  shift 2
  printf '%s\n' "$text" | "$bin/tt-opt" --decompose --fuse --splitk |
    "$bin/tt-translate" --ptx ${TT_MMA:+--mma=$TT_MMA} -o "$out/$name.ptx"
  sizes "$name" "$@"
}

dyn bias_gelu_bf16 "$(sed 's/8192x8192/?x8192/g' "$root/examples/bias_gelu.mlir")" 1 3 1000
dyn row_scale_f32 'func.func @main(%x: tensor<?x1000xf32>, %s: tensor<?x1xf32>) -> tensor<?x1000xf32> {
  %b = "prim.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<?x1xf32>) -> tensor<?x1000xf32>
  %y = "prim.mul"(%x, %b) : (tensor<?x1000xf32>, tensor<?x1000xf32>) -> tensor<?x1000xf32>
  return %y : tensor<?x1000xf32>
}' 1 3 1000
dyn embedding_exp_bf16 'func.func @main(%t: tensor<1000x4097xbf16>, %i: tensor<?xi64>) -> tensor<?x4097xbf16> {
  %e = "prim.index_select"(%t, %i) {dim = 0 : i64} : (tensor<1000x4097xbf16>, tensor<?xi64>) -> tensor<?x4097xbf16>
  %y = "prim.exp"(%e) : (tensor<?x4097xbf16>) -> tensor<?x4097xbf16>
  return %y : tensor<?x4097xbf16>
}' 1 3 37
dyn pad_f32 'func.func @main(%x: tensor<?x1000xf32>) -> tensor<?x1003xf32> {
  %p = "prim.pad"(%x) {low = array<i64: 0, 1>, high = array<i64: 0, 2>, value = 0.5 : f64} : (tensor<?x1000xf32>) -> tensor<?x1003xf32>
  return %p : tensor<?x1003xf32>
}' 1 3 1000
dyn rms_norm_bf16 "$(rows rms_norm '?' 4096)" 1 3 37 1000
dyn softmax_f16 "$(rows softmax '?' 1000 | sed 's/bf16/f16/g')" 1 3 37
dyn layer_norm_f32 "$(rows layer_norm '?' 4097 | sed 's/bf16/f32/g')" 1 3 37
dyn softmax_looped_bf16 "$(rows softmax '?' 65536)" 1 3 37
# reductions over the dynamic dim (column kernels with R at run time: sizes around the
# 16-row unroll) and with a dynamic outer
dyn col_sum_sq_bias_bf16 'func.func @main(%x: tensor<?x1000xbf16>, %b: tensor<1000xf32>) -> tensor<1000xbf16> {
  %xf = "prim.convert"(%x) : (tensor<?x1000xbf16>) -> tensor<?x1000xf32>
  %sq = "prim.mul"(%xf, %xf) : (tensor<?x1000xf32>, tensor<?x1000xf32>) -> tensor<?x1000xf32>
  %t = "prim.sum"(%sq) {dims = array<i64: 0>, keepdim = false} : (tensor<?x1000xf32>) -> tensor<1000xf32>
  %y = "prim.add"(%t, %b) : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>
  %r = "prim.convert"(%y) : (tensor<1000xf32>) -> tensor<1000xbf16>
  return %r : tensor<1000xbf16>
}' 1 3 17 1000 4097
dyn col_amax_two_dims_f32 'func.func @main(%x: tensor<?x5x64xf32>) -> tensor<64xf32> {
  %t = "prim.amax"(%x) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<?x5x64xf32>) -> tensor<64xf32>
  return %t : tensor<64xf32>
}' 1 3 37
dyn col_outer_amax_exp_f16 'func.func @main(%x: tensor<?x5x64xf16>) -> tensor<?x64xf16> {
  %t = "prim.amax"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<?x5x64xf16>) -> tensor<?x64xf16>
  %e = "prim.exp"(%t) : (tensor<?x64xf16>) -> tensor<?x64xf16>
  return %e : tensor<?x64xf16>
}' 1 3 1000
dyn full_sum_f32 'func.func @main(%x: tensor<?x64xf32>) -> tensor<f32> {
  %t = "prim.sum"(%x) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<?x64xf32>) -> tensor<f32>
  return %t : tensor<f32>
}' 1 3 1000
# argmin over rows past 32768 (the looped form's one pass) of a dynamic batch of rows
dyn argmin_looped_f32 'func.func @main(%x: tensor<?x40001xf32>) -> tensor<?xi64> {
  %y = "prim.argmin"(%x) {dim = 1 : i64} : (tensor<?x40001xf32>) -> tensor<?xi64>
  return %y : tensor<?xi64>
}' 1 3 50
# batched matmuls with a dynamic batch (grid axis 2 from dim(a, 0)): attention scores
# (B read transposed) and P @ V with a bias
dyn bmm_scores_f16 "$(bmm '?' 128 128 64 f16 1 0)" 1 3 17
dyn bmm_pv_bias_bf16 "$(bmm '?' 100 64 128 bf16 0)" 1 3 17
# format 7 (a dim that merges the dynamic one: s0*3): a linear layer on [?, 3, 512]
# activations, and attention on [?, 8, 128, 64] as PyTorch's export writes it (reshapes to
# bmm, K^T read in place, softmax over the scores)
dyn linear_3d_f16 'func.func @main(%x: tensor<?x3x512xf16>, %w: tensor<256x512xf16>) -> tensor<?x3x256xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<?x3x512xf16>, tensor<256x512xf16>) -> tensor<?x3x256xf16>
  return %y : tensor<?x3x256xf16>
}' 1 5 300
dyn attention_f16 'func.func @main(%q: tensor<?x8x128x64xf16>, %k: tensor<?x8x128x64xf16>, %v: tensor<?x8x128x64xf16>) -> tensor<?x8x128x64xf16> {
  %kt = "prim.transpose"(%k) {permutation = array<i64: 0, 1, 3, 2>} : (tensor<?x8x128x64xf16>) -> tensor<?x8x64x128xf16>
  %q3 = "prim.reshape"(%q) : (tensor<?x8x128x64xf16>) -> tensor<?x128x64xf16>
  %k3 = "prim.reshape"(%kt) : (tensor<?x8x64x128xf16>) -> tensor<?x64x128xf16>
  %s = "prim.matmul"(%q3, %k3) : (tensor<?x128x64xf16>, tensor<?x64x128xf16>) -> tensor<?x128x128xf16>
  %s4 = "prim.reshape"(%s) : (tensor<?x128x128xf16>) -> tensor<?x8x128x128xf16>
  %p = "prim.softmax"(%s4) {dim = 3 : i64} : (tensor<?x8x128x128xf16>) -> tensor<?x8x128x128xf16>
  %p3 = "prim.reshape"(%p) : (tensor<?x8x128x128xf16>) -> tensor<?x128x128xf16>
  %v3 = "prim.reshape"(%v) : (tensor<?x8x128x64xf16>) -> tensor<?x128x64xf16>
  %o = "prim.matmul"(%p3, %v3) : (tensor<?x128x128xf16>, tensor<?x128x64xf16>) -> tensor<?x128x64xf16>
  %o4 = "prim.reshape"(%o) : (tensor<?x128x64xf16>) -> tensor<?x8x128x64xf16>
  return %o4 : tensor<?x8x128x64xf16>
}' 1 3
M="1 7 16 17 33 64 65 100 129 300 400"
dyn linear_silu_f16 "$(linear '?' 4100 1000 f16 1 silu)" $M
dyn linear_bf16 "$(linear '?' 1000 4104 bf16 0)" $M
dyn linear_odd_n_f16 "$(linear '?' 3001 4096 f16 0)" $M # split-K's adds of rows off 16 bytes, no extent
dyn linear_8192_f16 "$(linear '?' 8192 8192 f16 0)" $M
dyn scaled_mm_fp8 "$(scaled_linear '?' 4096 4096 f8E4M3FN f8E4M3FN bf16 1)" $M
dyn scaled_mm_fp8_odd_k "$(scaled_linear '?' 1000 4100 f8E4M3FN f8E4M3FN f16 0)" $M # K pads (align-k)
dyn linear_f32 "$(linear '?' 300 1000 f32 1)" 1 17 100
sed -i 's/$/ --tol 1e-4/' "$out/linear_f32.runs" # f32 products: bf16x3 (make-matmul-cases.sh)
