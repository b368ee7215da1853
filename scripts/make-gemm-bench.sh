#!/usr/bin/env bash
# Compiles the cases of the GEMM benchmark of issue 4 (run here; the GPU times them with
# scripts/bench_gemm.py TT_RUN OUTDIR): linear layers y = x @ w^T (x [M,K], w [N,K], no
# bias) at LLM decode shapes, one PTX each, into OUTDIR (default gemm-bench/):
#   <dt>_<M>x<N>x<K>.ptx          M in 1..128 x (N,K) in SHAPES, tt's defaults
#                                 (--decompose --fuse --splitk)
#   <dt>_<M>x<N>x<K>_sk<S>.ptx    M in 16 64 x the first two shapes: --tile --splitk='split-k=S'
#   <dt>_<M>x<N>x<K>_<order>.ptx  same shapes: --tile='order=O' --splitk
#   f16_4096x8192x8192.ptx        the large GEMM, 128x64x32 tiles, 8 warps
# dt is f16 (f8e4m3 for fp8 once tt compiles it: see DTYPES below).
# A case that fails to compile is reported (exit status 1) and the others are still made.
# Usage: scripts/make-gemm-bench.sh [OUTDIR]   (env: TT_BIN, DTYPES, TT_FP8)
set -euo pipefail
default_out=gemm-bench
source "$(dirname "$0")/caselib.sh"

MS="1 2 4 8 16 32 64 128"
SHAPES="8192x8192 28672x8192 8192x28672 10240x8192" # N x K
VARIANT_MS="16 64"
VARIANT_SHAPES="8192x8192 28672x8192"
SPLITS="1 2 4 8 16"
ORDERS="row-major grouped column-major"
# fp8 hook: f8E4M3FN in DTYPES (the default) adds fp8 cases once --decompose takes fp8 linear
# (needs per-tensor scales in the prim program, as torch._scaled_mm takes them: extend
# `linear` in caselib.sh). Named f8e4m3_*.ptx; bench_gemm.py then gives them a tt fp8
# column next to cuBLAS fp8. Until then they are skipped with a note.
DTYPES=${DTYPES:-f16 f8E4M3FN}
TT_FP8=${TT_FP8:-0} # 1: try to compile fp8 cases anyway (for when the compiler has it)

failed=()
case_ptx() { # name mlir-text passes...: a failed compile is listed at the end, not fatal
  tt_ptx "$@" || { failed+=("$1"); rm -f "$out/$1.ptx"; }
}

for dt in $DTYPES; do
  case $dt in
    f16) tag=f16 ;;
    f8E4M3FN)
      tag=f8e4m3
      if [ "$TT_FP8" != 1 ]; then
        echo "note: fp8 ($dt) cases skipped: tt does not compile fp8 linear yet" \
          "(set TT_FP8=1 to try); bench_gemm.py still times cuBLAS fp8 (_scaled_mm)" >&2
        continue
      fi ;;
    *) echo "unknown dtype $dt" >&2; exit 2 ;;
  esac
  for shape in $SHAPES; do
    IFS=x read -r n k <<<"$shape"
    for m in $MS; do
      case_ptx "${tag}_${m}x${n}x$k" "$(linear "$m" "$n" "$k" "$dt" 0)" --splitk
    done
  done
  for shape in $VARIANT_SHAPES; do
    IFS=x read -r n k <<<"$shape"
    for m in $VARIANT_MS; do
      prog=$(linear "$m" "$n" "$k" "$dt" 0)
      for s in $SPLITS; do
        case_ptx "${tag}_${m}x${n}x${k}_sk$s" "$prog" --tile --splitk="split-k=$s"
      done
      for o in $ORDERS; do
        case_ptx "${tag}_${m}x${n}x${k}_$o" "$prog" --tile="order=$o" --splitk
      done
    done
  done
done
# The large GEMM (f16 only; the large-GEMM issue tunes it).
case_ptx f16_4096x8192x8192 "$(linear 4096 8192 8192 f16 0)" \
  --tile='block-m=128 block-n=64 block-k=32 num-warps=8' --splitk
echo "$(find "$out" -maxdepth 1 -name '*.ptx' | wc -l) cases in $out"
if (( ${#failed[@]} )); then
  echo "${#failed[@]} cases failed to compile (bench_gemm.py shows tt n/a for them):" \
    "${failed[*]}" >&2
  exit 1
fi
