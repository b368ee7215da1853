#!/usr/bin/env bash
# Quick start, part 2: the whole test suite. Installs and builds as setup.sh does, then
# runs the lit suites (tt's and the example pass plugin's) twice: on the normal build, and
# on an ASan+UBSan build; then the pass-plugin story from a fresh clone (install, the
# example plugin built out of tree, scripts/test-plugin-out-of-tree.sh); the Python
# importer's tests (scripts/setup-python.sh makes .venv with PyTorch), and a bounded fuzz
# run (scripts/fuzz.sh: each libFuzzer target for TT_FUZZ_SECONDS, 60 s).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh > /dev/null
lit=/usr/lib/llvm-22/bin/lit
$lit -sv build/test/lit build/examples/prim-simplify/test
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DTT_WERROR=ON -DTT_SANITIZE=ON > /dev/null
cmake --build build-asan -j"$(nproc)"
# LLVM keeps process-lifetime allocations; leaks are not what this run looks for.
ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  $lit -sv build-asan/test/lit build-asan/examples/prim-simplify/test
# The installed runtime's CMake package: examples/runtime-c builds against it with
# find_package(tt) (it runs in the GPU suite; here it must build).
cmake --install build --prefix build/install > /dev/null
cmake -S examples/runtime-c -B build/example -DCMAKE_PREFIX_PATH="$root/build/install" > /dev/null
cmake --build build/example
# A pass plugin from an empty folder against an installed tt (docs/writing-a-pass.md).
bash scripts/test-plugin-out-of-tree.sh
# The Python importer (python/tests): torch.export -> prim text that tt-opt accepts.
bash scripts/setup-python.sh
TT_BIN=$root/build .venv/bin/python -m pytest -q -p no:cacheprovider python/tests
bash scripts/fuzz.sh "${TT_FUZZ_SECONDS:-60}"
echo "tt: all tests passed (normal and ASan+UBSan builds, Python importer, fuzzing)"
