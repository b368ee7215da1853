#!/usr/bin/env bash
# The bounded fuzz run (CI, from scripts/test.sh): builds the libFuzzer harnesses
# (build-fuzz: clang-22, -DTT_FUZZ=ON, ASan+UBSan), makes their seed corpora from the
# examples and the lit inputs (test/fuzz/make-corpus.py, with the normal build's tools),
# then runs each target for SECONDS (default 60) with the dictionary test/fuzz/tt.dict,
# one fuzzer process at a time. Fails when any target crashes, trips a sanitizer, runs
# out of time on one input (-timeout) or of memory (-rss_limit_mb); the reproducer is
# left in build-fuzz/artifacts/TARGET/. docs/fuzzing.md says how to run longer campaigns.
#
# usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   (targets: opt translate meta)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(opt translate meta)
[ -x build/tt-opt ] && [ -x build/tt-translate ] || bash scripts/setup.sh > /dev/null
CC=clang-22 CXX=clang++-22 cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DTT_WERROR=ON -DTT_FUZZ=ON > /dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz-opt fuzz-translate fuzz-meta
# TT_FUZZ_KEEP_SEEDS=1 reuses the seeds of an earlier run (a campaign in chunks).
if [ "${TT_FUZZ_KEEP_SEEDS:-0}" != 1 ] || ! [ -d build-fuzz/seeds/meta ]; then
  rm -rf build-fuzz/seeds
  python3 test/fuzz/make-corpus.py build build-fuzz/seeds
fi
status=0
for t in "${targets[@]}"; do
  rm -rf "build-fuzz/corpus/$t"
  mkdir -p "build-fuzz/corpus/$t" "build-fuzz/artifacts/$t"
  # LLVM keeps process-lifetime allocations: leaks are looked for in the runtime only.
  leaks=0
  [ "$t" = meta ] && leaks=1
  echo "fuzz-$t: ${secs}s"
  if ! ASAN_OPTIONS=detect_leaks=$leaks UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      "build-fuzz/fuzz-$t" -max_total_time="$secs" -timeout=60 -rss_limit_mb=4096 \
      -max_len=16384 -dict=test/fuzz/tt.dict -close_fd_mask=3 -print_final_stats=1 \
      -artifact_prefix="build-fuzz/artifacts/$t/" \
      "build-fuzz/corpus/$t" "build-fuzz/seeds/$t" > "build-fuzz/fuzz-$t.log" 2>&1; then
    status=1
    tail -n 80 "build-fuzz/fuzz-$t.log"
    echo "fuzz-$t: FAILED; reproducer: $(ls build-fuzz/artifacts/$t/)"
  fi
  grep -E '^stat::number_of_executed_units|^stat::average_exec_per_sec|^#[0-9]+ *DONE' \
    "build-fuzz/fuzz-$t.log" || true
done
[ $status = 0 ] && echo "tt: fuzzing passed (${secs}s per target: ${targets[*]})"
exit $status
