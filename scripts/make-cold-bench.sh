#!/usr/bin/env bash
# Compiles the cases of the warm/cold decode GEMM benchmark (issue 24 item 6; the GPU times
# them with scripts/bench_cold.py TT_RUN OUTDIR) into OUTDIR (default cold-bench/):
# f16_<M>x<N>x<K>.ptx, linear layers x [M,K] @ w[N,K]^T (no bias), tt's defaults, M in 1,
# 16, 64, over weights of public model families, most of which fit the 50 MB L2:
#   4096x4096 (Llama-2-7B q/k/v/o, 32 MB)   1024x4096 (Mistral-7B, Llama-3-8B k/v, 8 MB)
#   6144x4096 (Llama-3-8B fused qkv, 48 MB)  3584x3584 (Qwen2-7B q/o, 25 MB)
#   1024x8192 (Llama-3-70B k/v, 16 MB)       14336x4096 (Mixtral-8x7B expert up, 112 MB)
# DTYPES (env, default f16) picks the dtypes, any of f16 bf16 fp8: <dtype>_<M>x<N>x<K>.ptx,
# fp8 as torch._scaled_mm of e4m3 x and w with f32 scales and a bf16 result.
# SHAPES (env, NxK words) and MS (env, the M values) replace the lists above; SPLITK (env)
# gives --splitk its options (SPLITK=split-k=1: no split) and TILE (env) --tile its own
# (TILE=block-k=256), and PIPELINE --pipeline's (PIPELINE="stage-in=auto num-stages=6";
# else tt-translate runs it), for A/B folders of one set (scripts/bench_variants.py).
# Usage: scripts/make-cold-bench.sh [OUTDIR]
#   (env: TT_BIN, DTYPES, SHAPES, MS, SPLITK, TILE, PIPELINE)
set -euo pipefail
default_out=cold-bench
source "$(dirname "$0")/caselib.sh"
for t in ${DTYPES:-f16}; do
  for s in ${SHAPES:-4096x4096 1024x4096 6144x4096 3584x3584 1024x8192 14336x4096}; do
    for m in ${MS:-1 16 64}; do
      n=${s%x*} k=${s#*x}
      if [ "$t" = fp8 ]; then
        tt_ptx "fp8_${m}x${s}" "$(scaled_linear "$m" "$n" "$k" f8E4M3FN f8E4M3FN bf16 0)" ${TILE:+--tile="$TILE"} --splitk${SPLITK:+="$SPLITK"} ${PIPELINE:+--pipeline="$PIPELINE"}
      else
        tt_ptx "${t}_${m}x${s}" "$(linear "$m" "$n" "$k" "$t" 0)" ${TILE:+--tile="$TILE"} --splitk${SPLITK:+="$SPLITK"} ${PIPELINE:+--pipeline="$PIPELINE"}
      fi
    done
  done
done
ls "$out" | wc -l
