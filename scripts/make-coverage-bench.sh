#!/usr/bin/env bash
# Compiles issue 21's benchmark cases into OUTDIR (default coverage-bench/) through the main
# job (tt-opt --decompose --fuse --splitk | tt-translate --ptx); scripts/bench_coverage.py
# times them on the device against PyTorch eager and torch.compile:
#   colsum / fullsum   sum over dim 0 / over both dims of an 8192x8192 bf16 tensor
#   gather_T           index_select of T = 16, 256, 4096 rows (i64 ids) of a 128256x4096
#                      bf16 table (an embedding lookup)
#   rotary             a rotary embedding step, x [1, 4096, 32, 128] bf16, cos/sin [4096, 64]:
#                      two outputs, x1*cos - x2*sin and x2*cos + x1*sin
#   pre_norm           h = x + r and rms_norm(h) * w, 8192x8192 bf16: two outputs
#   concat             torch.cat of two 4096x4096 bf16 halves along dim 1
#   transpose          an 8192x8192 bf16 transpose
#   argmax_BxV         greedy decoding's argmax over a vocabulary's logits, B = 1, 4, 64
#                      rows of V = 128256 (Llama-3) or 152064 (Qwen2) bf16: the looped
#                      form, one program a row
set -euo pipefail
default_out=coverage-bench
source "$(dirname "$0")/caselib.sh"
t=bf16
reduce colsum sum $t 8192x8192 0 false
reduce fullsum sum $t 8192x8192 0,1 false
for n in 16 256 4096; do
  compile gather "$n" "func.func @main(%w: tensor<128256x4096x$t>, %i: tensor<${n}xi64>) -> tensor<${n}x4096x$t> {
  %y = \"prim.index_select\"(%w, %i) {dim = 0 : i64} : (tensor<128256x4096x$t>, tensor<${n}xi64>) -> tensor<${n}x4096x$t>
  return %y : tensor<${n}x4096x$t>
}"
done
compile rotary 1x4096x32x128 "$(rotary_mlir $t 1 4096 32 128)"
compile pre_norm 8192x8192 "$(cat "$root/examples/pre_norm_bf16.mlir")"
compile concat 4096x4096 "func.func @main(%a: tensor<4096x4096x$t>, %b: tensor<4096x4096x$t>) -> tensor<4096x8192x$t> {
  %c = \"prim.concat\"(%a, %b) {dim = 1 : i64} : (tensor<4096x4096x$t>, tensor<4096x4096x$t>) -> tensor<4096x8192x$t>
  return %c : tensor<4096x8192x$t>
}"
compile transpose 8192x8192 "func.func @main(%x: tensor<8192x8192x$t>) -> tensor<8192x8192x$t> {
  %y = \"prim.transpose\"(%x) {permutation = array<i64: 1, 0>} : (tensor<8192x8192x$t>) -> tensor<8192x8192x$t>
  return %y : tensor<8192x8192x$t>
}"
for bv in 1x128256 4x152064 64x152064; do
  compile argmax "$bv" "func.func @main(%x: tensor<${bv}x$t>) -> tensor<${bv%x*}xi64> {
  %y = \"prim.argmax\"(%x) {dim = 1 : i64, keepdim = false} : (tensor<${bv}x$t>) -> tensor<${bv%x*}xi64>
  return %y : tensor<${bv%x*}xi64>
}"
done
