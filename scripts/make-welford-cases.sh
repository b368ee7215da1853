#!/usr/bin/env bash
# Compiles the check and the A/B of the one-pass variance (--tile online-var: a
# variance's sum of squared deviations joins its mean's loop, Welford's update in each
# lane; passes/tile/welford.c) into OUTDIR (default welford/):
#   OUTDIR/chk/   correctness (scripts/gpu-suite.sh) of every row form that loops over a
#                 row: looped (2048 x 65536, 3 x 70001, a 1024-element block over 5 x 4097),
#                 staged (4096 x 32768), over a cluster (300 x 70000: the last part all
#                 masked; 512 x 131072; few rows 48 x 65536), f32 (5 x 70001, 1024 x
#                 32768), a dynamic M (? x 65536 at M = 1, 5, 1000), var and std (f32 and
#                 bf16, keepdim), rows that took the staged form with registers before
#                 (1000 x 54000, 2048 x 61440); the _off cases also on inputs in [1000, 1001] (f32) and
#                 [100, 101] (bf16): a mean that dwarfs the spread, where the mean square
#                 less the squared mean loses every digit;
#   OUTDIR/on/, OUTDIR/off/   the timed set with online-var=1 (the default) and 0, same
#                 names: scripts/bench_row_variants.sh TT_RUN ROUNDS on=... off=...
# Usage: scripts/make-welford-cases.sh [OUTDIR]
set -euo pipefail
default_out=welford
source "$(dirname "$0")/caselib.sh"
base=$out
mkdir -p "$base/chk" "$base/on" "$base/off"
out=$base/chk
for shape in 2048x65536 3x70001 4096x32768 300x70000 512x131072 48x65536; do
  compile layer_norm "$shape" "$(rows layer_norm "${shape%x*}" "${shape#*x}")"
done
compile layer_norm 5x4097_looped "$(rows layer_norm 5 4097)" "block-size=1024 num-warps=2"
compile layer_norm 5x70001_f32_off "$(f32rows layer_norm 5 70001)"
# (x - mean in f32 is off by up to half an ulp of 1000 against std 0.29: rel_l2 ~2e-4 in
# any f32 layer_norm, PyTorch's too; a mean square less the squared mean: ~1)
printf '%s\n' "" "--range 1000,1001 --tol 1e-3" > "$out/layer_norm_5x70001_f32_off.runs"
compile layer_norm 1024x32768_f32 "$(f32rows layer_norm 1024 32768)"
compile layer_norm 1000x54000 "$(rows layer_norm 1000 54000)"
compile layer_norm 2048x61440 "$(rows layer_norm 2048 61440)"
compile layer_norm 64x65536_off "$(rows layer_norm 64 65536)"
printf '%s\n' "" "--range 100,101" > "$out/layer_norm_64x65536_off.runs"
compile layer_norm dyn_65536 "$(dynrows layer_norm 65536)"
printf '%s\n' "--dim s0=1" "--dim s0=5" "--dim s0=1000" > "$out/layer_norm_dyn_65536.runs"
reduce var var f32 7x70001 1 false
reduce std_off std f32 33x50000 1 true ", correction = 0 : i64"
printf '%s\n' "" "--range 1000,1001" > "$out/std_off_33x50000_f32.runs"
reduce var var bf16 1000x40000 1 false
for v in on:1 off:0; do
  out=$base/${v%%:*}
  o="online-var=${v#*:}"
  for shape in 2048x65536 4096x32768 1000x65536 1000x40000 512x70000 8192x8192 2048x61440 \
    1000x54000 512x98304; do
    compile layer_norm "$shape" "$(rows layer_norm "${shape%x*}" "${shape#*x}")" "$o"
  done
  compile var 1024x40000_f32 'func.func @main(%x: tensor<1024x40000xf32>) -> tensor<1024xf32> {
  %y = "prim.var"(%x) {dims = array<i64: 1>} : (tensor<1024x40000xf32>) -> tensor<1024xf32>
  return %y : tensor<1024xf32>
}' "$o"
done
