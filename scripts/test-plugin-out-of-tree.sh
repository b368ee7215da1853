#!/usr/bin/env bash
# The plugin story of docs/writing-a-pass.md, from a fresh clone (issue 25): clone this
# repository's HEAD, build tt, install it to a prefix; then, each in an empty folder
# outside any tt tree, build against the installed tt (find_package(tt)), load with the
# installed tt-opt and run the lit tests of: the page's own plugin (the files of its
# fenced blocks that name one: ```c my-pass.c) and examples/prim-simplify. scripts/test.sh
# runs it; it needs what scripts/setup.sh installs.
# Usage: scripts/test-plugin-out-of-tree.sh [WORKDIR]   (a new or empty folder; default: a
# fresh mktemp -d, removed afterwards). Only committed files are tested: it clones HEAD.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-}
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
jobs=$(nproc)
if git -C "$root" rev-parse --git-dir > /dev/null 2>&1; then
  echo "== clone $(git -C "$root" rev-parse --short HEAD) into $work/src"
  git clone -q --no-local "$root" "$work/src"
else # not a git checkout: a copy of the tree without its build folders
  echo "== copy $root (no git checkout) into $work/src"
  mkdir "$work/src"
  tar -C "$root" --exclude='./build*' --exclude='./.venv' -cf - . | tar -C "$work/src" -xf -
fi
echo "== build and install tt to $work/prefix"
cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DTT_WERROR=ON > /dev/null
cmake --build "$work/build" -j"$jobs" > "$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }
cmake --install "$work/build" --prefix "$work/prefix" > /dev/null
# plugin DIR NAME: builds plugin NAME in DIR against the prefix, loads it, runs its tests.
plugin() {
  local dir=$1 name=$2
  cmake -S "$dir" -B "$dir/build" -DCMAKE_PREFIX_PATH="$work/prefix" > /dev/null
  cmake --build "$dir/build"
  "$work/prefix/bin/tt-opt" --load-pass-plugin="$dir/build/$name.so" --version
  cmake --build "$dir/build" --target "check-$name"
}
echo "== docs/writing-a-pass.md's plugin, from an empty folder"
mkdir -p "$work/doc-pass/test"
awk -v dir="$work/doc-pass" '
  /^```/ { if (f) { close(f); f = "" } else if (NF == 2) f = dir "/" $2; next }
  f { print > f }' "$work/src/docs/writing-a-pass.md"
ls -R "$work/doc-pass"
plugin "$work/doc-pass" my-pass
echo "== examples/prim-simplify, copied to an empty folder"
mkdir "$work/prim-simplify"
cp -r "$work/src/examples/prim-simplify/." "$work/prim-simplify/"
plugin "$work/prim-simplify" prim-simplify
"$work/prefix/bin/tt-opt" --load-pass-plugin="$work/prim-simplify/build/prim-simplify.so" \
  --prim-simplify --mlir-print-debuginfo=false "$work/prim-simplify/test/Inputs/rms.mlir"
echo "out-of-tree plugins: built against $work/prefix, loaded, their lit tests pass"
