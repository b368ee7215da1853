#!/usr/bin/env bash
# Writes the programs of tt-tune's shape set (issue 24 item 4: the geometry defaults checked
# against the best tuned choice) into OUTDIR (default tune-set/) as MLIR, one linear layer
# x [M,K] @ w[N,K]^T (f16, no bias, w tt.invariant) per file, f16_<M>x<N>x<K>.mlir, over the
# weights of five public model families, dense and MoE, 7B to 70B (as make-cold-bench.sh):
#   4096x4096 (Llama-2-7B q/k/v/o)          1024x4096 (Mistral-7B, Llama-3-8B k/v)
#   6144x4096 (Llama-3-8B fused qkv)        3584x3584 (Qwen2-7B q/o)
#   1024x8192 (Llama-3-70B k/v)             14336x4096 (Mixtral-8x7B expert up)
#   4096x14336 (Mixtral-8x7B expert down)   18944x3584 (Qwen2-7B up)
# at M in 1, 16, 64, 128 (decode to small prefill; env MS gives other M values, e.g. MS="256
# 512 1024 2048" for a prefill set, and SHAPES other NxK words). Then, on the compiler's machine:
#   tools/tt-tune/tt-tune prepare OUTDIR/*.mlir -o WORKDIR --bin build
# and on the GPU's: tools/tt-tune/tt-tune measure WORKDIR --runner TT_RUN -o CACHE --report R.md
# Usage: scripts/make-tune-set.sh [OUTDIR]   (env: MS, SHAPES)
set -euo pipefail
default_out=tune-set
source "$(dirname "$0")/caselib.sh"
for s in ${SHAPES:-4096x4096 1024x4096 6144x4096 3584x3584 1024x8192 14336x4096 4096x14336 18944x3584}; do
  for m in ${MS:-1 16 64 128}; do
    linear "$m" "${s%x*}" "${s#*x}" f16 0 > "$out/f16_${m}x${s}.mlir"
  done
done
ls "$out"/*.mlir | wc -l
