#!/usr/bin/env bash
# Builds tt-run and libttrt.so alone (the runtime and its driver: pure C11, no MLIR) into OUTDIR (default
# build-gpu/), for the GPU machine, which has gcc and /usr/local/cuda but not LLVM/MLIR:
# the PTX is compiled here and carried there. Usage: scripts/build-tt-run.sh [OUTDIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build-gpu}
mkdir -p "$out"
# zlib (when its header is there) lets --inputs read numpy.savez_compressed archives
zlib=()
if echo '#include <zlib.h>' | gcc -E - >/dev/null 2>&1; then zlib=(-DTT_HAVE_ZLIB -lz); fi
gcc -std=c11 -O2 -fopenmp -I"$root/runtime" -I/usr/local/cuda/include "$root"/runtime/*.c \
  "$root"/tools/tt-run/*.c "${zlib[@]}" -ldl -lm -o "$out/tt-run"
# libttrt.so: the runtime for the Python binding (tt.load) and C programs
gcc -std=c11 -O2 -fopenmp -fPIC -shared -I"$root/runtime" -I/usr/local/cuda/include \
  "$root"/runtime/*.c -ldl -lm -o "$out/libttrt.so"
echo "$out/tt-run"
