#!/usr/bin/env bash
# Compiles the cases of the batched-matmul benchmark (issue 24 item 3; the GPU times them
# with scripts/bench_bmm.py TT_RUN OUTDIR) into OUTDIR (default bmm-bench/), attention's
# two batched products at head dims 64 and 128 (B = batch x heads, no bias, f16):
#   scores_<B>x<M>x<N>x<K>.ptx   Q [B, M, K] @ K^T (a [B, N, K] operand read transposed)
#   pv_<B>x<M>x<N>x<K>.ptx       P [B, M, K] @ V [B, K, N]
# each with tt's defaults (since 2026-11-26 --tile=tma-batched=1: operands read by TMA as
# their batches' rows stacked, wgmma on the rings) and, named _regs, with tma-batched=0
# (batched operands staged through registers: the form before), at sequence lengths 128 to 4096 and an
# odd one (1000: tails in M, N and for pv in K); since 2026-11-27 also shapes off the first
# set (4-48 heads, 256-4096, both head dims), 21 in all.
# Usage: scripts/make-bmm-bench.sh [OUTDIR]   (env: TT_BIN, SCORES, PV)
set -euo pipefail
default_out=bmm-bench
source "$(dirname "$0")/caselib.sh"
SCORES=${SCORES:-"32x128x128x64 64x128x128x128 8x512x512x64 32x1024x1024x128 16x2048x2048x64
8x4096x4096x128 12x1000x1000x64 16x256x256x64 8x1024x1024x64 48x512x512x128 4x1000x1000x128"}
PV=${PV:-"32x1024x64x1024 16x2048x128x2048 8x4096x128x4096 12x1000x64x1000 8x512x64x512
24x1000x64x1000 32x2048x64x2048 12x1000x128x1000 4x4096x64x4096 8x2048x128x2048"}
case_() { # kind B M N K transposed
  local name="$1_$2x$3x$4x$5" text
  text=$(bmm "$2" "$3" "$4" "$5" f16 "$6" 0)
  tt_ptx "$name" "$text" --splitk
  tt_ptx "${name}_regs" "$text" --tile=tma-batched=0 --splitk
}
for s in $SCORES; do IFS=x read -r b m n k <<< "$s"; case_ scores "$b" "$m" "$n" "$k" 1; done
for s in $PV; do IFS=x read -r b m n k <<< "$s"; case_ pv "$b" "$m" "$n" "$k" 0; done
ls "$out" | wc -l
