#!/usr/bin/env bash
# The fp8 prefill lead left by session 33 (bench/2026-11-29-h200-prefill-tune.md, section 11:
# fp8 prefill at 0.59x-0.83x cuBLAS fp8, 1.45x tt's f16 rate where wgmma has 2x). tt's fp8
# dot waits for its own wgmma each K step (the promotion into the f32 accumulator reads the
# fresh sum: conversion/tile-to-gpu/dot-wgmma.c), so on one block an SM the tensor cores idle
# while a warpgroup waits, promotes and issues. Two ways to keep them busy with options
# that exist, on the held-out fp8 prefill shapes (e4m3 scaled_mm, f16 out):
#   d      the defaults
#   ws     --pipeline warp-specialize=1: a producer warp, no block barrier in the K loop, so
#          the two consumer warpgroups drift apart and one's promotion overlaps the other's
#          wgmma (as DeepGEMM's math warpgroups do)
#   k128   --tile block-k=128: 128-deep K steps, two blocks an SM (their waits overlap)
#   wsk128 both
# Compiles into OUT (default .gpu/fp8next) and prints the device commands.
# Usage (repository root, a built tree): bash bench/probes/2026-11-29-fp8-prefill-next.sh [OUT]
set -euo pipefail
dest=${1:-.gpu/fp8next}
source scripts/caselib.sh /tmp/tt-fp8next-scratch > /dev/null
rm -rf "$dest" && mkdir -p "$dest/t" "$dest/chk"
for c in 600x4096x4096 600x3584x3584 384x6144x4096 200x9216x3072 200x11008x4096 \
  600x4096x14336 384x8192x8192 200x18944x3584 200x10240x8192 1024x6144x4096 2048x4096x4096 \
  512x14336x4096; do
  IFS=x read -r m n k <<<"$c"
  p=$(scaled_linear "$m" "$n" "$k" f8E4M3FN f8E4M3FN f16 0)
  for v in d ws k128 wsk128; do
    tile=() pipe=()
    case $v in
    ws) pipe=(--pipeline='stage-in=tma warp-specialize=1') ;;
    k128) tile=(--tile='block-k=128') ;;
    wsk128) tile=(--tile='block-k=128') pipe=(--pipeline='stage-in=tma warp-specialize=1') ;;
    esac
    printf '%s\n' "$p" | build/tt-opt --decompose --fuse "${tile[@]}" --splitk "${pipe[@]}" |
      build/tt-translate --ptx -o "$dest/t/fp8x${c}_$v.ptx"
  done
  cp "$dest/t/fp8x${c}_ws.ptx" "$dest/t/fp8x${c}_wsk128.ptx" "$dest/chk/"
done
# the defaults' fp8 128 x 96 x 256 tile (step 0's fp8 model, session 33) at sizes its GPU
# check did not cover: odd M, N not a multiple of 96 or 128, and a K tail (4112)
for c in 601x4096x4096 1000x3008x4096 601x4096x4112 1000x1000x8192; do
  IFS=x read -r m n k <<<"$c"
  scaled_linear "$m" "$n" "$k" f8E4M3FN f8E4M3FN f16 0 |
    build/tt-opt --decompose --fuse --splitk | build/tt-translate --ptx -o "$dest/chk/fp8x${c}_d.ptx"
done
cat <<MSG
On the device (carry $dest):
  [ -x build-gpu/tt-run ] || bash scripts/build-tt-run.sh build-gpu > \$OUT/build.log 2>&1
  CASE_TIMEOUT=30 bash scripts/gpu-suite.sh build-gpu/tt-run $dest/chk > \$OUT/chk.log 2>&1
  for r in 1 2 3; do TT_RUN_FLAGS=--batch bash scripts/time-cases.sh build-gpu/tt-run $dest/t > \$OUT/fp8next-\$r.txt; done
MSG
