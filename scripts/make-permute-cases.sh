#!/usr/bin/env bash
# Compiles the GPU suite's permute and argmax/argmin cases into OUTDIR (default
# permute-cases/) through the main job (tt-opt --decompose --fuse --splitk | tt-translate
# --ptx), in f32, f16 and bf16:
#  - transposes of 3x1000, 4097x3, 1x1 and 8192x8192 (a permute kernel: tiles exchanged
#    through shared memory, masked at the edges);
#  - permutations of 2x3x1000x7: [0,3,1,2], [3,2,1,0] and [1,0,3,2]... every kind: the last
#    dim moved with batch dims around it (a permute kernel), and [1,0,2,3]-like ones that
#    keep the last dim (a row copy: an elementwise kernel reading rows at mapped offsets);
#  - a transpose with a pointwise prologue and epilogue (exp, then a convert to f32): one
#    kernel;
#  - argmax and argmin over the last dim of 3x1000, 5x4097 and 1x1, of the input and of
#    x * 0 (all ties: the first index, 0), and over all dims (dim absent) of 3x1000.
# Runs on the build machine; the device runs the PTX with
#   scripts/gpu-suite.sh build-gpu/tt-run permute-cases
# and without a GPU `tt-run --ref-only FILE` evaluates the float64 reference of a case.
set -euo pipefail
default_out=permute-cases
source "$(dirname "$0")/caselib.sh"

permute() { # name dtype shape perm (comma-separated): x.permute(perm)
  local name=$1 t=$2 shape=$3 perm=$4
  IFS=x read -r -a s <<< "$shape"
  IFS=, read -r -a p <<< "$perm"
  local res="" i
  for i in "${!p[@]}"; do res="$res${s[${p[$i]}]}x"; done
  compile "$name" "${shape}_${perm//,/}_$t" "func.func @main(%x: tensor<${shape}x$t>) -> tensor<${res}$t> {
  %y = \"prim.transpose\"(%x) {permutation = array<i64: $perm>} : (tensor<${shape}x$t>) -> tensor<${res}$t>
  return %y : tensor<${res}$t>
}"
}

for t in f32 f16 bf16; do
  for shape in 3x1000 4097x3 1x1 8192x8192; do permute transpose $t $shape 1,0; done
  for perm in 0,3,1,2 3,2,1,0 0,1,3,2 2,3,0,1 1,0,2,3 2,0,1,3; do
    permute permute $t 2x3x1000x7 $perm
  done
  compile transpose_exp_f32 "1000x33_$t" "func.func @main(%x: tensor<1000x33x$t>) -> tensor<33x1000xf32> {
  %e = \"prim.exp\"(%x) : (tensor<1000x33x$t>) -> tensor<1000x33x$t>
  %y = \"prim.transpose\"(%e) {permutation = array<i64: 1, 0>} : (tensor<1000x33x$t>) -> tensor<33x1000x$t>
  %z = \"prim.convert\"(%y) : (tensor<33x1000x$t>) -> tensor<33x1000xf32>
  return %z : tensor<33x1000xf32>
}"
done
ls "$out" | wc -l
