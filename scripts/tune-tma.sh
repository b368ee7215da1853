#!/usr/bin/env bash
# The TMA geometry sweep behind --tile's f16/bf16 dot defaults (passes/tile/geometry.c):
# f16 linear layers at the decode shapes, M = 16, 32, 64 and 128 (128 on 64- and
# 128-row tiles), over block-n/block-k/num-warps, split-k (0: --splitk's choice, 1) and
# 3 or 4 TMA stages, compiled by scripts/tune-gemm.sh into OUTDIR/bmBM_M/ (default
# gemm-tune/). On the device: scripts/time-cases.sh TT_RUN OUTDIR/*/
set -euo pipefail
here=$(dirname "$0")
out=${1:-$(cd "$here/.." && pwd)/gemm-tune}
nk="8192x8192 28672x8192 8192x28672 10240x8192"
sweep() { # BM M GEOMS
  local shapes=""
  for s in $nk; do shapes="$shapes $2x$s"; done
  BM=$1 SHAPES="$shapes" GEOMS="$3" SPLITS="0 1" STAGES="3t 4t" \
    bash "$here/tune-gemm.sh" "$out/bm$1_$2" | grep -v '^[0-9]*$' || true
}
narrow="n64k128w4 n64k256w4 n128k128w4 n128k256w4 n128k128w8 n256k128w8"
wide="n64k64w4 n64k128w4 n128k64w4 n128k128w4 n128k64w8 n256k64w8"
sweep 16 16 "$narrow"
sweep 32 32 "$narrow"
sweep 64 64 "$wide"
sweep 64 128 "$wide"
sweep 128 128 "$wide"
