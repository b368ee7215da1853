#!/usr/bin/env bash
# The GPU suites under NVIDIA's compute-sanitizer (run through `device`): every compiled case
# in the given folders (made by the make-*-cases.sh scripts) runs once with tt-run on fresh
# random inputs, checked against the float64 reference, under each tool: memcheck
# (out-of-bounds and misaligned accesses, and any CUDA API error the runtime provokes),
# racecheck (shared-memory hazards between threads of a block) and synccheck (barriers in
# divergent code, illegal barrier use). A case passes a tool when tt-run exits 0 and the
# tool reports no error. Cases whose tensors hold more than MAX_ELEMS elements in all are
# skipped (the sanitizers slow kernels 10-1000x; the odd and mid sizes are the ones that
# find edge bugs); a NAME.runs sidecar gives per-run tt-run arguments, as in gpu-suite.sh.
# Prints one line per case and tool, a summary per tool; exit 1 on any failure.
# Usage: scripts/gpu-sanitize.sh TT_RUN DIR...
#   env: TOOLS (default "memcheck racecheck synccheck"), MAX_ELEMS (default 33554432),
#        COMPUTE_SANITIZER (default: on PATH, else /usr/local/cuda/bin/compute-sanitizer),
#        JOBS (runs at a time, default 8: the sanitizers' cost is mostly on the CPU)
set -uo pipefail
ttrun=$1; shift
tools=${TOOLS:-memcheck racecheck synccheck}
max=${MAX_ELEMS:-33554432}
cs=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
"$cs" --version | head -2

# Elements of every tensor line of a case's metadata (a symbolic size counts as 1).
elements() {
  awk '/^\/\/@tensor/ { n = 1; split($NF, d, "x"); for (i in d) if (d[i] ~ /^[0-9]+$/) n *= d[i]; t += n }
       END { print t + 0 }' "$1"
}

# One run: TOOL CASE [tt-run arguments...] -> a line "TOOL NAME PASS|FAIL summary" (and
# the log of a failure, its lines led by "TOOL:").
one() {
  local tool=$1 f=$2; shift 2
  local log rc summary status=PASS
  log=$("$cs" --tool "$tool" --error-exitcode 99 --print-limit 20 \
        "$ttrun" --runs 1 --warmup 0 "$@" "$f" 2>&1); rc=$?
  summary=$(echo "$log" | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tail -1)
  if [ $rc -ne 0 ] || ! echo "$summary" | grep -qE ' 0 (errors|hazards)'; then status=FAIL; fi
  local text
  text=$(printf '%-9s %-48s %s  %s' "$tool" "$(basename "$f" .ptx)${*:+ $*}" "$status" "${summary#========= }")
  [ $status = PASS ] || text+=$'\n'$(echo "$log" | grep -v '^output\|^time' | head -40 | sed "s/^/$tool:    /")
  printf '%s\n' "$text" # one write: parallel runs do not interleave
}
export -f one; export cs ttrun

# The runs: one line per tool, case and line of its .runs sidecar.
list=$(mktemp)
skipped=0
for dir in "$@"; do
  for f in "$dir"/*.ptx; do
    [ -e "$f" ] || continue
    if [ "$(elements "$f")" -gt "$max" ]; then skipped=$((skipped+1)); continue; fi
    extra="${f%.ptx}.runs"
    for tool in $tools; do
      if [ -f "$extra" ]; then sed "s|^|$tool $f |" "$extra"; else echo "$tool $f"; fi
    done
  done
done > "$list"
echo "gpu-sanitize: $(wc -l < "$list") runs on ${JOBS:-8} at a time; $skipped cases over $max elements skipped"
out=$(mktemp)
# shellcheck disable=SC2016 # expanded by the inner shell
xargs -P "${JOBS:-8}" -L 1 bash -c 'one "$@"' _ < "$list" > "$out"
sort -s -k1,1 "$out"
fail=0
for tool in $tools; do
  n=$(grep -c "^$tool " "$out"); bad=$(grep -c "^$tool .* FAIL " "$out")
  echo "gpu-sanitize $tool: $((n-bad)) of $n runs clean"
  [ "$bad" -eq 0 ] || fail=1
done
rm -f "$list" "$out"
exit $fail
