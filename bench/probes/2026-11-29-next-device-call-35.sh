#!/usr/bin/env bash
# Session 34's leads in one device call (bench/2026-11-29-h200-prefill-tune.md, sections 14-15:
# fp8 at 129-600 rows still 0.65x-0.90x cuBLAS fp8 after the producer warp, and no 64-row
# tile closes it): what cuBLAS's fp8 kernels do there. Compiles tt's defaults for the
# shapes into OUT (default .gpu/next35) and prints the device command (carry OUT): ncu's
# launch and traffic metrics of cuBLAS (torch._scaled_mm through
# bench/probes/2026-11-29-cublas-ncu.py) and of tt's kernels, per shape: grid, block,
# cluster, registers, shared memory, DRAM and L2 bytes, time. Read: does cuBLAS at 257
# rows run 256-row tiles or 2 row tiles (no wave for one row), a persistent grid, a
# cluster multicast of B, and how many K steps in flight. Also the GPU check of the fp8
# transposes whose lowering changed after session 34's last device call (ba5186e: the
# power-of-two ones, 1024 x 4096 and 64 x 96, e4m3 and e5m2; scripts/make-move-cases.sh)
# and of fp8 odd K in e5m2.
# Usage (repository root, a built tree): bash bench/probes/2026-11-29-next-device-call-35.sh [OUT]
set -euo pipefail
dest=${1:-.gpu/next35}
source scripts/caselib.sh /tmp/tt-next35-scratch > /dev/null
rm -rf "$dest" && mkdir -p "$dest"
shapes="257x6144x4096 160x14336x4096 300x13824x5120 129x8192x4096 600x4096x4096"
for c in $shapes; do
  IFS=x read -r m n k <<<"$c"
  scaled_linear "$m" "$n" "$k" f8E4M3FN f8E4M3FN f16 0 |
    build/tt-opt --decompose --fuse --splitk | build/tt-translate --ptx -o "$dest/fp8_$c.ptx"
done
args=$(for c in $shapes; do printf 'fp8_%s ' "$c"; done)
bash scripts/make-move-cases.sh "$dest/mv" > /dev/null
mkdir -p "$dest/chk" && cp "$dest"/mv/*_f8E*.ptx "$dest/chk/" && rm -rf "$dest/mv"
for c in 7x1000x4100 601x4096x3001 16x6144x4112; do # fp8 odd K in e5m2 (e4m3's were checked)
  IFS=x read -r m n k <<<"$c"
  scaled_linear "$m" "$n" "$k" f8E5M2 f8E5M2 f16 0 |
    build/tt-opt --decompose --fuse --splitk | build/tt-translate --ptx -o "$dest/chk/e5m2_$c.ptx"
done
cat <<MSG
On the device (carry $dest; about 3 minutes):
[ -x build-gpu/tt-run ] || bash scripts/build-tt-run.sh build-gpu > \$OUT/build.log 2>&1
CASE_TIMEOUT=30 bash scripts/gpu-suite.sh build-gpu/tt-run $dest/chk > \$OUT/chk.log 2>&1; tail -1 \$OUT/chk.log
M=gpu__time_duration.sum,dram__bytes_read.sum,lts__t_bytes.sum,launch__grid_size,launch__block_size,launch__cluster_dim_x,launch__cluster_dim_y,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
ncu --csv --metrics \$M python3 bench/probes/2026-11-29-cublas-ncu.py $args > \$OUT/cublas.csv 2>&1
for f in $dest/fp8_*.ptx; do ncu --csv --metrics \$M build-gpu/tt-run --no-check --runs 1 --warmup 1 \$f > \$OUT/tt-\$(basename \$f .ptx).csv 2>&1; done
grep -h "Kernel Name\|gpu__time\|grid_size\|cluster_dim_x\|hmma" \$OUT/*.csv | cut -c1-200 | head -80
MSG
