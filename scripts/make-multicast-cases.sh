#!/usr/bin/env bash
# Compiles the check and the A/B of A's tile multicast over a cluster of column tiles
# (--tile multicast=C: C blocks read A's tile once; passes/pipeline/, the TMA form) into
# OUTDIR (default multicast/):
#   OUTDIR/chk/   correctness (scripts/gpu-suite.sh): f16, bf16 and fp8 linear layers at
#                 M = 1, 7, 33, 64 with clusters of 2, 4 and 8 (16-, 32- and 64-row tiles),
#                 unsplit and split-K (atomics), a bias + GELU epilogue, K not a multiple
#                 of the K step, a partial last column tile (N = 1000);
#   OUTDIR/<variant>/   the M = 64 decode set of make-cold-bench.sh (f16, fp8; 3584^2,
#                 4096^2, 6144 x 4096, 1024 x 4096) under each variant's options, for
#                 scripts/bench_variants.py TT_RUN def=OUTDIR/def mc4=OUTDIR/mc4 ...
# Usage: scripts/make-multicast-cases.sh [OUTDIR]
set -euo pipefail
default_out=multicast
source "$(dirname "$0")/caselib.sh"
base=$out
mkdir -p "$base/chk"
out=$base/chk
mc() { # name mlir tile-options splitk-options
  tt_ptx "$1" "$2" --tile="$3" --splitk="$4"
}
mc f16_64x4096x4096_n32mc8 "$(linear 64 4096 4096 f16 0)" "block-n=32 multicast=8" "split-k=1"
mc bf16_33x3584x3584_mc4_s2 "$(linear 33 3584 3584 bf16 0)" "multicast=4" "split-k=2 reduce=atomic"
mc f16_7x1024x4100_mc2 "$(linear 7 1024 4100 f16 0)" "multicast=2" "split-k=1"
mc bf16_1x2048x1000_mc2_s4 "$(linear 1 2048 1000 bf16 0)" "multicast=2" "split-k=4 reduce=atomic"
mc f16_64x1024x4096_mc8_gelu "$(linear 64 1024 4096 f16 1 gelu '{approximate = "tanh"}')" "multicast=8" "split-k=1"
mc fp8_64x1024x4096_mc4 "$(scaled_linear 64 1024 4096 f8E4M3FN f8E4M3FN bf16 0)" "multicast=4" ""
mc fp8_64x6144x4096_n48mc2 "$(scaled_linear 64 6144 4096 f8E4M3FN f8E4M3FN bf16 0)" "block-n=48 multicast=2" "split-k=1"
mc bf16_64x1000x4096_mc4 "$(linear 64 1000 4096 bf16 0)" "multicast=4" "split-k=1"
mc f16_64x3584x3584_n32mc8k256 "$(linear 64 3584 3584 f16 0)" "block-n=32 block-k=256 multicast=8" "split-k=1"
# the timed variants: NAME:TILE:SPLITK[:PIPELINE]
for v in "def::" "mc4:multicast=4:" "mc4s4:multicast=4::stage-in=auto num-stages=4" \
         "n32mc8:block-n=32 multicast=8:split-k=1" \
         "n32mc8s6:block-n=32 multicast=8:split-k=1:stage-in=auto num-stages=6" \
         "n48mc2:block-n=48 multicast=2:split-k=1" \
         "n48mc2s6:block-n=48 multicast=2:split-k=1:stage-in=auto num-stages=6"; do
  IFS=: read -r name tile splitk pipeline <<< "$v"
  DTYPES="f16 fp8" SHAPES="3584x3584 4096x4096 6144x4096 1024x4096" MS=64 TILE=$tile \
    SPLITK=$splitk PIPELINE=$pipeline bash "$(dirname "$0")/make-cold-bench.sh" "$base/$name" > /dev/null
done
out=$base
ls "$base"/chk/*.ptx | wc -l
