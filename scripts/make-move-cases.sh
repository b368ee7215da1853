#!/usr/bin/env bash
# Compiles the GPU suite's data movement cases into OUTDIR (default move-cases/): slice
# and concat (issue 21, item 4) through the main job (tt-opt --decompose --fuse --splitk |
# tt-translate --ptx), in f32, f16 and bf16:
#  - slices with step 1 and step 3 in every dim of 3x1000 and 5x4097 (a copy kernel each:
#    a load at the mapped offsets);
#  - an expert's merged gate+up projection, 16x2x4097, split into its two halves and
#    swiglu'd, silu(gate) * up: the two slices and the chain are one elementwise kernel;
#  - concat (torch.cat) of 3x1000 and 3x7 along dim 1 and of 2x5 and 7x5 along dim 0, and
#    a chain cat(a, b, c) along dim 1 with an exp after it (one kernel);
#  - index_select as an embedding lookup: rows of a 1000x4097 table at 3 and 37 indices,
#    i32 and i64, then an exp (one kernel: an index load, then a data load); and along the
#    middle dim of 3x1000x7 (5 i64 indices);
#  - gather (torch.gather) of 3x1000x7 along each dim with an index of the same rank
#    (3x37x7 along dim 1, 2x1000x7 along dim 0, 3x1000x4 along dim 2), i64 and i32;
#  - iota along each dim of 3x1000 (a float arange) plus an input, and an i32 iota
#    converted to the float type then added (torch.arange(n, dtype=int32).float());
#  - pad of 3x1000 by low 1,2 and high 2,3 with the value 0.5, then exp, and a pad of only
#    the last dim (low 0,5 high 0,0 with -1);
#  - fp8 (e4m3 and e5m2), which kernels only move (tile/kernel.c moveOnly): the slices,
#    the concats, an embedding lookup, a gather, the pads (no exp) and transposes (1000 x
#    4097, and 1024 x 4096 and 64 x 96, whose columns leave the shared-memory exchange as
#    whole vectors).
# tt-run makes an index input uniform in [0, size of the indexed dim), so every case's
# indices are in range.
# Runs on the build machine; the device runs the PTX with
#   scripts/gpu-suite.sh build-gpu/tt-run move-cases
# and without a GPU `tt-run --ref-only FILE` evaluates the float64 reference of a case.
set -euo pipefail
default_out=move-cases
source "$(dirname "$0")/caselib.sh"

slice() { # name dtype shape start stop step: x[start:stop:step] per dim (comma-separated)
  local name=$1 t=$2 shape=$3 st=$4 sp=$5 sep=$6
  IFS=x read -r -a s <<< "$shape"
  IFS=, read -r -a a <<< "$st"
  IFS=, read -r -a b <<< "$sp"
  IFS=, read -r -a c <<< "$sep"
  local res="" i
  for i in "${!s[@]}"; do res="$res$(((b[i] - a[i] + c[i] - 1) / c[i]))x"; done
  local rt="tensor<${res}$t>"
  compile "$name" "${shape}_$t" "func.func @main(%x: tensor<${shape}x$t>) -> $rt {
  %s = \"prim.slice\"(%x) {start = array<i64: $st>, stop = array<i64: $sp>, step = array<i64: $sep>} : (tensor<${shape}x$t>) -> $rt
  return %s : $rt
}"
}

concats() { # concat (torch.cat) of 3x1000 and 3x7 along dim 1, and of 2x5 and 7x5 along dim 0
  compile concat1 "3x1000_3x7_$t" "func.func @main(%a: tensor<3x1000x$t>, %b: tensor<3x7x$t>) -> tensor<3x1007x$t> {
  %c = \"prim.concat\"(%a, %b) {dim = 1 : i64} : (tensor<3x1000x$t>, tensor<3x7x$t>) -> tensor<3x1007x$t>
  return %c : tensor<3x1007x$t>
}"
  compile concat0 "2x5_7x5_$t" "func.func @main(%a: tensor<2x5x$t>, %b: tensor<7x5x$t>) -> tensor<9x5x$t> {
  %c = \"prim.concat\"(%a, %b) {dim = 0 : i64} : (tensor<2x5x$t>, tensor<7x5x$t>) -> tensor<9x5x$t>
  return %c : tensor<9x5x$t>
}"
}
pad_last() { # a pad of only the last dim (low 0,5 high 0,0 with -1)
  compile pad_last "3x1000_$t" "func.func @main(%x: tensor<3x1000x$t>) -> tensor<3x1005x$t> {
  %p = \"prim.pad\"(%x) {low = array<i64: 0, 5>, high = array<i64: 0, 0>, value = -1.0 : f64} : (tensor<3x1000x$t>) -> tensor<3x1005x$t>
  return %p : tensor<3x1005x$t>
}"
}

for t in f32 f16 bf16; do
  slice slice1 $t 3x1000 1,7 3,1000 1,1
  slice slice3 $t 3x1000 0,2 3,1000 3,3
  slice slice1 $t 5x4097 1,0 4,4096 1,1
  slice slice3 $t 5x4097 1,1 5,4097 3,3
  h="16x1x4097x$t"
  compile gate_up_swiglu "16x2x4097_$t" "func.func @main(%x: tensor<16x2x4097x$t>) -> tensor<$h> {
  %g = \"prim.slice\"(%x) {start = array<i64: 0, 0, 0>, stop = array<i64: 16, 1, 4097>, step = array<i64: 1, 1, 1>} : (tensor<16x2x4097x$t>) -> tensor<$h>
  %u = \"prim.slice\"(%x) {start = array<i64: 0, 1, 0>, stop = array<i64: 16, 2, 4097>, step = array<i64: 1, 1, 1>} : (tensor<16x2x4097x$t>) -> tensor<$h>
  %s = \"prim.silu\"(%g) : (tensor<$h>) -> tensor<$h>
  %y = \"prim.mul\"(%s, %u) : (tensor<$h>, tensor<$h>) -> tensor<$h>
  return %y : tensor<$h>
}"
  concats
  compile concat3_exp "3x1000_3x7_3x1_$t" "func.func @main(%a: tensor<3x1000x$t>, %b: tensor<3x7x$t>, %d: tensor<3x1x$t>) -> tensor<3x1008x$t> {
  %c = \"prim.concat\"(%a, %b) {dim = 1 : i64} : (tensor<3x1000x$t>, tensor<3x7x$t>) -> tensor<3x1007x$t>
  %e = \"prim.concat\"(%c, %d) {dim = 1 : i64} : (tensor<3x1007x$t>, tensor<3x1x$t>) -> tensor<3x1008x$t>
  %y = \"prim.exp\"(%e) : (tensor<3x1008x$t>) -> tensor<3x1008x$t>
  return %y : tensor<3x1008x$t>
}"
done
idx() { # name tag x-shape index-type index-shape result-shape dim: index_select then exp
  local x="tensor<$3x$t>" i="tensor<$5x$4>" r="tensor<$6x$t>"
  compile "$1" "$2_$t" "func.func @main(%x: $x, %i: $i) -> $r {
  %s = \"prim.index_select\"(%x, %i) {dim = $7 : i64} : ($x, $i) -> $r
  %y = \"prim.exp\"(%s) : ($r) -> $r
  return %y : $r
}"
}
gat() { # name tag index-type index-shape dim: gather of 3x1000x7 along dim
  local x="tensor<3x1000x7x$t>" i="tensor<$4x$3>" r="tensor<$4x$t>"
  compile "$1" "$2_$t" "func.func @main(%x: $x, %i: $i) -> $r {
  %s = \"prim.gather\"(%x, %i) {dim = $5 : i64} : ($x, $i) -> $r
  return %s : $r
}"
}
for t in f32 f16 bf16; do
  idx embedding 1000x4097_3_i32 1000x4097 i32 3 3x4097 0
  idx embedding 1000x4097_37_i32 1000x4097 i32 37 37x4097 0
  idx embedding 1000x4097_3_i64 1000x4097 i64 3 3x4097 0
  idx embedding 1000x4097_37_i64 1000x4097 i64 37 37x4097 0
  idx index_select_mid 3x1000x7_5_i64 3x1000x7 i64 5 3x5x7 1
  gat gather0 3x1000x7_2x1000x7_i64 i64 2x1000x7 0
  gat gather1 3x1000x7_3x37x7_i64 i64 3x37x7 1
  gat gather2 3x1000x7_3x1000x4_i32 i32 3x1000x4 2
  for d in 0 1; do
    compile iota${d}_add "3x1000_$t" "func.func @main(%x: tensor<3x1000x$t>) -> tensor<3x1000x$t> {
  %i = \"prim.iota\"() {dimension = $d : i64} : () -> tensor<3x1000x$t>
  %y = \"prim.add\"(%i, %x) : (tensor<3x1000x$t>, tensor<3x1000x$t>) -> tensor<3x1000x$t>
  return %y : tensor<3x1000x$t>
}"
  done
  compile iota_i32_convert_add "3x1000_$t" "func.func @main(%x: tensor<3x1000x$t>) -> tensor<3x1000x$t> {
  %i = \"prim.iota\"() {dimension = 1 : i64} : () -> tensor<3x1000xi32>
  %f = \"prim.convert\"(%i) : (tensor<3x1000xi32>) -> tensor<3x1000x$t>
  %y = \"prim.add\"(%f, %x) : (tensor<3x1000x$t>, tensor<3x1000x$t>) -> tensor<3x1000x$t>
  return %y : tensor<3x1000x$t>
}"
  compile pad_exp "3x1000_$t" "func.func @main(%x: tensor<3x1000x$t>) -> tensor<6x1005x$t> {
  %p = \"prim.pad\"(%x) {low = array<i64: 1, 2>, high = array<i64: 2, 3>, value = 0.5 : f64} : (tensor<3x1000x$t>) -> tensor<6x1005x$t>
  %y = \"prim.exp\"(%p) : (tensor<6x1005x$t>) -> tensor<6x1005x$t>
  return %y : tensor<6x1005x$t>
}"
  pad_last
done
for t in f8E4M3FN f8E5M2; do
  slice slice1 $t 3x1000 1,7 3,1000 1,1
  slice slice3 $t 5x4097 1,1 5,4097 3,3
  concats
  compile embedding "1000x4097_37_i32_$t" "func.func @main(%x: tensor<1000x4097x$t>, %i: tensor<37xi32>) -> tensor<37x4097x$t> {
  %s = \"prim.index_select\"(%x, %i) {dim = 0 : i64} : (tensor<1000x4097x$t>, tensor<37xi32>) -> tensor<37x4097x$t>
  return %s : tensor<37x4097x$t>
}"
  gat gather1 3x1000x7_3x37x7_i64 i64 3x37x7 1
  compile pad "3x1000_$t" "func.func @main(%x: tensor<3x1000x$t>) -> tensor<6x1005x$t> {
  %p = \"prim.pad\"(%x) {low = array<i64: 1, 2>, high = array<i64: 2, 3>, value = 0.5 : f64} : (tensor<3x1000x$t>) -> tensor<6x1005x$t>
  return %p : tensor<6x1005x$t>
}"
  pad_last
  for s in 1000x4097 1024x4096 64x96; do
    IFS=x read -r r c <<<"$s"
    compile transpose "${s}_$t" "func.func @main(%x: tensor<${s}x$t>) -> tensor<${c}x${r}x$t> {
  %y = \"prim.transpose\"(%x) {permutation = array<i64: 1, 0>} : (tensor<${s}x$t>) -> tensor<${c}x${r}x$t>
  return %y : tensor<${c}x${r}x$t>
}"
  done
done
ls "$out" | wc -l
