#!/usr/bin/env bash
# Compiles the cases of the GEMM benchmark of issue 4 (run here; the GPU times them with
# scripts/bench_gemm.py TT_RUN OUTDIR): linear layers y = x @ w^T (x [M,K], w [N,K], no
# bias) at LLM decode shapes, one PTX each, into OUTDIR (default gemm-bench/):
#   <dt>_<M>x<N>x<K>.ptx          M in 1..128 x (N,K) in SHAPES, tt's defaults
#                                 (--decompose --fuse --splitk)
#   <dt>_<M>x<N>x<K>_sk<S>.ptx    M in 16 64 x the first two shapes: --tile --splitk='split-k=S'
#   <dt>_<M>x<N>x<K>_<order>.ptx  same shapes: --tile='order=O' --splitk
#   f16_4096x8192x8192.ptx        the large GEMM, tt's defaults
#   f8e4m3_<M>x<N>x<K>.ptx       the M sweep in fp8: prim.scaled_mm of e4m3 x and w with
#                                 per-tensor scales, f16 out (what torch._scaled_mm runs)
# A case that fails to compile is reported (exit status 1) and the others are still made.
# Usage: scripts/make-gemm-bench.sh [OUTDIR]   (env: TT_BIN, DTYPES: default "f16 f8E4M3FN")
set -euo pipefail
default_out=gemm-bench
source "$(dirname "$0")/caselib.sh"

MS="1 2 4 8 16 32 64 128"
SHAPES="8192x8192 28672x8192 8192x28672 10240x8192" # N x K
VARIANT_MS="16 64"
VARIANT_SHAPES="8192x8192 28672x8192"
SPLITS="1 2 4 8 16"
ORDERS="row-major grouped column-major"
DTYPES=${DTYPES:-f16 f8E4M3FN}

failed=()
case_ptx() { # name mlir-text passes...: a failed compile is listed at the end, not fatal
  tt_ptx "$@" || { failed+=("$1"); rm -f "$out/$1.ptx"; }
}

for dt in $DTYPES; do
  case $dt in
    f16) tag=f16 ;;
    f8E4M3FN) tag=f8e4m3 ;;
    *) echo "unknown dtype $dt" >&2; exit 2 ;;
  esac
  program() { # M N K
    if [ "$tag" = f16 ]; then linear "$1" "$2" "$3" f16 0; else scaled_linear "$1" "$2" "$3" "$dt" "$dt" f16 0; fi
  }
  for shape in $SHAPES; do
    IFS=x read -r n k <<<"$shape"
    for m in $MS; do
      case_ptx "${tag}_${m}x${n}x$k" "$(program "$m" "$n" "$k")" --splitk
    done
  done
  [ "$tag" = f16 ] || continue # the variants in f16 only
  for shape in $VARIANT_SHAPES; do
    IFS=x read -r n k <<<"$shape"
    for m in $VARIANT_MS; do
      prog=$(program "$m" "$n" "$k")
      for s in $SPLITS; do
        case_ptx "${tag}_${m}x${n}x${k}_sk$s" "$prog" --tile --splitk="split-k=$s"
      done
      for o in $ORDERS; do
        case_ptx "${tag}_${m}x${n}x${k}_$o" "$prog" --tile="order=$o" --splitk
      done
    done
  done
done
# The large GEMM (f16 only, tt's defaults; the large-GEMM issue tunes it).
case_ptx f16_4096x8192x8192 "$(linear 4096 8192 8192 f16 0)" --splitk
echo "$(find "$out" -maxdepth 1 -name '*.ptx' | wc -l) cases in $out"
if (( ${#failed[@]} )); then
  echo "${#failed[@]} cases failed to compile (bench_gemm.py shows tt n/a for them):" \
    "${failed[*]}" >&2
  exit 1
fi
