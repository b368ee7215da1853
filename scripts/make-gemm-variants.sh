#!/usr/bin/env bash
# Compiles the GEMM lowering variants to compare on the GPU (time them with
# scripts/time-cases.sh TT_RUN OUTDIR; each name says its variant): at decode and
# prefill shapes, f16 linear layers x [M,K] @ w[N,K]^T (and fp8 e4m3 ones, prim.scaled_mm
# with f16 out, for _wgmma / _sync) with
#   _wgmma / _sync        tile.dot on wgmma (sm_90a) or mma.sync, tt's defaults otherwise
#   _tma<S>               --pipeline stage-in=tma num-stages=S (wgmma on TMA slots)
#   _sk<S>_atomic / _ts   split-k=S, atomic or deterministic two-stage reduction
# Usage: scripts/make-gemm-variants.sh [OUTDIR] (default gemm-variants/)
set -euo pipefail
default_out=gemm-variants
source "$(dirname "$0")/caselib.sh"
for mnk in "16 8192 8192" "16 28672 8192" "16 8192 28672" "64 8192 8192" "128 8192 8192"; do
  set -- $mnk
  x="$(linear $1 $2 $3 f16 0)" tag="f16_$1x$2x$3"
  tt_ptx "${tag}_wgmma" "$x" --splitk
  TT_MMA=sync tt_ptx "${tag}_sync" "$x" --splitk
  f="$(scaled_linear $1 $2 $3 f8E4M3FN f8E4M3FN f16 0)"
  tt_ptx "fp8_$1x$2x$3_wgmma" "$f" --splitk
  TT_MMA=sync tt_ptx "fp8_$1x$2x$3_sync" "$f" --splitk
  for s in 2 3 4; do
    tt_ptx "${tag}_tma$s" "$x" --tile="block-k=128 num-warps=4" --splitk --pipeline="stage-in=tma num-stages=$s"
  done
  for s in 2 4; do
    tt_ptx "${tag}_sk${s}_atomic" "$x" --tile --splitk="split-k=$s"
    tt_ptx "${tag}_sk${s}_ts" "$x" --tile --splitk="split-k=$s reduce=two-stage"
  done
done
x="$(linear 4096 8192 8192 f16 0)"
tt_ptx f16_4096x8192x8192_wgmma "$x" --splitk
TT_MMA=sync tt_ptx f16_4096x8192x8192_sync "$x" --splitk
tt_ptx f16_4096x8192x8192_tma4 "$x" --tile="block-m=128 block-n=64 block-k=64 num-warps=4" --splitk --pipeline="stage-in=tma num-stages=4"
