#!/usr/bin/env bash
# The check session 32 (2026-11-29) left for the next device session: the fp8 prefill
# model of bench/probes/2026-11-29-fp8-prefill-model.patch (128x96x256 on 8 warps weighed
# against fp8's own pick past 128 rows, K > 2048) on the 12 held-out shapes it switches.
# Copies this tree's build (the base), applies the patch, rebuilds, and compiles each shape
# with both into OUT/ab (<case>_a.ptx base, <case>_b.ptx patched) and OUT/b (the patched
# ones, for the GPU check), with four fused prefill epilogues (bias + GELU) on session 32's
# f16/bf16 tiles; prints the device commands. The patch stays applied: commit it
# (and make the rule's comment and bench/ table say what ran) if b wins, else
# `git checkout passes/tile/geometry.c`.
# Usage (repository root, a built tree at HEAD): bash bench/probes/2026-11-29-next-checks-2.sh [OUT=.gpu/next33]
set -euo pipefail
dest=${1:-.gpu/next33}
base=/tmp/tt-base-fp8
rm -rf "$base" && cp -a build "$base"
git apply bench/probes/2026-11-29-fp8-prefill-model.patch
flock /tmp/tt-cpu.lock cmake --build build -j2 > /dev/null
rm -rf "$dest" && mkdir -p "$dest/ab" "$dest/b"
source scripts/caselib.sh /tmp/tt-next33-scratch > /dev/null # (sets $out: unused)
for c in 200x18944x3584 200x9216x3072 200x10240x8192 200x11008x4096 384x6144x4096 \
  384x8192x8192 384x28672x8192 600x4096x4096 600x4096x14336 600x3584x3584 1000x11008x4096 \
  3000x3584x3584; do
  IFS=x read -r m n k <<<"$c"
  p=$(scaled_linear "$m" "$n" "$k" f8E4M3FN f8E4M3FN f16 0)
  printf '%s\n' "$p" | "$base/tt-opt" --decompose --fuse --splitk |
    "$base/tt-translate" --ptx -o "$dest/ab/fp8x${c}_a.ptx"
  printf '%s\n' "$p" | build/tt-opt --decompose --fuse --splitk |
    build/tt-translate --ptx -o "$dest/ab/fp8x${c}_b.ptx"
  cp "$dest/ab/fp8x${c}_b.ptx" "$dest/b/"
  cmp -s "$dest/ab/fp8x${c}_a.ptx" "$dest/ab/fp8x${c}_b.ptx" && echo "unchanged: $c (the patch no longer switches it)"
done
# f16/bf16 prefill epilogues on session 32's tiles (128 x 96 and 128 x 256 on 8 warps),
# not yet GPU-checked with a fused bias and GELU: into OUT/b as well
for c in f16_700x2048x8192 bf16_300x2048x8192 f16_2048x4096x4096 bf16_129x3001x4100; do
  IFS=_x read -r dt m n k <<<"$c"
  linear "$m" "$n" "$k" "$dt" 1 gelu '{approximate = "tanh"}' | build/tt-opt --decompose --fuse --splitk |
    build/tt-translate --ptx -o "$dest/b/${c}_bias_gelu.ptx"
done
cat <<MSG
On the device (carry .gpu):
  [ -x build-gpu/tt-run ] || bash scripts/build-tt-run.sh build-gpu > \$OUT/build.log 2>&1
  CASE_TIMEOUT=30 bash scripts/gpu-suite.sh build-gpu/tt-run $dest/b > \$OUT/fp8-check.log 2>&1
  for r in 1 2 3; do TT_RUN_FLAGS=--batch bash scripts/time-cases.sh build-gpu/tt-run $dest/ab > \$OUT/fp8-ab-\$r.txt; done
MSG
