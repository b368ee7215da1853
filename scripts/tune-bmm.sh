#!/usr/bin/env bash
# Batched-matmul geometry sweep (issue 24 item 3): attention's products (scores Q @ K^T and
# P @ V, f16, no bias; the shapes of scripts/make-bmm-bench.sh) on TMA boxes
# (--tile=tma-batched=1) over block-m x block-n (GEOMS, mMnN), block-k (BKS), num-warps
# (4, and 8 for tiles of 128 x 128 and up) and TMA stages (STAGES), compiled into OUTDIR
# (default bmm-tune/) as KIND_BxMxNxK_mMnNkKwW_pP.ptx, plus KIND_..._default.ptx (the
# defaults); geometries the passes refuse are skipped with a note. On the device:
#   RUNS=50 TT_RUN_FLAGS=--batch scripts/time-cases.sh TT_RUN OUTDIR
# The batched rows of --tile's dot defaults (passes/tile/geometry.c) come from this sweep.
# Usage: scripts/tune-bmm.sh [OUTDIR]   (env: SCORES, PV, GEOMS, BKS, STAGES)
set -euo pipefail
default_out=bmm-tune
source "$(dirname "$0")/caselib.sh"
SCORES=${SCORES:-"32x1024x1024x128 8x4096x4096x128 16x2048x2048x64 12x1000x1000x64 8x512x512x64"}
PV=${PV:-"16x2048x128x2048 32x1024x64x1024 8x4096x128x4096"}
sweep() { # kind B M N K transposed
  local name="$1_$2x$3x$4x$5" text g bm bn bk w p
  text=$(bmm "$2" "$3" "$4" "$5" f16 "$6" 0)
  tt_ptx "${name}_default" "$text" --tile=tma-batched=1 --splitk
  for g in ${GEOMS:-m64n64 m64n128 m128n64 m128n128 m128n256}; do
    bm=${g#m}; bm=${bm%n*}; bn=${g#*n}
    for bk in ${BKS:-64 128}; do
      for w in 4 8; do
        [ "$w" = 8 ] && [ $((bm * bn)) -lt 16384 ] && continue
        for p in ${STAGES:-2 3 4}; do
          printf '%s\n' "$text" | "$bin/tt-opt" --decompose --fuse \
            --tile="tma-batched=1 block-m=$bm block-n=$bn block-k=$bk num-warps=$w" --splitk \
            --pipeline="num-stages=$p stage-in=tma" 2>/dev/null |
            "$bin/tt-translate" --ptx -o "$out/${name}_${g}k${bk}w${w}_p$p.ptx" 2>/dev/null ||
            echo "skipped ${name}_${g}k${bk}w${w}_p$p (refused)"
        done
      done
    done
  done
}
for s in $SCORES; do IFS=x read -r b m n k <<< "$s"; sweep scores "$b" "$m" "$n" "$k" 1; done
for s in $PV; do IFS=x read -r b m n k <<< "$s"; sweep pv "$b" "$m" "$n" "$k" 0; done
ls "$out" | wc -l
