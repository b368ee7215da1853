#!/usr/bin/env bash
# Dot-kernel geometry sweep: compiles f16 linear layers (y = x @ w^T) at decode shapes with
# several --tile block-n/block-k/num-warps, --splitk split-k and --pipeline num-stages
# choices (SHAPES, GEOMS, SPLITS, STAGES; BM sets block-m, default 16; a stage count
# ending in r, like 2r, stages in registers, else in shared memory) into OUTDIR (default
# gemm-tune/) as MxNxK_nBNkBKwW_sS_pP.ptx, skipping (with a note) geometries the passes
# refuse. On the device, time them (no reference check) with
#   for f in gemm-tune/*.ptx; do echo "$f $(tt-run --no-check --runs 50 "$f" | grep '^time')"; done
# The dot defaults of --tile and --splitk (passes/tile.c dotGeometry, passes/splitk.c) come
# from such sweeps.
set -euo pipefail
default_out=gemm-tune
source "$(dirname "$0")/caselib.sh"
linear() { # M N K: f16, no bias
  printf 'func.func @main(%%x: tensor<%sx%sxf16>, %%w: tensor<%sx%sxf16>) -> tensor<%sx%sxf16> {\n  %%y = "prim.linear"(%%x, %%w) : (tensor<%sx%sxf16>, tensor<%sx%sxf16>) -> tensor<%sx%sxf16>\n  return %%y : tensor<%sx%sxf16>\n}\n' \
    $1 $3 $2 $3 $1 $2 $1 $3 $2 $3 $1 $2 $1 $2
}
for shape in ${SHAPES:-16x8192x8192 1x8192x8192}; do
  IFS=x read -r m n k <<<"$shape"
  for g in ${GEOMS:-n64k256w4 n64k128w4 n64k64w4 n128k128w4 n128k128w8 n128k64w4}; do
    bn=${g#n}; bn=${bn%k*}; bk=${g#*k}; bk=${bk%w*}; w=${g#*w}
    for s in ${SPLITS:-2 4 8 16}; do
      for p in ${STAGES:-1}; do
        stagein=shared; [ "${p%r}" != "$p" ] && stagein=registers
        linear "$m" "$n" "$k" | "$bin/tt-opt" --decompose --fuse \
          --tile="block-m=${BM:-16} block-n=$bn block-k=$bk num-warps=$w" --splitk="split-k=$s" \
          --pipeline="num-stages=${p%r} stage-in=$stagein" 2>/dev/null |
          "$bin/tt-translate" --ptx -o "$out/${shape}_${g}_s${s}_p$p.ptx" 2>/dev/null ||
          echo "skipped ${shape}_${g}_s${s}_p$p (refused)"
      done
    done
  done
done
ls "$out" | wc -l
