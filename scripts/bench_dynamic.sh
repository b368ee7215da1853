#!/usr/bin/env bash
# The dynamic-M benchmark (issue 21, item 5; run through `device`): for each case of
# make-dynamic-bench.sh and each M, the kernel compiled for that static M against the one
# PTX compiled with M dynamic, run at that M (tt-run --dim s0=M), each timed as the GEMM
# benchmark times tt (tt-run --no-check --batch: the mean of R launches back to back, pdl),
# alternating static and dynamic over ROUNDS rounds (default 3) and taking each one's
# median. Prints a markdown table: the two times, dynamic / static, and whether it is
# within 5%. Usage: scripts/bench_dynamic.sh TT_RUN [DIR]   (env: RUNS, default 200; ROUNDS)
set -uo pipefail
ttrun=$1
dir=${2:-dynamic-bench}
runs=${RUNS:-200}
rounds=${ROUNDS:-3}
t() { "$ttrun" --no-check --batch --runs "$runs" --warmup 20 "$@" 2>&1 | awk '/^time/ {print $3}'; }
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR ? a[int((NR+1)/2)] : "")}'; }
echo "| case | M | static (us) | dynamic (us) | dynamic / static | within 5% |"
echo "|---|---|---|---|---|---|"
for dyn in "$dir"/*_dyn.ptx; do
  name=$(basename "$dyn" _dyn.ptx)
  for m in $(cat "$dir/ms.txt"); do
    st=""; dy=""
    for _ in $(seq "$rounds"); do
      st="$st $(t "$dir/${name}_m$m.ptx")"
      dy="$dy $(t --dim "s0=$m" "$dyn")"
    done
    s=$(echo "$st" | median); d=$(echo "$dy" | median)
    if [ -n "$s" ] && [ -n "$d" ]; then
      r=$(awk -v s="$s" -v d="$d" 'BEGIN {printf "%.3f", d / s}')
      ok=$(awk -v r="$r" 'BEGIN {print (r <= 1.05 ? "yes" : "NO")}')
      echo "| $name | $m | $s | $d | $r | $ok |"
    else
      echo "| $name | $m | ${s:-FAILED} | ${d:-FAILED} | | |"
    fi
  done
done
