#!/usr/bin/env bash
# The GPU suite (run through `device`): every compiled case in CASES (default gpu-cases/,
# made by scripts/make-gpu-cases.sh) runs with tt-run on fresh random inputs and is checked
# against the float64 reference (programs of several kernels also as a CUDA graph replay,
# with --graph; two-stage split-K cases, named _ts, also with --repeat 5: bit-identical
# outputs run after run). A case NAME.ptx with a NAME.runs beside it runs once per line
# of it, that line's tt-run arguments added (the sizes of dynamic dims,
# make-dynamic-cases.sh; a --tol, make-matmul-cases.sh's f32 products). A run that takes
# longer than CASE_TIMEOUT seconds (default 120) fails as a hang, and the suite goes on.
# Prints one line per run and a summary; exit 1 on any failure.
# Usage: scripts/gpu-suite.sh TT_RUN [CASES]   (env: CASE_TIMEOUT)
set -uo pipefail
ttrun=$1
cases=${2:-gpu-cases}
fail=0; n=0
for f in "$cases"/*.ptx; do
  graph=; [ "$(grep -c '^//@launch' "$f")" -gt 1 ] && graph=--graph
  repeat=; case $(basename "$f") in *_ts*) repeat="--repeat 5" ;; esac # deterministic
  extra="${f%.ptx}.runs"
  if [ -f "$extra" ]; then mapfile -t runs < "$extra"; else runs=(""); fi
  for r in "${runs[@]}"; do
    n=$((n+1))
    # shellcheck disable=SC2086 # $r is a list of arguments
    log=$(timeout "${CASE_TIMEOUT:-120}" "$ttrun" --runs 20 --warmup 3 $graph $repeat $r "$f" 2>&1); rc=$?
    status=PASS; [ $rc -eq 0 ] || { status=FAIL; fail=$((fail+1)); }
    [ $rc -eq 124 ] && status="FAIL (hang: over ${CASE_TIMEOUT:-120} s)"
    printf '%-36s %s  %s\n' "$(basename "$f" .ptx)${r:+ $r}" "$status" \
      "$(echo "$log" | grep -E '^(output|time|launch gap|repeat)' | tr '\n' ' ')"
    [ $rc -eq 0 ] || echo "$log" | sed 's/^/    /'
  done
done
echo "gpu-suite: $((n-fail)) of $n cases passed"
[ $fail -eq 0 ]
