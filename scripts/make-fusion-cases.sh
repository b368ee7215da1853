#!/usr/bin/env bash
# Compiles the GPU suite's fusion cases into OUTDIR (default fusion-cases/): fusion without
# extra memory traffic (issue 21, item 3) through the main job (tt-opt --decompose --fuse
# --splitk | tt-translate --ptx), each one kernel (or two where the iteration spaces
# differ), with several outputs checked against the float64 reference:
#  - a rotary embedding step, two outputs: x [B, S, H, D] split into halves (slices), cos
#    and sin [S, D/2] broadcast over batch and heads, x1*cos - x2*sin and x2*cos + x1*sin:
#    one elementwise kernel, at 1x3x7x64, 3x1000x7x64 and 1x4096x32x128, f32/f16/bf16;
#  - a pre-norm step, two outputs: h = x + r and rms_norm(h) * w: one row kernel storing
#    both, bf16 at 3x1000, 4097x4096 and 8192x8192, f32 and f16 at 3x1000 and 4097x4096,
#    and bf16 rows of 40000 (the looped row kernel) at 5x40000;
#  - a broadcast feeding two groups: sum(x * b, -1) (a row kernel) and y + b (an
#    elementwise kernel), each recomputing b's broadcast: 2 kernels, not 3; 3x1000 and
#    4097x4096, f32/f16/bf16;
#  - a cheap value feeding two outputs: neg(exp(x)) and tanh(exp(x)), 2^20+3 elements: exp
#    recomputed in both, the two merged into one kernel; f32/f16/bf16;
#  - a per-row scale that is also a result, m = amax(x, -1, keepdim) and x / m (and
#    x / m + y): the row kernel of m takes the elementwise kernel that reads it (step 3's
#    vertical merge), one kernel storing both; 3x1000, 4097x4096 and 5x40000 (looped),
#    f32/f16/bf16.
# Runs on the build machine; the device runs the PTX with
#   scripts/gpu-suite.sh build-gpu/tt-run fusion-cases
# and without a GPU `tt-run --ref-only FILE` evaluates the float64 reference of a case.
set -euo pipefail
default_out=fusion-cases
source "$(dirname "$0")/caselib.sh"

rotary() { # dtype B S H D
  compile rotary "$2x$3x$4x$5_$1" "$(rotary_mlir "$@")"
}

pre_norm() { # dtype M N: examples/pre_norm_bf16.mlir at M x N in dtype
  compile pre_norm "${2}x${3}_$1" "$(sed -e "s/8192x8192xbf16/$2x$3x$1/g" \
    -e "s/tensor<8192xbf16>/tensor<$3x$1>/g" "$root/examples/pre_norm_bf16.mlir")"
}

fan_out() { # dtype M N
  local t=$1 mt="tensor<$2x$3x$1>" vt="tensor<$3x$1>" rt="tensor<$2x$1>"
  compile bcast_fan_out "${2}x${3}_$t" "func.func @main(%x: $mt, %y: $mt, %b: $vt) -> ($rt, $mt) {
  %bb = \"prim.broadcast_in_dim\"(%b) {broadcast_dimensions = array<i64: 1>} : ($vt) -> $mt
  %p = \"prim.mul\"(%x, %bb) : ($mt, $mt) -> $mt
  %s = \"prim.sum\"(%p) {dims = array<i64: 1>, keepdim = false} : ($mt) -> $rt
  %z = \"prim.add\"(%y, %bb) : ($mt, $mt) -> $mt
  return %s, %z : $rt, $mt
}"
}

exp_two() { # dtype n
  local vt="tensor<$2x$1>"
  compile exp_neg_tanh "$2_$1" "func.func @main(%x: $vt) -> ($vt, $vt) {
  %e = \"prim.exp\"(%x) : ($vt) -> $vt
  %a = \"prim.neg\"(%e) : ($vt) -> $vt
  %b = \"prim.tanh\"(%e) : ($vt) -> $vt
  return %a, %b : $vt, $vt
}"
}

row_scale() { # dtype M N
  local t=$1 mt="tensor<$2x$3x$1>" ct="tensor<$2x1x$1>"
  compile row_scale "${2}x${3}_$t" "func.func @main(%x: $mt, %y: $mt) -> ($mt, $ct) {
  %m = \"prim.amax\"(%x) {dims = array<i64: 1>, keepdim = true} : ($mt) -> $ct
  %mb = \"prim.broadcast_in_dim\"(%m) {broadcast_dimensions = array<i64: 0, 1>} : ($ct) -> $mt
  %q = \"prim.div\"(%x, %mb) : ($mt, $mt) -> $mt
  %r = \"prim.add\"(%q, %y) : ($mt, $mt) -> $mt
  return %r, %m : $mt, $ct
}"
}

for t in f32 f16 bf16; do
  row_scale $t 3 1000
  row_scale $t 4097 4096
  row_scale $t 5 40000
  rotary $t 1 3 7 64
  rotary $t 3 1000 7 64
  rotary $t 1 4096 32 128
  fan_out $t 3 1000
  fan_out $t 4097 4096
  exp_two $t 1048579
done
for t in f32 f16; do
  pre_norm $t 3 1000
  pre_norm $t 4097 4096
done
pre_norm bf16 3 1000
pre_norm bf16 4097 4096
pre_norm bf16 8192 8192
pre_norm bf16 5 40000
ls "$out" | wc -l
