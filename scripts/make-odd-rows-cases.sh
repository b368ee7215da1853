#!/usr/bin/env bash
# Compiles the row kernels of an odd width (rows off 16-byte alignment, loaded element by
# element) behind bench/2026-11-28-h200-odd-rows.md into OUTDIR (default odd-rows/), one
# folder a set, the same names across a set's variants:
#   OUTDIR/pairs/      softmax, rms_norm, layer_norm at odd widths and their aligned
#                      neighbours (1000 x 70001 / 70000, 2048 x 50257 / 50256, 4096 x 4097 /
#                      4096, 8192 x 1001 / 1000, 4096 x 12289 / 12288), log_softmax f32 and
#                      residual + rms_norm: the cliff (scripts/gpu-suite.sh times them);
#   OUTDIR/sweep-*/    the looped block sweep, stage-odd=0 (def; b16k32w: block-size 16384 on 32 warps;
#                      b8k16w, b8k32w, b4k8w) on four looped odd rows;
#   OUTDIR/check/      odd-width rows outside the sweep (f16, f32, a dynamic M, var, sum,
#                      amax, few rows, one row);
#   OUTDIR/onchip-*/   on-chip odd rows at the default warps (def), twice (w2) and four
#                      times (w4) as many;
#   OUTDIR/argmax/     greedy decoding's argmax over odd vocabularies (50257) and neighbours;
# (The A/B of stage-odd, run 6, is scripts/make-row-ab-cases.sh stage-odd OUT.)
# A/B against another compiler: TT_BIN=that/build scripts/make-odd-rows-cases.sh OTHER, then
# scripts/bench_row_variants.sh TT_RUN ROUNDS new=OUTDIR/check old=OTHER/check.
# Usage: scripts/make-odd-rows-cases.sh [OUTDIR]
set -euo pipefail
default_out=odd-rows
source "$(dirname "$0")/caselib.sh"
base=$out
into() { mkdir -p "$base/$1"; out=$base/$1; rm -f "$out"/*.ptx "$out"/*.runs; }

into pairs
for shape in 1000x70001 1000x70000 2048x50257 2048x50256 4096x4097 4096x4096 8192x1001 \
  8192x1000 4096x12289 4096x12288; do
  for ex in layer_norm softmax rms_norm; do
    compile "$ex" "$shape" "$(rows "$ex" "${shape%x*}" "${shape#*x}")"
  done
done
for n in 50257 50256; do compile log_softmax "2048x${n}_f32" "$(f32rows log_softmax 2048 "$n")"; done
for n in 4097 4096; do compile residual_rms_norm "4096x$n" "$(rows residual_rms_norm 4096 "$n")"; done

for v in def: b16k32w:"block-size=16384 num-warps=32" b8k16w:"block-size=8192 num-warps=16" \
  b8k32w:"block-size=8192 num-warps=32" b4k8w:"block-size=4096 num-warps=8"; do
  into "sweep-${v%%:*}"
  o="stage-odd=0 ${v#*:}" # the looped form
  compile softmax 1000x70001 "$(rows softmax 1000 70001)" "$o"
  compile rms_norm 2048x50257 "$(rows rms_norm 2048 50257)" "$o"
  compile layer_norm 1000x70001 "$(rows layer_norm 1000 70001)" "$o"
  compile log_softmax 2048x50257_f32 "$(f32rows log_softmax 2048 50257)" "$o"
done

into check
compile softmax 1000x70001 "$(rows softmax 1000 70001)"
compile rms_norm 2048x50257 "$(rows rms_norm 2048 50257)"
compile layer_norm 1000x70001 "$(rows layer_norm 1000 70001)"
compile softmax 512x40001_f16 "$(rows softmax 512 40001 | sed 's/bf16/f16/g')"
compile rms_norm 3000x33333 "$(rows rms_norm 3000 33333)"
compile layer_norm 100x100001 "$(rows layer_norm 100 100001)"
compile log_softmax 4096x32769 "$(rows log_softmax 4096 32769)"
compile softmax 1024x50257_f32 "$(f32rows softmax 1024 50257)"
compile residual_rms_norm 2048x40003 "$(rows residual_rms_norm 2048 40003)"
compile layer_norm 7x65537 "$(rows layer_norm 7 65537)"
compile softmax 5000x36002 "$(rows softmax 5000 36002)"
compile rms_norm 1x262147 "$(rows rms_norm 1 262147)"
compile softmax dyn_50257 "$(dynrows softmax 50257)"
printf '%s\n' "--dim s0=1000" "--dim s0=3" > "$out/softmax_dyn_50257.runs"
reduce var var f32 1000x70001 1 false
reduce sum sum bf16 2000x45001 1 false
reduce amax amax f16 300x99999 1 false

warps() { # N -> the on-chip default's warps (16 elements a thread below 8192, 64 from it)
  local fit=32 per=16
  while [ "$fit" -lt "$1" ]; do fit=$((fit * 2)); done
  [ "$fit" -ge 8192 ] && per=64
  local w=$((fit / per / 32))
  echo $((w < 1 ? 1 : w > 32 ? 32 : w))
}
onchip() { # name M N mlir
  local w
  w=$(warps "$3")
  out=$base/onchip-def; compile "$1" "$2x$3" "$4"
  out=$base/onchip-w2; compile "$1" "$2x$3" "$4" "num-warps=$((w * 2))"
  out=$base/onchip-w4; compile "$1" "$2x$3" "$4" "num-warps=$((w * 4 > 32 ? w * 2 : w * 4))"
}
into onchip-def; into onchip-w2; into onchip-w4
for s in 8192x1001 4096x4097 4096x12289; do
  for ex in softmax rms_norm layer_norm; do onchip "$ex" "${s%x*}" "${s#*x}" "$(rows "$ex" "${s%x*}" "${s#*x}")"; done
done
onchip softmax_f16 2000 3001 "$(rows softmax 2000 3001 | sed 's/bf16/f16/g')"
onchip rms_norm 16384 771 "$(rows rms_norm 16384 771)"
onchip softmax 1000 20001 "$(rows softmax 1000 20001)"
onchip log_softmax 4096 7001 "$(rows log_softmax 4096 7001)"
onchip residual_rms_norm 2048 9999 "$(rows residual_rms_norm 2048 9999)"
onchip layer_norm_f32 4096 5001 "$(f32rows layer_norm 4096 5001)"

into argmax
argmax() { # unused M N dtype: the example at M x N
  sed -e "s/4x152064xbf16/$2x$3x$4/g" -e "s/tensor<4xi64>/tensor<$2xi64>/g" \
    "$root/examples/greedy_argmax_bf16.mlir"
}
for m in 1 4 32 128; do compile argmax "${m}x50257" "$(argmax "" "$m" 50257 bf16)"; done
compile argmax 8x50257_f32 "$(argmax "" 8 50257 f32)"
compile argmax 4x32001 "$(argmax "" 4 32001 bf16)"
compile argmax 4x50304 "$(argmax "" 4 50304 bf16)"
