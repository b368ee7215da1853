#!/usr/bin/env bash
# Compiles the rows of bench_rows.py below 90% of copy on the H200 (2026-11-27: layer_norm
# 4096 x 32768 and 2048 x 65536, rms_norm and residual + rms_norm 2048 x 65536) and bias +
# GELU 8192 x 8192 under --tile variants, one folder a variant, the same names in each,
# for scripts/bench_row_variants.sh TT_RUN ROUNDS def=OUTDIR/def w8=OUTDIR/w8 ...:
#   rows: def (the defaults), w8 / w32 (num-warps), rs0 / rs2 (row-stage), sr0 / sr128
#         (stage-regs), c2 (cluster=2);
#   elementwise (OUTDIR/e-*): def, b2k / b4k (block-size 2048 / 4096 on 4 warps), b2k8 /
#         b4k8 (on 8 warps), b512 (512 on 4 warps).
# Usage: scripts/make-slow-rows-cases.sh [OUTDIR]
set -euo pipefail
default_out=slow-rows
source "$(dirname "$0")/caselib.sh"
base=$out
variant() { # folder tile-options
  mkdir -p "$base/$1"; out=$base/$1; rm -f "$out"/*.ptx
  compile layer_norm 4096x32768 "$(rows layer_norm 4096 32768)" "$2"
  compile layer_norm 2048x65536 "$(rows layer_norm 2048 65536)" "$2"
  compile rms_norm 2048x65536 "$(rows rms_norm 2048 65536)" "$2"
  compile residual_rms_norm 2048x65536 "$(rows residual_rms_norm 2048 65536)" "$2"
}
variant def ""
variant w8 "num-warps=8"
variant w32 "num-warps=32"
variant rs0 "row-stage=0"
variant rs2 "row-stage=2"
variant sr0 "stage-regs=0"
variant sr128 "stage-regs=128"
variant c2 "cluster=2"
evariant() { # folder tile-options
  mkdir -p "$base/e-$1"; out=$base/e-$1; rm -f "$out"/*.ptx
  compile bias_gelu 8192x8192 "$(cat "$root/examples/bias_gelu.mlir")" "$2"
}
evariant def ""
evariant b2k "block-size=2048"
evariant b4k "block-size=4096"
evariant b2k8 "block-size=2048 num-warps=8"
evariant b4k8 "block-size=4096 num-warps=8"
evariant b512 "block-size=512"
