#!/usr/bin/env bash
# Compiles the dynamic-M benchmark's cases into OUTDIR (default dynamic-bench/) (issue 21,
# item 5): decode linear layers x [M, K] @ w [N, K]^T, once with M dynamic (`?`: one PTX
# for every M, NAME_dyn.ptx) and once per M static (NAME_mM.ptx), for the shapes
#   f16 8192 x 8192, f16 28672 x 8192, fp8 (scaled_mm, bf16 out) 8192 x 8192, and an odd
#   one, bf16 4100 x 1000 with a bias and SiLU epilogue,
# at M = 1 2 4 8 16 24 32 48 64 (the issue's range) and 100 128 300 (past it). The device
# times both with scripts/bench_dynamic.sh build-gpu/tt-run dynamic-bench.
# MS (env) replaces the M list; DYN_TILE (env) gives --tile options to the dynamic PTX
# alone (DYN_TILE=bucket-split=0: the power-of-two buckets, for an A/B of two folders).
set -euo pipefail
default_out=dynamic-bench
source "$(dirname "$0")/caselib.sh"
MS=${MS:-1 2 4 8 16 24 32 48 64 100 128 300}
case_() { # name generator-function args-after-M...
  local name=$1 gen=$2
  shift 2
  compile "$name" dyn "$($gen '?' "$@")" "${DYN_TILE:-}"
  for m in $MS; do compile "$name" "m$m" "$($gen "$m" "$@")"; done
}
case_ linear_8192x8192_f16 linear 8192 8192 f16 0
case_ linear_28672x8192_f16 linear 28672 8192 f16 0
case_ scaled_8192x8192_fp8 scaled_linear 8192 8192 f8E4M3FN f8E4M3FN bf16 0
case_ linear_4100x1000_bf16 linear 4100 1000 bf16 1 silu
echo "$MS" > "$out/ms.txt"
