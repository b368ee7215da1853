#!/usr/bin/env bash
# Quick start, part 1 (Debian 12, as root): install what tt needs, build it, and run the
# main job on an example: tt-opt --fuse --splitk | tt-translate --ptx -> bias_gelu.ptx.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# clang-22 with its runtime (libFuzzer, the sanitizers) builds the fuzz harnesses that
# scripts/test.sh runs (scripts/fuzz.sh); checked apart from LLVM, which may be there alone.
# zlib: tt-run --inputs reads numpy.savez_compressed archives.
if ! [ -x /usr/lib/llvm-22/bin/mlir-opt ] || ! [ -d /usr/lib/llvm-22/lib/cmake/mlir ] ||
   ! command -v clang-22 > /dev/null || ! [ -f /usr/include/zlib.h ] ||
   ! [ -f /usr/lib/llvm-22/lib/clang/22/lib/linux/libclang_rt.fuzzer-x86_64.a ]; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    cmake make gcc g++ python3 llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools \
    clang-22 libclang-rt-22-dev zlib1g-dev
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTT_WERROR=ON
cmake --build build -j"$(nproc)"
build/tt-opt --fuse --splitk examples/bias_gelu.mlir | build/tt-translate --ptx -o bias_gelu.ptx
echo "wrote $root/bias_gelu.ptx ($(grep -c . bias_gelu.ptx) lines); its launch metadata:"
grep '^//@launch\|^//@arg' bias_gelu.ptx
