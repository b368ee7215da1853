#!/usr/bin/env bash
# Session 35's lead (bench/2026-11-29-h200-prefill-tune.md section 18): cuBLAS picks both
# tile sides for the waves at 145-600 rows - token tiles of 72-176 rows against 96-256
# weight rows (fp8 200 x 11008 x 4096: 3 x 43 tiles of 72 x 256, 129 programs) - where tt
# weighs 128-column tiles only. By option, per shape (f16 and fp8 e4m3 scaled_mm, f16 out):
#   d        the defaults
#   w256rR   block-m = R rows fitted (R in 96, 128), block-n 256 on 8 warps (two warpgroups of
#            128 columns: 2 wgmma blocks each), K steps of 128 bytes (four stages fit);
#            fp8 with the producer warpgroup (warp-specialize=2)
# Compiles into OUT (default .gpu/both), GPU checks of each variant at one odd shape, and
# prints the device commands (bench_variants.py warm; read against the ncu table).
# Usage (repository root, a built tree): bash bench/probes/2026-11-29-both-sides.sh [OUT]
set -euo pipefail
dest=${1:-.gpu/both}
source scripts/caselib.sh /tmp/tt-both-scratch > /dev/null
rm -rf "$dest" && mkdir -p "$dest/d" "$dest/w256r96" "$dest/w256r128" "$dest/chk"
prog() { # dtype m n k
  if [ "$1" = fp8 ]; then scaled_linear "$2" "$3" "$4" f8E4M3FN f8E4M3FN f16 0; else linear "$2" "$3" "$4" "$1" 0; fi
}
for dt in fp8 f16; do
  bk=64 pipe=(--pipeline=stage-in=auto)
  [ "$dt" = fp8 ] && bk=128 pipe=(--pipeline='stage-in=tma warp-specialize=2')
  for c in 200x11008x4096 145x11008x4096 520x11008x4096 257x6144x4096 512x14336x4096 \
    180x14336x4096 300x13824x5120; do
    IFS=x read -r m n k <<<"$c"
    prog "$dt" "$m" "$n" "$k" | build/tt-opt --decompose --fuse --splitk |
      build/tt-translate --ptx -o "$dest/d/${dt}_$c.ptx"
    for r in 96 128; do
      prog "$dt" "$m" "$n" "$k" |
        build/tt-opt --decompose --fuse --tile="block-m=$r block-n=256 num-warps=8 block-k=$bk" \
          --splitk "${pipe[@]}" | build/tt-translate --ptx -o "$dest/w256r$r/${dt}_$c.ptx"
    done
  done
  cp "$dest/w256r96/${dt}_200x11008x4096.ptx" "$dest/chk/w256r96_${dt}_200x11008x4096.ptx"
  prog "$dt" 201 11000 4096 |
    build/tt-opt --decompose --fuse --tile="block-m=96 block-n=256 num-warps=8 block-k=$bk" \
      --splitk "${pipe[@]}" | build/tt-translate --ptx -o "$dest/chk/w256r96_${dt}_201x11000x4096.ptx"
done
cat <<MSG
On the device (carry $dest; about 4 minutes):
  [ -x build-gpu/tt-run ] || bash scripts/build-tt-run.sh build-gpu > \$OUT/build.log 2>&1
  CASE_TIMEOUT=60 bash scripts/gpu-suite.sh build-gpu/tt-run $dest/chk > \$OUT/chk.log 2>&1; tail -1 \$OUT/chk.log
  (cd scripts && python3 bench_variants.py ../build-gpu/tt-run d=../$dest/d w256r96=../$dest/w256r96 w256r128=../$dest/w256r128 --warm-only --out \$OUT/both.md)
MSG
