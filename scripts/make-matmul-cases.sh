#!/usr/bin/env bash
# Compiles the GPU suite's matmul cases into OUTDIR (default matmul-cases/): prim.matmul
# with torch.matmul's shapes (issue 21, item 6), which --decompose rewrites into the 2-D and
# 3-D forms the dot kernels take, through the main job
# (tt-opt --decompose --fuse --splitk | tt-translate --ptx), at odd sizes:
#  - 4-D on both sides, 2x3x5x70 @ 2x3x70x33 f16 (a batched [6, 5, 70] x [6, 70, 33]);
#  - a 3-D activation times a 2-D weight, 3x7x100 @ 100x65 bf16 (one [21, 100] x [100, 65]);
#  - attention's q @ k^T, q and k 2x4x17x64 f16, k^T a prim.transpose of the last two dims
#    (read in place: [8, 17, 64] x transpose([8, 17, 64]));
#  - a broadcast batch dim, 2x1x5x40 @ 3x40x24 f16 (both materialized to [6, ., .]);
#  - 1-D operands: a vector times a matrix and a matrix times a vector, 1-D against a
#    batch, in bf16;
#  - f32 operands (XLA's BF16_BF16_F32_X3: bf16 hi/lo parts, three products): a linear's
#    37x100 @ (65x100)^T and the 4-D case, held to --tol 1e-4 (NAME.runs: the parts'
#    bf16 dtype would loosen the default to bf16's 1e-2).
#  - a constant weight (prim.full) read through a transpose: stored by a kernel of its own.
# Runs on the build machine; the device runs the PTX with
#   scripts/gpu-suite.sh build-gpu/tt-run matmul-cases
# and without a GPU `tt-run --ref-only FILE` evaluates the float64 reference of a case.
set -euo pipefail
default_out=matmul-cases
source "$(dirname "$0")/caselib.sh"

mm() { # name size-tag a-shape b-shape result-shape dtype [b-transposed: b's shape before]
  local t=$6 at="tensor<$3x$6>" bt="tensor<$4x$6>" rt="tensor<$5x$6>"
  if [ -n "${7:-}" ]; then
    local st="tensor<$7x$6>" r perm # the permutation swapping the last two of r dims
    r=$(($(tr -cd x <<< "$7" | wc -c) + 1))
    perm=$(seq 0 $((r - 3)) | paste -sd, | sed 's/,/, /g')
    perm="${perm:+$perm, }$((r - 1)), $((r - 2))"
    compile "$1" "$2" "func.func @main(%a: $at, %k: $st) -> $rt {
  %b = \"prim.transpose\"(%k) {permutation = array<i64: $perm>} : ($st) -> $bt
  %y = \"prim.matmul\"(%a, %b) : ($at, $bt) -> $rt
  return %y : $rt
}"
  else
    compile "$1" "$2" "func.func @main(%a: $at, %b: $bt) -> $rt {
  %y = \"prim.matmul\"(%a, %b) : ($at, $bt) -> $rt
  return %y : $rt
}"
  fi
}

mm matmul4d 2x3x5x70x33_f16 2x3x5x70 2x3x70x33 2x3x5x33 f16
mm matmul3d2d 3x7x100x65_bf16 3x7x100 100x65 3x7x65 bf16
mm qkT 2x4x17x64_f16 2x4x17x64 2x4x64x17 2x4x17x17 f16 2x4x17x64
mm broadcast 2x1x5x40_3x40x24_f16 2x1x5x40 3x40x24 2x3x5x24 f16
mm vecmat 40x24_bf16 40 40x24 24 bf16
mm matvec 24x40_bf16 24x40 40 24 bf16
mm vecbatch 3x40x24_bf16 40 3x40x24 3x24 bf16
rm -f "$out"/*.runs
mm linear 37x100x65_f32 37x100 100x65 37x65 f32 65x100
mm matmul4d 2x3x5x70x33_f32 2x3x5x70 2x3x70x33 2x3x5x33 f32
for c in linear_37x100x65_f32 matmul4d_2x3x5x70x33_f32; do echo "--tol 1e-4" > "$out/$c.runs"; done
ls "$out" | wc -l
# a constant weight (prim.full, stored by its own kernel, read through a transpose)
compile const_weight 37x64x48_bf16 "$(cat "$root/test/lit/tt-translate/Inputs/constant-operand.mlir")"
