#!/usr/bin/env bash
# Compiles the A/B of convert-tile-to-gpu's `masked-loads` option (a masked vector load as
# a branch, 0, or as a load from a selected address and a select, 1: no branch) into
# OUTDIR (default masked-loads/): OUTDIR/br/ and OUTDIR/sel/, same names, the pipeline of
# tt-translate (--decompose --fuse, --tile, --splitk, --pipeline=stage-in=auto, --pdl)
# run by tt-opt, then --convert-tile-to-gpu='sm=90 mma=wgmma masked-loads=0|1' and
# tt-translate --ptx on the gpu-level module. Cases: looped rows with a partial last chunk
# (row-stage=0: layer_norm 512 x 70000, rms_norm 512 x 90000, softmax 512 x 80000, where
# the branches serialize the loads: 38 branches against 12 in layer_norm's PTX), the row
# kernels of bench_rows.py at 8192 x 8192, 4096 x 32768 and 2048 x 65536, and bias + GELU
# 8192 x 8192 (examples/bias_gelu.mlir). With masked-loads=1 as the default, 256 of the
# 482 cases of the gpu, fusion, reduce, composite, dynamic, staged-rows, move and permute
# suites change their PTX (2026-11-27): those suites are the correctness check. On the
# device:
#   scripts/bench_row_variants.sh TT_RUN 3 br=OUTDIR/br sel=OUTDIR/sel
#   scripts/gpu-suite.sh TT_RUN OUTDIR/sel
# Usage: scripts/make-masked-load-cases.sh [OUTDIR]
set -euo pipefail
default_out=masked-loads
source "$(dirname "$0")/caselib.sh"
base=$out
mkdir -p "$base/br" "$base/sel"
variant() { # name text tile-options
  local v n
  for v in br:0 sel:1; do
    n=${v#*:}
    printf '%s\n' "$2" | "$bin/tt-opt" --decompose --fuse --tile${3:+="$3"} --splitk \
      --pipeline=stage-in=auto --pdl |
      "$bin/tt-opt" --convert-tile-to-gpu="sm=90 mma=wgmma masked-loads=$n" |
      "$bin/tt-translate" --ptx -o "$base/${v%%:*}/$1.ptx"
  done
}
variant layer_norm_512x70000_off "$(rows layer_norm 512 70000)" row-stage=0
variant rms_norm_512x90000_off "$(rows rms_norm 512 90000)" row-stage=0
variant softmax_512x80000_off "$(rows softmax 512 80000)" row-stage=0
for shape in 8192x8192 4096x32768 2048x65536; do
  for ex in softmax log_softmax layer_norm rms_norm residual_rms_norm; do
    variant "${ex}_$shape" "$(rows "$ex" "${shape%x*}" "${shape#*x}")"
  done
done
variant bias_gelu_8192x8192 "$(cat "$root/examples/bias_gelu.mlir")"
ls "$base"/sel/*.ptx | wc -l
