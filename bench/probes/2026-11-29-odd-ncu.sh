# ncu over the odd-shape cases and their aligned neighbours (one launch each, locked clocks):
# bench/2026-11-29-h200-odd-shapes.md run 2. Usage: bash 2026-11-29-odd-ncu.sh ODD_BENCH_DIR (make-odd-bench.sh's;
# the odd-only neighbours by SHAPES="4104x3001x1024 4104x3008x1000 ..." make-odd-bench.sh) (env SHAPES: the cases)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed
ODD=${1:?usage: 2026-11-29-odd-ncu.sh ODD_BENCH_DIR}
for c in ${SHAPES:- 4100x3001x1000 4104x3008x1024 7x1000x4100 8x1024x4096 1000x1000x4100 1000x1024x4096 64x3001x4100 64x3008x4096 33x1000x3001 40x1024x3008 16x4100x12289 16x4096x12288 256x3008x1000 256x3008x1024 3x3001x4100 8x3008x4096}; do
  echo "== $c"
  ncu --csv --metrics $M build-gpu/tt-run --no-check --runs 1 --warmup 1 "$ODD"/f16_$c.ptx 2>&1 | grep -v '^==PROF==' | tail -n +1
done
