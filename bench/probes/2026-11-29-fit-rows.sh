#!/usr/bin/env bash
# Tile rows fitted to M (session 35's lead from ncu, bench/2026-11-29-h200-prefill-tune.md
# section 16): cuBLAS's fp8 kernels at 129-600 rows put the token dim on wgmma's narrow side
# in tiles of 136-160 rows (257 rows: 2 tiles of 136, one wave; tt: 3 row tiles of 128, the
# third of 1 row, 2 waves). tt's swapped wgmma form (mma = "wgmma") takes M any multiple of 8
# up to 256, but --tile wanted block-m a power of two. With that relaxed (block-m a multiple
# of 16), variants per shape, f16 and fp8 (e4m3 scaled_mm, f16 out):
#   d      the defaults
#   fit    block-m = the fewest 16-row multiples covering M in cdiv(M, 192) tiles, block-n
#          128 on 8 warps (fp8: block-k 256 and the producer warp, as the defaults')
#   fit64  the same rows, block-n 64 on 4 warps (twice the programs)
# Compiles into OUT (default .gpu/fit) and prints the device commands.
# Usage (repository root, a built tree): bash bench/probes/2026-11-29-fit-rows.sh [OUT]
set -euo pipefail
dest=${1:-.gpu/fit}
source scripts/caselib.sh /tmp/tt-fit-scratch > /dev/null
rm -rf "$dest" && mkdir -p "$dest/d" "$dest/fit" "$dest/fit64" "$dest/chk"
fitrows() { local m=$1 g=$(( ($1 + 191) / 192 )); echo $(( ( (m + g - 1) / g + 15) / 16 * 16 )); }
prog() { # dtype m n k
  if [ "$1" = fp8 ]; then scaled_linear "$2" "$3" "$4" f8E4M3FN f8E4M3FN f16 0; else linear "$2" "$3" "$4" "$1" 0; fi
}
compile() { # dtype m n k variant out
  local dt=$1 m=$2 n=$3 k=$4 v=$5 out=$6 tile=() pipe=() bm
  bm=$(fitrows "$m")
  local bk=" block-k=128"; [ "$dt" = fp8 ] && bk=" block-k=256"
  case $v in
  fit) tile=(--tile="block-m=$bm block-n=128 num-warps=8$bk") ;;
  fit64) tile=(--tile="block-m=$bm block-n=64 num-warps=4$bk") ;;
  esac
  [ "$dt" = fp8 ] && [ "$v" != d ] && pipe=(--pipeline='stage-in=tma warp-specialize=1')
  prog "$dt" "$m" "$n" "$k" | build/tt-opt --decompose --fuse "${tile[@]}" --splitk "${pipe[@]}" |
    build/tt-translate --ptx -o "$out"
}
for dt in fp8 f16; do
  for c in 257x6144x4096 160x14336x4096 300x13824x5120 129x8192x4096 600x4096x4096 \
    200x11008x4096 384x5120x5120 1000x4096x4096; do
    IFS=x read -r m n k <<<"$c"
    for v in d fit fit64; do compile "$dt" "$m" "$n" "$k" $v "$dest/$v/${dt}_$c.ptx"; done
  done
  for c in 257x1000x4096 129x3001x1024 1x256x512 17x640x1024 400x4096x4112; do # checks at odd sizes
    IFS=x read -r m n k <<<"$c"
    for v in fit fit64; do compile "$dt" "$m" "$n" "$k" $v "$dest/chk/${dt}_${c}_$v.ptx"; done
  done
done
cp "$dest"/fit/*_257x* "$dest"/fit/*_600x* "$dest/chk/"
cat <<MSG
On the device (carry $dest):
  [ -x build-gpu/tt-run ] || bash scripts/build-tt-run.sh build-gpu > \$OUT/build.log 2>&1
  CASE_TIMEOUT=30 bash scripts/gpu-suite.sh build-gpu/tt-run $dest/chk > \$OUT/chk.log 2>&1; tail -1 \$OUT/chk.log
  (cd scripts && python3 bench_variants.py ../build-gpu/tt-run d=../$dest/d fit=../$dest/fit fit64=../$dest/fit64 --warm-only --out \$OUT/fit.md)
MSG
