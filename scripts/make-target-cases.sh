#!/usr/bin/env bash
# Compiles programs for chips other than sm_90a (tt-translate --arch: the geometry of
# a75a9d2, tiles and staged rows within the target's shared memory, register dots below
# sm_90) into OUTDIR/<arch>/ (default target-cases/): GEMMs aligned and odd (f16, bf16;
# fp8 scaled_mm on sm_89), a batched matmul, rows staged and looped, a reduction, the
# attention example. An H100/H200 runs sm_80/86/89 PTX through the driver's PTX JIT, so
# scripts/gpu-suite.sh TT_RUN OUTDIR/<arch> checks their results there (not their speed).
# Usage: scripts/make-target-cases.sh [OUTDIR]
set -euo pipefail
default_out=target-cases
source "$(dirname "$0")/caselib.sh"
base=$out
for arch in sm_80 sm_86 sm_89; do
  mkdir -p "$base/$arch"
  rm -f "$base/$arch"/*.ptx
  one() { # name mlir-text
    printf '%s\n' "$2" | "$bin/tt-translate" --arch=$arch --ptx -o "$base/$arch/$1.ptx"
  }
  for t in f16 bf16; do
    one "linear_1x4096x4096_$t" "$(linear 1 4096 4096 $t 0)"
    one "linear_64x4096x4096_$t" "$(linear 64 4096 4096 $t 1)"
    one "linear_1024x4096x4096_$t" "$(linear 1024 4096 4096 $t 0)"
    one "linear_gelu_7x1000x4100_$t" "$(linear 7 1000 4100 $t 1 gelu '{approximate = "tanh"}')"
    one "linear_1000x3001x4097_$t" "$(linear 1000 3001 4097 $t 1)"
  done
  one bmm_8x1024x1024x64_bf16 "$(bmm 8 1024 1024 64 bf16 1 0)"
  [ $arch = sm_89 ] && one scaled_mm_64x1024x4096_e4m3 \
    "$(scaled_linear 64 1024 4096 f8E4M3FN f8E4M3FN bf16 0)"
  one softmax_2048x50257 "$(rows softmax 2048 50257)"
  one rms_norm_1x262147 "$(rows rms_norm 1 262147)"
  one layer_norm_1000x4097 "$(rows layer_norm 1000 4097)"
  one softmax_4096x8192_f32 "$(f32rows softmax 4096 8192)"
  one attention_pv "$(cat "$root/examples/attention_pv_f16.mlir")"
done
ls "$base"/*/*.ptx | wc -l
