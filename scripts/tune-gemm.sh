#!/usr/bin/env bash
# Dot-kernel geometry sweep: compiles f16 linear layers (y = x @ w^T) at decode shapes with
# several --tile block-n/block-k/num-warps, --splitk split-k and --pipeline num-stages
# choices (SHAPES, GEOMS, SPLITS, STAGES; BM sets block-m, default 16; DT=fp8 compiles
# e4m3 prim.scaled_mm instead; a stage count
# ending in r, like 2r, stages in registers, ending in t, like 4t, in TMA rings, else
# in shared memory) into OUTDIR (default
# gemm-tune/) as MxNxK_nBNkBKwW_sS_pP.ptx, skipping (with a note) geometries the passes
# refuse. On the device, time them (no reference check) with
#   for f in gemm-tune/*.ptx; do echo "$f $(tt-run --no-check --runs 50 "$f" | grep '^time')"; done
# The dot defaults of --tile and --splitk (passes/tile/geometry.c, passes/splitk.c) come
# from such sweeps.
set -euo pipefail
default_out=gemm-tune
source "$(dirname "$0")/caselib.sh"
program() { # M N K: f16 linear, no bias (DT=fp8: e4m3 scaled_mm, f16 out)
  if [ "${DT:-f16}" = fp8 ]; then scaled_linear "$1" "$2" "$3" f8E4M3FN f8E4M3FN f16 0
  else linear "$1" "$2" "$3" f16 0; fi
}
for shape in ${SHAPES:-16x8192x8192 1x8192x8192}; do
  IFS=x read -r m n k <<<"$shape"
  for g in ${GEOMS:-n64k256w4 n64k128w4 n64k64w4 n128k128w4 n128k128w8 n128k64w4}; do
    bn=${g#n}; bn=${bn%k*}; bk=${g#*k}; bk=${bk%w*}; w=${g#*w}
    for s in ${SPLITS:-2 4 8 16}; do
      for p in ${STAGES:-1}; do
        stagein=shared
        case $p in *r) stagein=registers ;; *t) stagein=tma ;; esac
        program "$m" "$n" "$k" | "$bin/tt-opt" --decompose --fuse \
          --tile="block-m=${BM:-16} block-n=$bn block-k=$bk num-warps=$w" \
          --splitk="split-k=$s" --pipeline="num-stages=${p%[rt]} stage-in=$stagein" 2>/dev/null |
          "$bin/tt-translate" --ptx -o "$out/${shape}_${g}_s${s}_p$p.ptx" 2>/dev/null ||
          echo "skipped ${shape}_${g}_s${s}_p$p (refused)"
      done
    done
  done
done
ls "$out" | wc -l
