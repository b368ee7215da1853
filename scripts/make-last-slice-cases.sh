#!/usr/bin/env bash
# Compiles the GPU check and the A/B of --splitk reduce=last-slice (split-K in one launch:
# partial tiles to a workspace, the last slice to arrive sums them and runs the epilogue;
# passes/splitk.c) into OUTDIR (default last-slice/):
#   OUTDIR/chk/  correctness, names ending _ts (scripts/gpu-suite.sh repeats them 5 times:
#                the counters must reset for every later launch and graph replay):
#                f16 and fp8 decode linears at M 1, 16, 64 over 1024x4096, 4096x4096,
#                3584x3584, 1024x8192 and an odd 3001x4100 (K pad), all split by the
#                default rule's split; bias + GELU (a non-linear epilogue: two-stage's case)
#                7x1000x4100, bf16 SiLU 33x1001x2048 at split-k=4, f32 5x300x1000 split-k=3;
#                the same linears and odd cases by reduce=cluster (split-K's slices summed
#                in a thread-block cluster; the odd ones named cl_: 33 rows, 3 slices,
#                mma.sync's accumulator);
#   OUTDIR/atomic/, OUTDIR/last/, OUTDIR/cluster/  the same linears (no _ts) by atomics
#                (zero kernel + atomics), by last-slice and by the cluster sum, for
#                scripts/bench_variants.py (warm and cold, cuBLAS in the same rounds);
#   OUTDIR/two/, OUTDIR/lastact/  bias + GELU at M 1-64 by two-stage (the default for a
#                non-linear epilogue) and by last-slice (named f16_MxNxK as bench_variants.py
#                reads them; its cuBLAS column is the plain linear's).
# Device: scripts/gpu-suite.sh TT_RUN OUTDIR/chk, then
#   bench_variants.py TT_RUN atomic=OUTDIR/atomic last=OUTDIR/last cluster=OUTDIR/cluster --rounds 3 and
#   bench_variants.py TT_RUN two=OUTDIR/two last=OUTDIR/lastact --rounds 3.
# Usage: scripts/make-last-slice-cases.sh [OUTDIR]   (env: TT_BIN)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
top=${1:-$root/last-slice}
mkdir -p "$top"
top=$(cd "$top" && pwd)
shapes="1024x4096 4096x4096 3584x3584 1024x8192 3001x4100"
for v in atomic last cluster; do
  opts=reduce=atomic
  [ $v = last ] && opts=reduce=last-slice
  [ $v = cluster ] && opts=reduce=cluster
  DTYPES="f16 fp8" SHAPES="$shapes" MS="1 16 64" SPLITK=$opts \
    bash "$root/scripts/make-cold-bench.sh" "$top/$v" > /dev/null
done
default_out=last-slice/chk
source "$root/scripts/caselib.sh" "$top/chk"
for f in "$top"/last/*.ptx "$top"/cluster/*.ptx; do
  b=$(basename "$f" .ptx)
  cp "$f" "$out/${b}_$(basename "$(dirname "$f")")_ts.ptx"
done
tt_ptx cl_bias_gelu_7x1000x4100_ts "$(linear 7 1000 4100 f16 1 gelu '{approximate = "none"}')" --splitk=reduce=cluster
tt_ptx cl_silu_33x1001x2048_ts "$(linear 33 1001 2048 bf16 0 silu)" --splitk="split-k=4 reduce=cluster"
tt_ptx cl_f32_5x300x1000_ts "$(linear 5 300 1000 f32 0)" --splitk="split-k=3 reduce=cluster"
TT_MMA=sync tt_ptx cl_sync_16x4096x4096_ts "$(linear 16 4096 4096 f16 0)" --splitk=reduce=cluster
tt_ptx bias_gelu_7x1000x4100_ts "$(linear 7 1000 4100 f16 1 gelu '{approximate = "none"}')" --splitk=reduce=last-slice
tt_ptx silu_33x1001x2048_ts "$(linear 33 1001 2048 bf16 0 silu)" --splitk="split-k=4 reduce=last-slice"
tt_ptx f32_5x300x1000_ts "$(linear 5 300 1000 f32 0)" --splitk="split-k=3 reduce=last-slice"
for v in two lastact; do
  out=$top/$v
  mkdir -p "$out"
  rm -f "$out"/*.ptx
  opts=reduce=two-stage
  [ $v = lastact ] && opts=reduce=last-slice
  for m in 1 16 64; do
    for s in 1024x4096 4096x4096 3001x4100; do
      tt_ptx "f16_${m}x$s" "$(linear "$m" "${s%x*}" "${s#*x}" f16 1 gelu '{approximate = "none"}')" --splitk=$opts
    done
  done
done
ls "$top"/*/*.ptx | wc -l
