#!/usr/bin/env bash
# Times every compiled case in the given folders with tt-run (no reference check: the
# sweeps of tune-gemm.sh and tune-rows.sh) and prints `name median_us`, one per line.
# Usage: scripts/time-cases.sh TT_RUN DIR...   (env: RUNS, default 50; TT_RUN_FLAGS, e.g.
# --batch: one mean of back-to-back launches)
set -uo pipefail
ttrun=$1
shift
for d in "$@"; do
  for f in "$d"/*.ptx; do
    t=$("$ttrun" ${TT_RUN_FLAGS:-} --no-check --runs "${RUNS:-50}" --warmup 5 "$f" 2>&1 | awk '/^time/ {print $3}')
    printf '%-44s %s\n' "$(basename "$f" .ptx)" "${t:-FAILED}"
  done
done
