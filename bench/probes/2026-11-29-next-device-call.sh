#!/usr/bin/env bash
# Session 33's leads in one device call (bench/2026-11-29-h200-k-pad-model.md, last section;
# bench/2026-11-29-h200-prefill-tune.md, section 11): builds the TMA flat-rows probe here
# (nvcc) and the fp8 prefill next check (bench/probes/2026-11-29-fp8-prefill-next.sh) into
# OUT (default .gpu/next34), then prints the one device command (carry OUT). Its outputs:
# probe-{2d,1d,row}.txt (the control first: each form in its own process, a fault is sticky
# for the context), fp8 chk.log (GPU checks of the producer-warp variants and of the
# defaults' fp8 128 x 96 tile at odd M, odd N and a K tail) and
# fp8next-{1,2,3}.txt (tt-run --batch, 48 cases: d / ws / k128 / wsk128 per shape).
# Usage (repository root, a built tree): bash bench/probes/2026-11-29-next-device-call.sh [OUT]
set -euo pipefail
dest=${1:-.gpu/next34}
rm -rf "$dest" && mkdir -p "$dest"
/usr/local/cuda/bin/nvcc -arch=sm_90a -O2 -o "$dest/tma-flat-rows" \
  bench/probes/2026-11-29-tma-flat-rows.cu -lcuda
bash bench/probes/2026-11-29-fp8-prefill-next.sh "$dest/fp8" > /dev/null
cat <<MSG
On the device (carry $dest; about 3 minutes):
[ -x build-gpu/tt-run ] || bash scripts/build-tt-run.sh build-gpu > \$OUT/build.log 2>&1
for f in 2d 1d row; do timeout 60 $dest/tma-flat-rows \$f > \$OUT/probe-\$f.txt 2>&1; done; tail -n 4 \$OUT/probe-*.txt
CASE_TIMEOUT=30 bash scripts/gpu-suite.sh build-gpu/tt-run $dest/fp8/chk > \$OUT/chk.log 2>&1; tail -1 \$OUT/chk.log
for r in 1 2 3; do TT_RUN_FLAGS=--batch bash scripts/time-cases.sh build-gpu/tt-run $dest/fp8/t > \$OUT/fp8next-\$r.txt; done
MSG
