#!/usr/bin/env bash
# Compiles the check and the A/B of the staged row form (--tile row-stage: a long row
# copied to shared memory once, every pass over it read there; passes/tile/rows.c 3')
# into OUTDIR (default staged-rows/):
#   OUTDIR/chk/   correctness (scripts/gpu-suite.sh): the default at the staged shapes of
#                 bench_rows.py (4096 x 32768 bf16), rows off the chunk size (3 x 33000,
#                 1000 x 40000), few rows (37 x 32768), f32 rows (512 x 20000), a dynamic M
#                 (? x 32768 at M = 1, 5, 1000), and row-stage=2 at 8192 x 8192 and 4096 x
#                 16384 (many rows an SM) and where rows split over a cluster: softmax and
#                 residual + rms_norm 2048 x 65536 (clusters of 2 and 4), layer_norm 3 x
#                 70000, f32 softmax 64 x 32768 (2);
#   OUTDIR/def/, OUTDIR/off/, OUTDIR/on/   the timed set (with, since 2026-11-27, rows
#                 past the L2 budget and few long rows: bench/2026-11-27-h200-rows-past-l2.md;
#                 then more few rows and looped rows of a partial last chunk:
#                 bench/2026-11-27-h200-rows-few.md)
#                 by the default rule, with
#                 row-stage=0 (the on-chip or looped form) and with row-stage=2 (staged
#                 wherever the row fits, over a cluster where two whole rows do not fit an
#                 SM), same names: scripts/bench_row_variants.sh.
# Usage: scripts/make-staged-rows-cases.sh [OUTDIR]
set -euo pipefail
default_out=staged-rows
source "$(dirname "$0")/caselib.sh"
base=$out
mkdir -p "$base/chk" "$base/def" "$base/off" "$base/on"
# the check
out=$base/chk
for ex in softmax log_softmax layer_norm rms_norm; do
  compile "$ex" 4096x32768 "$(rows $ex 4096 32768)"
done
compile softmax 3x33000 "$(rows softmax 3 33000)"
compile log_softmax 1000x40000 "$(rows log_softmax 1000 40000)"
compile layer_norm 1000x40000 "$(rows layer_norm 1000 40000)"
compile rms_norm 37x32768 "$(rows rms_norm 37 32768)"
compile softmax 512x20000_f32 "$(f32rows softmax 512 20000)"
compile rms_norm dynx32768 "$(dynrows rms_norm 32768)"
printf -- '--dim s0=1\n--dim s0=5\n--dim s0=1000\n' > "$out/rms_norm_dynx32768.runs"
compile softmax 2048x65536_on "$(rows softmax 2048 65536)" "row-stage=2"
compile residual_rms_norm 2048x65536_on "$(rows residual_rms_norm 2048 65536)" "row-stage=2"
compile layer_norm 3x70000_on "$(rows layer_norm 3 70000)" "row-stage=2"
compile softmax 64x32768_f32_on "$(f32rows softmax 64 32768)" "row-stage=2"
compile layer_norm 8192x8192_on "$(rows layer_norm 8192 8192)" "row-stage=2"
compile rms_norm 4096x16384_on "$(rows rms_norm 4096 16384)" "row-stage=2"
# the timed set: NAME SHAPE
set_="softmax:4096x32768 log_softmax:4096x32768 layer_norm:4096x32768 rms_norm:4096x32768
residual_rms_norm:4096x32768 softmax:1024x40000 log_softmax:1024x40000 layer_norm:1000x40000
rms_norm:300x32768 softmax:2048x65536 log_softmax:2048x65536 layer_norm:2048x65536
rms_norm:2048x65536 residual_rms_norm:2048x65536 softmax:8192x8192
layer_norm:8192x8192 rms_norm:4096x16384 softmax:4096x16384
rms_norm:1024x131072 softmax:512x131072 layer_norm:1024x131072 residual_rms_norm:1000x65536
residual_rms_norm:512x98304 log_softmax:256x98304 layer_norm:300x70000 softmax:8x65536
softmax:16x131072 layer_norm:48x65536 rms_norm:32x32768 layer_norm:512x70000
softmax:2000x70000 rms_norm:512x80000 layer_norm:512x98304"
for c in $set_; do
  ex=${c%%:*}; shape=${c#*:}; m=${shape%x*}; n=${shape#*x}
  for v in def:"" off:row-stage=0 on:row-stage=2; do
    out=$base/${v%%:*}
    compile "$ex" "$shape" "$(rows "$ex" "$m" "$n")" "${v#*:}"
  done
done
out=$base
ls "$base"/chk/*.ptx | wc -l
