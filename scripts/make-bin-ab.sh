#!/usr/bin/env bash
# A/B of two compilers on linear layers: compiles each y = x @ w^T of CASES (DT_MxNxK, DT
# f16, bf16 or fp8 = e4m3 prim.scaled_mm with f16 out; w tt.invariant) with BASE_BIN's
# tt-opt/tt-translate (a build of the commit before a change) into OUTDIR/a and with
# TT_BIN's (default build/) into OUTDIR/b, both by
# the main job's passes (--decompose --fuse --splitk, tt-translate --ptx), and keeps the
# cases whose PTX differs: the shapes the change touched, named as bench_variants.py reads
# them. On the device:
#   (cd scripts && python3 bench_variants.py TT_RUN before=OUTDIR/a after=OUTDIR/b --warm-only)
# (drop --warm-only for decode shapes, read cold) and scripts/gpu-suite.sh TT_RUN OUTDIR/b
# checks b against float64. The default CASES: prefill shapes no geometry rule was fitted
# on (M 160-900 over Llama-3-70B 8192^2, Llama-3.2-1B 2048 x 8192, TinyLlama 2048 x 5632,
# Gemma-2-9B 3584 x 14336, Qwen2-7B 3584 x 18944, Qwen2-0.5B 896 x 4864 and Qwen2.5-14B
# 5120 x 13824), a held-out check of passes/tile/geometry.c's prefill model
# (bench/2026-11-29-h200-prefill-tune.md).
# Usage: scripts/make-bin-ab.sh BASE_BIN OUTDIR   (env: CASES, TT_BIN)
set -euo pipefail
base=${1:?usage: make-bin-ab.sh BASE_BIN OUTDIR}
default_out=bin-ab
source "$(dirname "$0")/caselib.sh" "${2:?usage: make-bin-ab.sh BASE_BIN OUTDIR}"
if [ -z "${CASES:-}" ]; then
  for m in 160 300 450 900; do
    for s in 8192x8192 2048x8192 2048x5632 3584x14336 3584x18944 896x4864 5120x13824; do
      CASES="${CASES:-} f16_${m}x$s"
    done
  done
  CASES="$CASES bf16_300x2048x8192 bf16_450x3584x14336 bf16_900x896x4864"
fi
mkdir -p "$out/a" "$out/b"
rm -f "$out"/a/*.ptx "$out"/b/*.ptx
for c in $CASES; do
  IFS=_x read -r dt m n k <<<"$c"
  if [ "$dt" = fp8 ]; then prog=$(scaled_linear "$m" "$n" "$k" f8E4M3FN f8E4M3FN f16 0)
  else prog=$(linear "$m" "$n" "$k" "$dt" 0); fi
  for v in a b; do
    vb=$bin
    [ "$v" = a ] && vb=$base
    printf '%s\n' "$prog" | "$vb/tt-opt" --decompose --fuse --splitk |
      "$vb/tt-translate" --ptx -o "$out/$v/$c.ptx"
  done
  if cmp -s "$out/a/$c.ptx" "$out/b/$c.ptx"; then rm "$out/a/$c.ptx" "$out/b/$c.ptx"; fi
done
echo "$(ls "$out"/b | wc -l) of $(echo $CASES | wc -w) cases differ (in $out/a and $out/b)"
