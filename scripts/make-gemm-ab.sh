#!/usr/bin/env bash
# A/B of a pass option on GEMM cases: compiles each linear layer y = x @ w^T of CASES
# (DTxMxNxK, DT f16 or fp8 = e4m3 prim.scaled_mm with f16 out) twice into OUTDIR (default
# gemm-ab/): <case>_a.ptx with tt's defaults (--decompose --fuse --splitk) and <case>_b.ptx
# with the pass flag B appended (one argument, e.g. B="--pipeline=stage-in=auto
# wgmma-in-flight=1"; a --tile flag goes before --splitk; a --pipeline flag needs
# stage-in=auto or tma, else it pipelines in registers, which tt-translate keeps). On the
# device time both with
#   TT_RUN_FLAGS=--batch scripts/time-cases.sh TT_RUN OUTDIR
# Usage: B="pass flag" scripts/make-gemm-ab.sh [OUTDIR]   (env: CASES, TT_BIN)
set -euo pipefail
: "${B:?set B to the pass flag of variant b}"
default_out=gemm-ab
source "$(dirname "$0")/caselib.sh"
cases=${CASES:-"f16x16x8192x8192 f16x64x8192x8192 f16x128x8192x8192 f16x128x28672x8192
  f16x128x8192x28672 f16x128x10240x8192 f16x4096x8192x8192"}
for c in $cases; do
  IFS=x read -r dt m n k <<<"$c"
  if [ "$dt" = fp8 ]; then prog=$(scaled_linear "$m" "$n" "$k" f8E4M3FN f8E4M3FN f16 0)
  else prog=$(linear "$m" "$n" "$k" "$dt" 0); fi
  tt_ptx "${c}_a" "$prog" --splitk
  if [[ $B == --tile* ]]; then tt_ptx "${c}_b" "$prog" "$B" --splitk # (tiles before --splitk)
  else tt_ptx "${c}_b" "$prog" --splitk "$B"; fi
done
ls "$out"/*.ptx | wc -l
