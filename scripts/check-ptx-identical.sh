#!/usr/bin/env bash
# Checks that a refactoring changed no generated PTX: compiles every case of
# make-gpu-cases.sh, make-gemm-cases.sh and make-gemm-bench.sh, and every example through
# the main job (tt-opt --decompose --fuse --splitk | tt-translate --ptx, also with
# --mma=sync and for --arch sm_80, sm_89, sm_90, sm_100a and sm_120), once with the tools of a base commit and once with the working tree's
# build, and reports whether every PTX file is byte-identical.
#
# Usage: scripts/check-ptx-identical.sh [BASE]   (default: c095bdf, where issue 20 began)
#   env: TT_BIN (the tree's build, default build/), KEEP=1 keeps the base build's PTX
#        between runs (build-ptx-base/<commit>/ptx), so a second run only compiles the tree.
# The base commit is built in a git worktree under build-ptx-base/ (ignored by git).
# Exit status: 0 when every file matches, 1 when any differs or is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
base=$(git rev-parse --short "${1:-c095bdf}")
work=$root/build-ptx-base/$base
tree_bin=${TT_BIN:-$root/build}

# 1. The base commit's tools, built once.
if ! [ -x "$work/build/tt-translate" ]; then
  rm -rf "$work/src"
  mkdir -p "$work"
  git worktree prune
  git worktree add --detach "$work/src" "$base" > /dev/null
  cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
  cmake --build "$work/build" -j"$(nproc)" --target tt-opt tt-translate > /dev/null
fi

# 2. The cases, from this tree's scripts and examples, compiled by one set of tools.
compile_all() { # bin outdir
  local bin=$1 dir=$2
  rm -rf "$dir"
  mkdir -p "$dir"
  TT_BIN=$bin bash scripts/make-gpu-cases.sh "$dir/gpu-cases" > /dev/null
  TT_BIN=$bin bash scripts/make-gemm-cases.sh "$dir/gemm-cases" > /dev/null
  TT_BIN=$bin bash scripts/make-gemm-bench.sh "$dir/gemm-bench" > /dev/null
  mkdir -p "$dir/examples"
  for ex in examples/*.mlir; do
    name=$(basename "$ex" .mlir)
    for mma in wgmma sync; do
      "$bin/tt-opt" --decompose --fuse --splitk "$ex" |
        "$bin/tt-translate" --ptx --mma=$mma -o "$dir/examples/${name}_$mma.ptx"
    done
    for arch in sm_80 sm_89 sm_90 sm_100a sm_120; do # other targets: tt-translate's choices
      [ "$arch" != sm_80 ] || ! grep -q f8E4M3 "$ex" || continue # (fp8 needs sm_89+)
      "$bin/tt-opt" --decompose --fuse --splitk "$ex" |
        "$bin/tt-translate" --ptx --arch=$arch -o "$dir/examples/${name}_$arch.ptx"
    done
  done
}
if [ "${KEEP:-0}" != 1 ] || ! [ -d "$work/ptx" ]; then
  compile_all "$work/build" "$work/ptx"
fi
compile_all "$tree_bin" "$work/ptx-tree"

# 3. The comparison.
n=$(cd "$work/ptx" && find . -name '*.ptx' | wc -l)
if diff -rq "$work/ptx" "$work/ptx-tree" > "$work/diff.txt"; then
  echo "PTX byte-identical to $base: $n files" \
    "($(find "$work/ptx/gpu-cases" -name '*.ptx' | wc -l) gpu-cases," \
    "$(find "$work/ptx/gemm-cases" -name '*.ptx' | wc -l) gemm-cases," \
    "$(find "$work/ptx/gemm-bench" -name '*.ptx' | wc -l) gemm-bench," \
    "$(find "$work/ptx/examples" -name '*.ptx' | wc -l) examples)"
else
  echo "PTX differs from $base in $(wc -l < "$work/diff.txt") of $n files:"
  head -20 "$work/diff.txt"
  exit 1
fi
