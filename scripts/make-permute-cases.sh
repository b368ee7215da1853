#!/usr/bin/env bash
# Compiles the GPU suite's permute and argmax/argmin cases into OUTDIR (default
# permute-cases/) through the main job (tt-opt --decompose --fuse --splitk | tt-translate
# --ptx), in f32, f16 and bf16:
#  - transposes of 3x1000, 4097x3, 1x1 and 8192x8192 (a permute kernel: tiles exchanged
#    through shared memory, masked at the edges);
#  - permutations of 2x3x1000x7 ([0,3,1,2], [3,2,1,0], [0,1,3,2], [2,3,0,1]: the last dim
#    moved, batch dims around it: a permute kernel; [1,0,2,3], [2,0,1,3]: the last dim
#    kept, a row copy: an elementwise kernel reading rows at mapped offsets) and of
#    3x1000x7 ([0,2,1], [2,1,0]);
#  - a transpose with a pointwise prologue and epilogue (exp, then a convert to f32): one
#    kernel;
#  - argmax and argmin over the last dim of 3x1000, 5x4097 and 1x1, of the input and of
#    x * 0 (all ties: the first index, 0), with keepdim, over all dims (dim absent) and
#    over dim 0 (a transpose first) of 3x1000; and over rows past 32768 (the looped form's
#    one pass, --tile=looped-arg=1, the default; few rows split over a cluster): 4x152064
#    (a vocabulary), 3x40001, with ties too.
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
  for perm in 0,2,1 2,1,0; do permute permute $t 3x1000x7 $perm; done
  compile transpose_exp_f32 "1000x33_$t" "func.func @main(%x: tensor<1000x33x$t>) -> tensor<33x1000xf32> {
  %e = \"prim.exp\"(%x) : (tensor<1000x33x$t>) -> tensor<1000x33x$t>
  %y = \"prim.transpose\"(%e) {permutation = array<i64: 1, 0>} : (tensor<1000x33x$t>) -> tensor<33x1000x$t>
  %z = \"prim.convert\"(%y) : (tensor<33x1000x$t>) -> tensor<33x1000xf32>
  return %z : tensor<33x1000xf32>
}"
done
argred() { # name op dtype shape dim(or "none") keepdim zero(1: of x * 0, all ties) [tile-opts]
  local name=$1 op=$2 t=$3 shape=$4 dim=$5 keep=$6 zero=$7 opts=${8:-}
  IFS=x read -r -a s <<< "$shape"
  local res="" i attrs="keepdim = $keep"
  for i in "${!s[@]}"; do
    if [ "$dim" != none ] && [ "$i" != "$dim" ]; then res="$res${s[$i]}x"
    elif [ "$keep" = true ]; then res="${res}1x"; fi
  done
  [ "$dim" = none ] || attrs="dim = $dim : i64, $attrs"
  local xt="tensor<${shape}x$t>" body="" v=%x
  if [ "$zero" = 1 ]; then
    body="  %z = \"prim.full\"() {value = 0.0 : f32} : () -> $xt
  %v = \"prim.mul\"(%x, %z) : ($xt, $xt) -> $xt
"
    v=%v
  fi
  compile "$name" "${shape}_${dim}_$t" "func.func @main(%x: $xt) -> tensor<${res}i64> {
$body  %y = \"prim.$op\"($v) {$attrs} : ($xt) -> tensor<${res}i64>
  return %y : tensor<${res}i64>
}" "$opts"
}

for t in f32 f16 bf16; do
  for op in argmax argmin; do
    for shape in 3x1000 5x4097 1x1; do
      argred $op $op $t $shape 1 false 0
      argred ${op}_ties $op $t $shape 1 false 1
    done
    for shape in 4x152064 3x40001; do # the looped form (--tile=looped-arg=1)
      argred $op $op $t $shape 1 false 0 looped-arg=1
      argred ${op}_ties $op $t $shape 1 false 1 looped-arg=1
    done
    argred ${op}_keepdim $op $t 3x1000 1 true 0
    argred ${op}_all $op $t 3x1000 none false 0
    argred ${op}_dim0 $op $t 3x1000 0 false 0
  done
done
ls "$out" | wc -l
