#!/usr/bin/env bash
# Compile-time scaling benchmark (issue 22 item 5): for each program shape of
# scripts/gen-scaling.py (chain, fanout, blocks) at each size N, times every stage of the
# pipeline on its own and the main job, and prints a markdown table (seconds, wall clock;
# peak RSS in MiB).
#
# Stages, each a separate process reading the previous stage's output (so each time
# includes parsing and verifying its input and printing its output, as a user runs it):
#   parse      tt-opt in.mlir                       (parse + prim verifier + print)
#   decompose  tt-opt --decompose in.mlir           (the next stage reads in.mlir)
#   fuse       tt-opt --fuse in.mlir                -> fused
#   splitk     tt-opt --splitk fused                -> split
#   tile       tt-opt --tile split                  -> tiled
#   pipeline   tt-opt --pipeline=stage-in=auto tiled -> piped   (tt-translate's sm_90a form)
#   pdl        tt-opt --pdl piped                   -> pdl
#   convert    tt-opt --convert-tile-to-gpu='mma=wgmma sm=90' pdl -> gpu
#   ptx        tt-translate --ptx gpu               (launch metadata, NVVM -> LLVM -> PTX)
#   main job   tt-opt --fuse --splitk in.mlir | tt-translate --ptx   (its RSS: the larger
#              of the two processes)
# Each tt-opt stage prints "wall (pass)": the process's wall time, and in parentheses the
# pass alone from --mlir-timing (the rest is parsing, verifying and printing: MLIR's).
# Usage: scripts/bench_scaling.sh [SIZES] [SHAPES]  (default "1000 10000 100000",
#        "chain fanout blocks"); env TT_BIN (default build/), WORK (default
#        /tmp/tt-scaling), STAGES_ONLY=1 (the tt-opt stages only: no ptx, no main
#        job), LIMIT (seconds per command, default 600; a command past it
#        prints ">LIMIT"). Run it alone on the machine (timings).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${TT_BIN:-$root/build}
work=${WORK:-/tmp/tt-scaling}
limit=${LIMIT:-600}
sizes=${1:-"1000 10000 100000"}
shapes=${2:-"chain fanout blocks"}
mkdir -p "$work"

# run NAME CMD... : runs CMD under /usr/bin/time and the limit; sets t (seconds) and
# rss (MiB), or t=">LIMIT"/"fail".
run() {
  local name=$1
  shift
  if timeout "$limit" /usr/bin/time -f "%e %M" -o "$work/time.txt" "$@" \
      2> "$work/$name.err"; then
    read -r t rss < "$work/time.txt"
    rss=$((rss / 1024))
  else
    local rc=$?
    t=$([ "$rc" = 124 ] && echo ">$limit" || echo fail)
    rss=-
  fi
}

echo "| shape | N ops | kernels | parse | decompose | fuse | splitk | tile | pipeline | pdl | convert | ptx | **main job** | main job RSS (MiB) | PTX lines |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for shape in $shapes; do
  for n in $sizes; do
    d=$work/$shape-$n
    mkdir -p "$d"
    python3 "$root/scripts/gen-scaling.py" "$shape" "$n" > "$d/in.mlir"
    ops=$(grep -c '"prim\.' "$d/in.mlir")
    row="| $shape | $ops"
    cols=""
    run parse "$bin/tt-opt" "$d/in.mlir" -o "$d/parsed.mlir"; cols+=" | $t"
    prev=$d/in.mlir
    for stage in decompose fuse splitk tile "pipeline=stage-in=auto" pdl \
                 "convert-tile-to-gpu=mma=wgmma sm=90"; do
      name=${stage%%=*}
      out=$d/$name.mlir
      run "$name" "$bin/tt-opt" --mlir-timing "--$stage" "$prev" -o "$out"
      # the pass alone: its line of --mlir-timing's report (wall seconds)
      pass=$(awk -v n="$name" '$NF == n { print $1 }' "$work/$name.err" | head -1)
      cols+=" | $t (${pass:-?})"
      [ "$name" = decompose ] || prev=$out
    done
    if [ -n "${STAGES_ONLY:-}" ]; then
      echo "$row | -$cols | not run | not run | - | - |"
      continue
    fi
    run ptx "$bin/tt-translate" --ptx "$prev" -o "$d/stages.ptx"; cols+=" | $t"
    kernels=$(grep -c '^\.visible \.entry' "$d/stages.ptx" 2> /dev/null || echo -)
    # The main job: the pipe timed as a whole, each process's peak RSS on its own.
    start=$(date +%s.%N)
    if timeout "$limit" bash -c "/usr/bin/time -f %M -o '$d/rss1' '$bin/tt-opt' --fuse \
        --splitk '$d/in.mlir' | /usr/bin/time -f %M -o '$d/rss2' '$bin/tt-translate' \
        --ptx -o '$d/main.ptx'" 2> "$work/main.err"; then
      t=$(printf '%.2f' "$(echo "$(date +%s.%N) - $start" | bc)")
      rss=$(sort -n "$d/rss1" "$d/rss2" | tail -1)
      rss=$((rss / 1024))
      lines=$(wc -l < "$d/main.ptx")
    else
      t=">$limit/fail"; rss=-; lines=-
    fi
    echo "$row | $kernels$cols | **$t** | $rss | $lines |"
  done
done
