#!/usr/bin/env bash
# The checks session 31 (2026-11-29) left for the next device session, prepared on the
# compiler's machine in one go; then one device call runs them (printed at the end).
#  1. the prefill model (passes/tile/geometry.c step 0) on held-out shapes: make-bin-ab.sh
#     against a build of b3545f1 (the commit before it), timed warm with cuBLAS;
#  2. its two dynamic-M cases never run on the GPU (changed-cases.sh against b3545f1);
#  3. `--pipeline wave-stages=1` on the 13 prefill shapes it changes that were not timed.
# Usage (repository root): bash bench/probes/2026-11-29-next-checks.sh [OUT=.gpu/next]
# (env BASE_BUILD: a build folder of b3545f1; else one is built under /tmp/tt-base, about
# 15 minutes on 2 cores).
set -euo pipefail
out=${1:-.gpu/next}
bb=${BASE_BUILD:-/tmp/tt-base/build}
if [ ! -x "$bb/tt-opt" ]; then
  rm -rf /tmp/tt-base && git worktree add -f /tmp/tt-base b3545f1 > /dev/null
  (cd /tmp/tt-base && cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null &&
    cmake --build build -j2 > /dev/null)
fi
rm -rf "$out" && mkdir -p "$out"
bash scripts/make-bin-ab.sh "$bb" "$out/prefill"
bash scripts/changed-cases.sh "$bb" "$out/changed"
CASES="f16x384x14336x4096 f16x384x13824x5120 f16x512x9216x3072 f16x768x6144x4096
  f16x768x8192x8192 f16x1024x5120x5120 f16x1536x4096x4096 f16x1536x3584x3584
  f16x1536x4096x14336 f16x1536x3584x18944 f16x1536x3072x3072 f16x2048x3072x3072
  f16x3072x2048x8192" B="--pipeline=stage-in=auto wave-stages=1" \
  bash scripts/make-gemm-ab.sh "$out/wave"
cat <<MSG
On the device (carry .gpu):
  [ -x build-gpu/tt-run ] || bash scripts/build-tt-run.sh build-gpu > \$OUT/build.log 2>&1
  (cd scripts && python3 bench_variants.py ../build-gpu/tt-run before=../$out/prefill/a after=../$out/prefill/b --warm-only --out \$OUT/prefill.md)
  CASE_TIMEOUT=60 bash scripts/gpu-suite.sh build-gpu/tt-run $out/changed
  CASE_TIMEOUT=60 bash scripts/gpu-suite.sh build-gpu/tt-run $out/prefill/b
  for r in 1 2; do TT_RUN_FLAGS=--batch bash scripts/time-cases.sh build-gpu/tt-run $out/wave > \$OUT/wave-\$r.txt; done
MSG
