#!/usr/bin/env bash
# Times row-kernel variants side by side (run through `device`): for every NAME.ptx of
# the first variant's folder, each variant's NAME.ptx (tt-run --batch --no-check, median
# of --runs 60 after 10 warm-up runs), ROUNDS rounds; prints a Markdown table of the
# medians over rounds (us) and each variant's time over the first's. Correctness is
# scripts/gpu-suite.sh's job. A NAME.runs beside a case gives its first line's tt-run
# arguments (a dynamic case's sizes). Usage: bench_row_variants.sh TT_RUN ROUNDS NAME=DIR...
set -euo pipefail
ttrun=$1 rounds=$2; shift 2
names=(); dirs=(); rel=()
for v in "$@"; do names+=("${v%%=*}"); dirs+=("${v#*=}"); done
printf '| case |'; for n in "${names[@]}"; do printf ' %s us | GB/s |' "$n"; done
for n in "${names[@]:1}"; do printf ' %s / %s |' "$n" "${names[0]}"; done; echo
printf '|---|'; for _ in "${names[@]}"; do printf -- '---|---|'; done
for _ in "${names[@]:1}"; do printf -- '---|'; done; echo
for f in "${dirs[0]}"/*.ptx; do
  c=$(basename "$f" .ptx); row="| $c |"
  for d in "${dirs[@]}"; do
    ts=(); gb=
    for ((r = 0; r < rounds; r++)); do
      # shellcheck disable=SC2046 # a NAME.runs' first line: its dynamic sizes
      line=$("$ttrun" --no-check --batch --warmup 10 --runs 60 --seed 1 \
        $( [ -f "$d/$c.runs" ] && head -1 "$d/$c.runs") "$d/$c.ptx" 2>&1 | grep '^time' | head -1)
      ts+=("$(echo "$line" | awk '{print $3}')"); gb=$(echo "$line" | awk '{print $8}')
    done
    med=$(printf '%s\n' "${ts[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    row+=" $med | $gb |"; rel+=("$med")
  done
  for ((i = 1; i < ${#dirs[@]}; i++)); do row+=" $(awk -v a="${rel[$i]}" -v b="${rel[0]}" 'BEGIN{printf "%.2fx", a/b}') |"; done
  rel=(); echo "$row"
done
