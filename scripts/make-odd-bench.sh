#!/usr/bin/env bash
# Compiles the cases of the odd-shape GEMM benchmark (issue 24: no alignment cliffs; the GPU
# times them with scripts/bench_odd.py TT_RUN OUTDIR) into OUTDIR (default odd-bench/):
#   f16_<M>x<N>x<K>.ptx       linear layers x [M,K] @ w[N,K]^T, f16, no bias, tt's defaults,
#                             at odd shapes (M, N, K drawn from 1, 3, 7, 33, 1000, 3001, 4100,
#                             12289: rows of K = 4100 are 8-byte aligned, of 3001 and 12289
#                             2-byte) and at each one's aligned neighbour (M to a multiple
#                             of 8, N and K to the nearest multiple of 64)
#                             and rows TMA reads that start off a 32-byte sector (K = 4104,
#                             1000: table D of bench/2026-11-26-h100-odd-shapes.md) at
#                             M = 1 to 4096
#   fp8_<M>x<N>x<K>.ptx       the same shapes as e4m3 prim.scaled_mm (f16 out), where
#                             DTYPES (default "f16 fp8") has fp8
#   bias_gelu_7x1000x4100.ptx the issue's first row: linear + bias + GELU(tanh), f16
# Usage: scripts/make-odd-bench.sh [OUTDIR]   (env: TT_BIN; TT_DECOMPOSE, TT_FUSE: options of
# those passes, e.g. TT_DECOMPOSE=align-k=0 for the off-sector shapes as before their pads)
set -euo pipefail
default_out=odd-bench
source "$(dirname "$0")/caselib.sh"
SHAPES=${SHAPES:-"7x1000x4100 3x3001x4100 1x12289x3001 16x4100x12289 33x1000x3001 64x3001x4100
128x12289x4100 1000x1000x4100 4100x3001x1000
1x4096x4104 16x4096x4104 64x4096x4104 256x4096x4104 4096x4096x4104
16x3008x1000 64x3008x1000 256x3008x1000 4096x3008x1000"}
near() { # v multiple: the nearest multiple (at least one)
  local v=$1 q=$2 r=$(( ($1 + $2 / 2) / $2 * $2 )); [ "$r" -lt "$q" ] && r=$q; echo "$r"
}
prog() { # dtype M N K
  if [ "$1" = fp8 ]; then scaled_linear "$2" "$3" "$4" f8E4M3FN f8E4M3FN f16 0
  else linear "$2" "$3" "$4" "$1" 0; fi
}
for dt in ${DTYPES:-f16 fp8}; do
  for s in $SHAPES; do
    m=${s%%x*}; rest=${s#*x}; n=${rest%x*}; k=${rest#*x}
    tt_ptx "${dt}_${m}x${n}x${k}" "$(prog "$dt" "$m" "$n" "$k")" --splitk
    am=$(( (m + 7) / 8 * 8 )); an=$(near "$n" 64); ak=$(near "$k" 64)
    tt_ptx "${dt}_${am}x${an}x${ak}" "$(prog "$dt" "$am" "$an" "$ak")" --splitk
  done
done
tt_ptx bias_gelu_7x1000x4100 "$(linear 7 1000 4100 f16 1 gelu '{approximate = "tanh"}')" --splitk
ls "$out" | wc -l
