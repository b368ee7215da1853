#!/usr/bin/env bash
# Compiles the K scan of the GEMM benchmark (run here; the GPU times it with
# scripts/bench_gemm_kscan.py TT_RUN OUTDIR): linear layers y = x @ w^T at M x N x K for
# K in KS, f16 (f16_MxNxK.ptx) and fp8 e4m3 with per-tensor scales and f16 out
# (f8e4m3_MxNxK.ptx), tt's defaults (--decompose --fuse --splitk). Time against K gives a
# kernel's streaming rate (the slope) and its fixed cost per launch (the intercept).
# Usage: scripts/make-gemm-kscan.sh [OUTDIR]   (env: M, N: default 16, 8192; KS: default
# "8192 16384 32768", weights past the L2 cache)
set -euo pipefail
default_out=gemm-kscan
source "$(dirname "$0")/caselib.sh"
m=${M:-16} n=${N:-8192}
for k in ${KS:-8192 16384 32768}; do
  tt_ptx "f16_${m}x${n}x$k" "$(linear "$m" "$n" "$k" f16 0)" --splitk
  tt_ptx "f8e4m3_${m}x${n}x$k" "$(scaled_linear "$m" "$n" "$k" f8E4M3FN f8E4M3FN f16 0)" --splitk
done
echo "$(find "$out" -maxdepth 1 -name '*.ptx' | wc -l) cases in $out"
