#!/usr/bin/env bash
# Compiles the GPU suite's composite cases into OUTDIR (default composite-cases/): the
# PyTorch composites mean, var, std, relu and clamp (issue 21, items 2 and 4) through the
# main job (tt-opt --decompose --fuse --splitk | tt-translate --ptx), in f32, f16 and bf16:
#  - mean over dim 0 (column), dim 1 (row) and all dims (dims 0, 1) of 5x4097, and over
#    dim 1 with keepdim = true;
#  - var and std over the last dim and over dim 0 of 3x1000, correction 0 and 1 (the
#    default, left out), var over the last dim with keepdim = true;
#  - relu of 1000 elements, clamp of 1000 elements with min and max, min only, max only.
# Runs on the build machine; the device runs the PTX with
#   scripts/gpu-suite.sh build-gpu/tt-run composite-cases
# and without a GPU `tt-run --ref-only FILE` evaluates the float64 reference of a case.
set -euo pipefail
default_out=composite-cases
source "$(dirname "$0")/caselib.sh"

# reduce NAME OP DTYPE SHAPE DIMS KEEPDIM [ATTRS] (caselib.sh): OP over DIMS of a SHAPE
# tensor, with ", correction = 0" etc. as ATTRS

# pointwise NAME DTYPE N OP [ATTRS]: OP of a 1-D tensor of N elements
pointwise() {
  local name=$1 t=$2 n=$3 op=$4 attrs=${5:-}
  local tt="tensor<${n}x$t>"
  compile "$name" "${n}_$t" "func.func @main(%x: $tt) -> $tt {
  %y = \"prim.$op\"(%x) ${attrs:+{$attrs\} }: ($tt) -> $tt
  return %y : $tt
}"
}

for t in f32 f16 bf16; do
  reduce mean_dim0 mean $t 5x4097 0 false
  reduce mean_dim1 mean $t 5x4097 1 false
  reduce mean_all mean $t 5x4097 0,1 false
  reduce mean_dim1_keepdim mean $t 5x4097 1 true
  for op in var std; do
    reduce ${op}_last $op $t 3x1000 1 false
    reduce ${op}_last_c0 $op $t 3x1000 1 false ", correction = 0"
    reduce ${op}_dim0 $op $t 3x1000 0 false
    reduce ${op}_dim0_c0 $op $t 3x1000 0 false ", correction = 0"
  done
  reduce var_last_keepdim var $t 3x1000 1 true
  pointwise relu $t 1000 relu
  pointwise clamp $t 1000 clamp "min = -0.5 : f32, max = 0.75 : f32"
  pointwise clamp_min $t 1000 clamp "min = -0.25 : f32"
  pointwise clamp_max $t 1000 clamp "max = 0.5 : f32"
done
ls "$out" | wc -l
