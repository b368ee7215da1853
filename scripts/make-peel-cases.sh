#!/usr/bin/env bash
# Compiles the A/B of `--tile peel-last` (rows.c, step 4c: chunk loops split into the
# row's whole steps, unmasked, and the partial last step) into OUTDIR (default peel/):
#   OUTDIR/peel/       peel-last=1;
#   OUTDIR/peel-def/   peel-last=0 (the default before run 9), the same names;
# over row kernels whose last chunk is partial: odd widths (staged, split over a cluster,
# looped under stage-odd=0, a dynamic M), aligned rows of a partial last chunk (50256,
# 70000, f16, f32), a variance pair, an argmax; and rows of whole chunks (65536, 98304:
# unchanged PTX, the control). Correctness: scripts/gpu-suite.sh TT_RUN OUTDIR/peel;
# time: scripts/bench_row_variants.sh TT_RUN ROUNDS def=OUTDIR/peel-def peel=OUTDIR/peel.
# Usage: scripts/make-peel-cases.sh [OUTDIR]
set -euo pipefail
default_out=peel
source "$(dirname "$0")/caselib.sh"
base=$out
mkdir -p "$base/peel" "$base/peel-def"
rm -f "$base"/peel/*.ptx "$base"/peel/*.runs "$base"/peel-def/*.ptx "$base"/peel-def/*.runs
both() { # name tag mlir [more tile options]
  compile_ab "$base/peel" "peel-last=1 ${4:-}" "$base/peel-def" "peel-last=0 ${4:-}" "$1" "$2" "$3"
}
for shape in 2048x50257 1000x70001 3000x33333 2048x50256 1000x70000 8x50257 48x65537 \
  2048x65536 512x98304; do
  for ex in softmax rms_norm layer_norm; do
    both "$ex" "$shape" "$(rows "$ex" "${shape%x*}" "${shape#*x}")"
  done
done
both log_softmax 2048x50257_f32 "$(f32rows log_softmax 2048 50257)"
both softmax 1024x40000_f32 "$(f32rows softmax 1024 40000)"
both softmax 512x40001_f16 "$(rows softmax 512 40001 | sed 's/bf16/f16/g')"
both residual_rms_norm 2048x40003 "$(rows residual_rms_norm 2048 40003)"
both residual_rms_norm 2048x50000 "$(rows residual_rms_norm 2048 50000)"
both rms_norm 1x262147 "$(rows rms_norm 1 262147)"
both softmax 1000x70001_looped "$(rows softmax 1000 70001)" "stage-odd=0"
both layer_norm 1000x70001_looped "$(rows layer_norm 1000 70001)" "stage-odd=0"
both layer_norm 1000x70000_looped "$(rows layer_norm 1000 70000)" "row-stage=0"
both argmax 4x50257 "$(sed -e 's/4x152064/4x50257/g' "$root/examples/greedy_argmax_bf16.mlir")"
both softmax dyn_50257 "$(dynrows softmax 50257)"
for d in peel peel-def; do
  printf '%s\n' "--dim s0=1000" "--dim s0=3" > "$base/$d/softmax_dyn_50257.runs"
done
both var 1000x70001_f32 'func.func @main(%x: tensor<1000x70001xf32>) -> tensor<1000xf32> {
  %s = "prim.var"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<1000x70001xf32>) -> tensor<1000xf32>
  return %s : tensor<1000xf32>
}'
ls "$base/peel" | wc -l
