#!/usr/bin/env bash
# Probe (session 32, 2026-11-29): the columns of prefill tiles. Two questions for the
# prefill model (passes/tile/geometry.c step 0):
#  a. where 128 x 128 tiles leave SMs idle (112 programs on 132 SMs at 450 x 3584 x
#     14336), do 128-row tiles of fewer columns (112, 96, 80 on 8 warps: wgmma's direct
#     form) that fill the SMs win, and at what rate against 128 x 128?
#  b. at M >= 1536, 128 x 256 tiles on 8 warps (the tune set's lead at M = 2048, N <=
#     4096) on shapes outside the tune set.
# Writes OUT/<case>_<variant>.ptx (variants: d = the defaults, w8 = 128x128 on 8 warps,
# n256 = 128x256 on 8 warps, n112/n96/n80 = 128 x that x 128 on 8 warps, n64 = 128x64 on 4
# warps; later: r128 = block-m=128 alone, n256k = 128x256x64 on 8 warps, for fp8 f96 =
# 128x96x256 and f256 = 128x256x128 on 8 warps, k256 = block-k=256 alone); time on the device
# with `TT_RUN_FLAGS=--batch scripts/time-cases.sh TT_RUN OUT` (warm; --splitk picks the
# split of each). Env FILL and BIG replace the two shape lists (BIG: d, w8, n256 only),
# VARIANTS the variants of FILL's; DT=fp8 makes e4m3 scaled_mm (f16 out) instead of f16.
# Usage: bash bench/probes/2026-11-29-prefill-columns.sh [OUT=.gpu/cols]
set -euo pipefail
default_out=.gpu/cols
source "$(dirname "$0")/../../scripts/caselib.sh" "${1:-}"
fill=${FILL:-"450x3584x14336 160x3584x14336 450x3584x18944 300x2048x8192 700x2048x8192
  450x5120x13824 700x3584x14336 300x8192x8192 700x4096x4096 1000x5120x13824 200x4096x11008
  600x6144x4096"}
big=${BIG-"2048x3584x3584 2048x4096x4096 2048x4096x14336 1536x4096x4096 3072x4096x4096
  2048x2048x8192 4096x4096x4096 2048x5120x5120 1536x5120x13824 2560x6144x4096"}
declare -A opt=([d]="" [w8]="block-m=128 block-n=128 num-warps=8"
  [n256]="block-m=128 block-n=256 num-warps=8" [n112]="block-m=128 block-n=112 block-k=128 num-warps=8"
  [n96]="block-m=128 block-n=96 block-k=128 num-warps=8" [n80]="block-m=128 block-n=80 block-k=128 num-warps=8"
  [n64]="block-m=128 block-n=64 num-warps=4" [r128]="block-m=128"
  [n256k]="block-m=128 block-n=256 block-k=64 num-warps=8"
  [f96]="block-m=128 block-n=96 block-k=256 num-warps=8"
  [f256]="block-m=128 block-n=256 block-k=128 num-warps=8" [k256]="block-k=256")
bigs=" $(echo $big) "
for s in $fill $big; do
  IFS=x read -r m n k <<<"$s"
  dt=${DT:-f16}
  if [ "$dt" = fp8 ]; then prog=$(scaled_linear "$m" "$n" "$k" f8E4M3FN f8E4M3FN f16 0)
  else prog=$(linear "$m" "$n" "$k" f16 0); fi
  vs=${VARIANTS:-"d w8 n256 n112 n96 n80 n64"}
  [[ $bigs == *" $s "* ]] && vs="d w8 n256"
  for v in $vs; do compile "${dt}x$s" "$v" "$prog" "${opt[$v]}" 2> /dev/null || echo "($s $v: not compiled)"; done
done
ls "$out"/*.ptx | wc -l
