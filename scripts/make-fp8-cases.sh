#!/usr/bin/env bash
# Compiles the GPU suite's fp8 cases of kernels that compute (issue 24's fp8 quantize and
# dequantize: x.to(float8_e4m3fn) after a scale, and back) into OUTDIR (default fp8-cases/),
# through the main job (tt-opt --decompose --fuse --splitk | tt-translate --ptx), for E4M3FN
# and E5M2, at odd sizes:
#  - quant: (x * scale).to(fp8) of f16, bf16 and f32 x (1 x 4097, 3 x 1000, 1000 x 4097), a
#    scale tensor of one element broadcast;
#  - quant_over: x * 600 (E4M3FN) or x * 70000 (E5M2) on uniform x in [-1, 1): about a
#    quarter of the values round past the largest finite one, to NaN (E4M3FN has no
#    infinity) or to +-inf (E5M2), as PyTorch's casts do; checked element by element
#    (NaN meets NaN, inf the same inf);
#  - dequant: q.to(f32) * scale, stored as bf16 (7 x 1000, 1 x 4097);
#  - fake_quant: x.to(fp8).to(f16), a round trip in one kernel (5 x 4097);
#  - rows: rms_norm(x) then .to(fp8) (bf16, 33 x 4096 and 3 x 1000: a norm's fused
#    quantization); a per-row dynamic quantization, s = amax(|x|, -1) / 448, q = (x /
#    s).to(fp8), with s a second output (17 x 4097, and 5 x 40000: the looped row kernel;
#    one kernel, --fuse step 3's vertical merge); softmax of an fp8 input to f16 (5 x 1000);
#  - a column sum of fp8 to f32 (1000 x 7 over dim 0), a column amax in fp8;
#  - math on fp8 values without converts (computed in f32, rounded at the store): a row
#    sum in fp8 and a compare-and-select (7 x 1000), a transpose negated (a permute kernel
#    that computes), an iota converted to fp8 and added (past 448 / 57344 it overflows);
#  - a transpose of f16 quantized (1000 x 4097 -> 4097 x 1000 fp8: a permute kernel that
#    computes);
#  - GEMMs whose epilogue rounds to fp8 (a linear layer's output quantized for the next):
#    bf16 x [M, 4096] @ w [1000, 4096]^T at M = 7, 64, 300, 1000 (decode tiles with a split
#    summed in the last slice, prefill tiles; the split's rounding happens once, after the
#    sum: splitk.c step 3), with a bias at M = 33, and an e4m3 scaled_mm at 129 x 1000 x
#    4096 (f16 out, then e4m3).
#  - a dynamic M (1, 3, 1000, 4097 rows): quantization, rms_norm + quantization, per-row
#    dynamic quantization, a linear layer rounded to fp8.
# With BENCH_SHAPES="MxN ...", only scripts/bench_fp8_quant.py's cases (quant of bf16,
# rms_norm_quant, row_quant; e4m3) at those shapes.
# Runs on the build machine; the device runs the PTX with
#   scripts/gpu-suite.sh build-gpu/tt-run fp8-cases
# and without a GPU `tt-run --ref-only FILE` evaluates the float64 reference of a case.
set -euo pipefail
default_out=fp8-cases
source "$(dirname "$0")/caselib.sh"

quantized() { # text m n outdtype fp8: a GEMM program's result converted to fp8
  printf '%s\n' "$1" | sed -e "s|-> tensor<$2x$3x$4> {|-> tensor<$2x$3x$5> {|" \
    -e "s|  return %y : tensor<$2x$3x$4>|  %q = \"prim.convert\"(%y) : (tensor<$2x$3x$4>) -> tensor<$2x$3x$5>\n  return %q : tensor<$2x$3x$5>|"
}
quant_prog() { # MxN dtype fp8: (x.float() * s).to(fp8), s a scalar tensor
  local sh=$1 t=$2 q=$3
  printf '%s\n' "func.func @main(%x: tensor<${sh}x$t>, %s: tensor<f32>) -> tensor<${sh}x$q> {
  %a = \"prim.convert\"(%x) : (tensor<${sh}x$t>) -> tensor<${sh}xf32>
  %b = \"prim.broadcast_in_dim\"(%s) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<${sh}xf32>
  %c = \"prim.mul\"(%a, %b) : (tensor<${sh}xf32>, tensor<${sh}xf32>) -> tensor<${sh}xf32>
  %y = \"prim.convert\"(%c) : (tensor<${sh}xf32>) -> tensor<${sh}x$q>
  return %y : tensor<${sh}x$q>
}"
}
norm_prog() { # MxN fp8: rms_norm(x, w).to(fp8), x bf16
  local sh=$1 q=$2 n=${1#*x}
  printf '%s\n' "func.func @main(%x: tensor<${sh}xbf16>, %w: tensor<${n}xbf16>) -> tensor<${sh}x$q> {
  %n = \"prim.rms_norm\"(%x, %w) {eps = 1.0e-6 : f32} : (tensor<${sh}xbf16>, tensor<${n}xbf16>) -> tensor<${sh}xbf16>
  %y = \"prim.convert\"(%n) : (tensor<${sh}xbf16>) -> tensor<${sh}x$q>
  return %y : tensor<${sh}x$q>
}"
}
rowq_prog() { # M N fp8: s = amax(|x|, -1) / 448, q = (x / s).to(fp8); returns q and s
  local m=$1 n=$2 q=$3
  printf '%s\n' "func.func @main(%x: tensor<${m}x${n}xbf16>) -> (tensor<${m}x${n}x$q>, tensor<${m}x1xf32>) {
  %a = \"prim.convert\"(%x) : (tensor<${m}x${n}xbf16>) -> tensor<${m}x${n}xf32>
  %b = \"prim.abs\"(%a) : (tensor<${m}x${n}xf32>) -> tensor<${m}x${n}xf32>
  %m = \"prim.amax\"(%b) {dims = array<i64: 1>, keepdim = true} : (tensor<${m}x${n}xf32>) -> tensor<${m}x1xf32>
  %k = \"prim.constant\"() {value = dense<448.0> : tensor<${m}x1xf32>} : () -> tensor<${m}x1xf32>
  %s = \"prim.div\"(%m, %k) : (tensor<${m}x1xf32>, tensor<${m}x1xf32>) -> tensor<${m}x1xf32>
  %sb = \"prim.broadcast_in_dim\"(%s) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<${m}x1xf32>) -> tensor<${m}x${n}xf32>
  %d = \"prim.div\"(%a, %sb) : (tensor<${m}x${n}xf32>, tensor<${m}x${n}xf32>) -> tensor<${m}x${n}xf32>
  %y = \"prim.convert\"(%d) : (tensor<${m}x${n}xf32>) -> tensor<${m}x${n}x$q>
  return %y, %s : tensor<${m}x${n}x$q>, tensor<${m}x1xf32>
}"
}
if [ -n "${BENCH_SHAPES:-}" ]; then # the benchmark's cases (scripts/bench_fp8_quant.py) only
  for sh in $BENCH_SHAPES; do
    compile quant "${sh}_bf16_e4m3" "$(quant_prog "$sh" bf16 f8E4M3FN)"
    compile rms_norm_quant "${sh}_e4m3" "$(norm_prog "$sh" f8E4M3FN)"
    compile row_quant "${sh}_e4m3" "$(rowq_prog "${sh%x*}" "${sh#*x}" f8E4M3FN)"
  done
  ls "$out" | wc -l
  exit 0
fi
short() { case $1 in f8E4M3FN) echo e4m3 ;; f8E5M2) echo e5m2 ;; *) echo "$1" ;; esac; }
for q in f8E4M3FN f8E5M2; do
  s=$(short $q)
  for t in f16 bf16 f32; do
    for shape in 1x4097 3x1000 1000x4097; do
      compile quant "${shape}_${t}_$s" "$(quant_prog "$shape" $t $q)"
    done
  done
  big=600.0; [ $q = f8E5M2 ] && big=70000.0
  compile quant_over "3x1000_$s" "func.func @main(%x: tensor<3x1000xf32>) -> tensor<3x1000x$q> {
  %k = \"prim.constant\"() {value = dense<$big> : tensor<3x1000xf32>} : () -> tensor<3x1000xf32>
  %c = \"prim.mul\"(%x, %k) : (tensor<3x1000xf32>, tensor<3x1000xf32>) -> tensor<3x1000xf32>
  %y = \"prim.convert\"(%c) : (tensor<3x1000xf32>) -> tensor<3x1000x$q>
  return %y : tensor<3x1000x$q>
}"
  for shape in 7x1000 1x4097; do
    compile dequant "${shape}_$s" "func.func @main(%q: tensor<${shape}x$q>, %s: tensor<f32>) -> tensor<${shape}xbf16> {
  %a = \"prim.convert\"(%q) : (tensor<${shape}x$q>) -> tensor<${shape}xf32>
  %b = \"prim.broadcast_in_dim\"(%s) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<${shape}xf32>
  %c = \"prim.mul\"(%a, %b) : (tensor<${shape}xf32>, tensor<${shape}xf32>) -> tensor<${shape}xf32>
  %y = \"prim.convert\"(%c) : (tensor<${shape}xf32>) -> tensor<${shape}xbf16>
  return %y : tensor<${shape}xbf16>
}"
  done
  compile fake_quant "5x4097_$s" "func.func @main(%x: tensor<5x4097xf16>) -> tensor<5x4097xf16> {
  %a = \"prim.convert\"(%x) : (tensor<5x4097xf16>) -> tensor<5x4097x$q>
  %y = \"prim.convert\"(%a) : (tensor<5x4097x$q>) -> tensor<5x4097xf16>
  return %y : tensor<5x4097xf16>
}"
  for shape in 33x4096 3x1000; do
    n=${shape#*x}
    compile rms_norm_quant "${shape}_$s" "$(norm_prog "$shape" $q)"
  done
  compile row_quant "17x4097_$s" "$(rowq_prog 17 4097 $q)"
  compile row_quant "5x40000_$s" "$(rowq_prog 5 40000 $q)"
  compile softmax_in "5x1000_$s" "func.func @main(%q: tensor<5x1000x$q>) -> tensor<5x1000xf16> {
  %a = \"prim.convert\"(%q) : (tensor<5x1000x$q>) -> tensor<5x1000xf32>
  %b = \"prim.softmax\"(%a) {dim = 1 : i64} : (tensor<5x1000xf32>) -> tensor<5x1000xf32>
  %y = \"prim.convert\"(%b) : (tensor<5x1000xf32>) -> tensor<5x1000xf16>
  return %y : tensor<5x1000xf16>
}"
  compile sum_where "7x1000_$s" "func.func @main(%x: tensor<7x1000x$q>, %y: tensor<7x1000x$q>) -> (tensor<7x$q>, tensor<7x1000x$q>) {
  %s = \"prim.sum\"(%x) {dims = array<i64: 1>} : (tensor<7x1000x$q>) -> tensor<7x$q>
  %c = \"prim.compare\"(%x, %y) {direction = \"gt\"} : (tensor<7x1000x$q>, tensor<7x1000x$q>) -> tensor<7x1000xi1>
  %w = \"prim.where\"(%c, %x, %y) : (tensor<7x1000xi1>, tensor<7x1000x$q>, tensor<7x1000x$q>) -> tensor<7x1000x$q>
  return %s, %w : tensor<7x$q>, tensor<7x1000x$q>
}"
  compile col_amax "1000x7_$s" "func.func @main(%x: tensor<1000x7x$q>) -> tensor<7x$q> {
  %s = \"prim.amax\"(%x) {dims = array<i64: 0>} : (tensor<1000x7x$q>) -> tensor<7x$q>
  return %s : tensor<7x$q>
}"
  compile transpose_neg "64x96_$s" "func.func @main(%x: tensor<64x96x$q>) -> tensor<96x64x$q> {
  %t = \"prim.transpose\"(%x) {permutation = array<i64: 1, 0>} : (tensor<64x96x$q>) -> tensor<96x64x$q>
  %n = \"prim.neg\"(%t) : (tensor<96x64x$q>) -> tensor<96x64x$q>
  return %n : tensor<96x64x$q>
}"
  compile iota_add "1000_$s" "func.func @main(%x: tensor<1000x$q>) -> tensor<1000x$q> {
  %i = \"prim.iota\"() {dimension = 0 : i64} : () -> tensor<1000xi32>
  %f = \"prim.convert\"(%i) : (tensor<1000xi32>) -> tensor<1000x$q>
  %y = \"prim.add\"(%x, %f) : (tensor<1000x$q>, tensor<1000x$q>) -> tensor<1000x$q>
  return %y : tensor<1000x$q>
}"
  compile col_sum "1000x7_$s" "func.func @main(%q: tensor<1000x7x$q>) -> tensor<7xf32> {
  %a = \"prim.convert\"(%q) : (tensor<1000x7x$q>) -> tensor<1000x7xf32>
  %y = \"prim.sum\"(%a) {dims = array<i64: 0>} : (tensor<1000x7xf32>) -> tensor<7xf32>
  return %y : tensor<7xf32>
}"
  compile transpose_quant "1000x4097_$s" "func.func @main(%x: tensor<1000x4097xf16>) -> tensor<4097x1000x$q> {
  %t = \"prim.transpose\"(%x) {permutation = array<i64: 1, 0>} : (tensor<1000x4097xf16>) -> tensor<4097x1000xf16>
  %y = \"prim.convert\"(%t) : (tensor<4097x1000xf16>) -> tensor<4097x1000x$q>
  return %y : tensor<4097x1000x$q>
}"
  for m in 7 64 300 1000; do
    compile linear_quant "${m}x1000x4096_bf16_$s" "$(quantized "$(linear $m 1000 4096 bf16 0)" $m 1000 bf16 $q)"
  done
  compile linear_bias_quant "33x1000x4096_bf16_$s" "$(quantized "$(linear 33 1000 4096 bf16 1)" 33 1000 bf16 $q)"
  compile scaled_quant "129x1000x4096_e4m3_$s" \
    "$(quantized "$(scaled_linear 129 1000 4096 f8E4M3FN f8E4M3FN f16 0)" 129 1000 f16 $q)"
done
# a dynamic M (tt-run --dim s0=N, one run per line of NAME.runs: 1, 3, 1000, 4097 rows):
# a per-tensor quantization, rms_norm then quantization, a per-row dynamic quantization
# (two kernels: the vertical merge takes static rows), a linear layer rounded to fp8
dynamic() { # name text: one case with its runs
  compile "$1" dyn "$2"
  printf -- '--dim s0=%s\n' 1 3 1000 4097 > "$out/$1_dyn.runs"
}
dynamic quant_bf16_e4m3 "$(quant_prog 3x1000 bf16 f8E4M3FN | sed 's/tensor<3x1000x/tensor<?x1000x/g')"
dynamic rms_norm_quant_4096_e5m2 "$(norm_prog 3x4096 f8E5M2 | sed 's/tensor<3x4096x/tensor<?x4096x/g')"
dynamic row_quant_4097_e4m3 "$(rowq_prog 3 4097 f8E4M3FN | sed -e 's/tensor<3x/tensor<?x/g' \
  -e 's|  %k = "prim.constant"() {value = dense<448.0> : tensor<?x1xf32>} : () -> tensor<?x1xf32>|  %k0 = "prim.constant"() {value = dense<448.0> : tensor<f32>} : () -> tensor<f32>\n  %k = "prim.broadcast_in_dim"(%k0) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<?x1xf32>|')"
dynamic linear_quant_1000x4096_bf16_e4m3 "$(quantized "$(linear 7 1000 4096 bf16 0)" 7 1000 bf16 f8E4M3FN | sed 's/tensor<7x/tensor<?x/g')"
ls "$out" | wc -l
