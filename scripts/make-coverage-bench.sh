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
xt="tensor<1x4096x32x128x$t>" ht="tensor<1x4096x32x64x$t>" ct="tensor<4096x64x$t>" one="array<i64: 1, 1, 1, 1>"
compile rotary 1x4096x32x128 "func.func @main(%x: $xt, %cos: $ct, %sin: $ct) -> ($ht, $ht) {
  %x1 = \"prim.slice\"(%x) {start = array<i64: 0, 0, 0, 0>, stop = array<i64: 1, 4096, 32, 64>, step = $one} : ($xt) -> $ht
  %x2 = \"prim.slice\"(%x) {start = array<i64: 0, 0, 0, 64>, stop = array<i64: 1, 4096, 32, 128>, step = $one} : ($xt) -> $ht
  %c = \"prim.broadcast_in_dim\"(%cos) {broadcast_dimensions = array<i64: 1, 3>} : ($ct) -> $ht
  %n = \"prim.broadcast_in_dim\"(%sin) {broadcast_dimensions = array<i64: 1, 3>} : ($ct) -> $ht
  %a = \"prim.mul\"(%x1, %c) : ($ht, $ht) -> $ht
  %q = \"prim.mul\"(%x2, %n) : ($ht, $ht) -> $ht
  %o1 = \"prim.sub\"(%a, %q) : ($ht, $ht) -> $ht
  %u = \"prim.mul\"(%x2, %c) : ($ht, $ht) -> $ht
  %v = \"prim.mul\"(%x1, %n) : ($ht, $ht) -> $ht
  %o2 = \"prim.add\"(%u, %v) : ($ht, $ht) -> $ht
  return %o1, %o2 : $ht, $ht
}"
compile pre_norm 8192x8192 "$(cat "$root/examples/pre_norm_bf16.mlir")"
compile concat 4096x4096 "func.func @main(%a: tensor<4096x4096x$t>, %b: tensor<4096x4096x$t>) -> tensor<4096x8192x$t> {
  %c = \"prim.concat\"(%a, %b) {dim = 1 : i64} : (tensor<4096x4096x$t>, tensor<4096x4096x$t>) -> tensor<4096x8192x$t>
  return %c : tensor<4096x8192x$t>
}"
compile transpose 8192x8192 "func.func @main(%x: tensor<8192x8192x$t>) -> tensor<8192x8192x$t> {
  %y = \"prim.transpose\"(%x) {permutation = array<i64: 1, 0>} : (tensor<8192x8192x$t>) -> tensor<8192x8192x$t>
  return %y : tensor<8192x8192x$t>
}"
