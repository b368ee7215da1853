#!/usr/bin/env bash
# The plugin story of docs/writing-a-pass.md, from a fresh clone (issue 25): clone this
# repository's HEAD, build tt, install it to a prefix, copy examples/prim-simplify to an
# empty folder outside any tt tree, build the plugin there against the installed tt
# (find_package(tt)), load it with the installed tt-opt and run its lit tests
# (check-prim-simplify). scripts/test.sh runs it; it needs what scripts/setup.sh installs.
# Usage: scripts/test-plugin-out-of-tree.sh [WORKDIR]   (default: a fresh mktemp -d,
# removed afterwards). Only committed files are tested: it clones HEAD.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-}
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
jobs=$(nproc)
echo "== clone $(git -C "$root" rev-parse --short HEAD) into $work/src"
git clone -q --no-local "$root" "$work/src"
echo "== build and install tt to $work/prefix"
cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DTT_WERROR=ON > /dev/null
cmake --build "$work/build" -j"$jobs" > "$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }
cmake --install "$work/build" --prefix "$work/prefix" > /dev/null
echo "== the plugin in an empty folder, against the installed tt"
mkdir "$work/my-pass"
cp -r "$work/src/examples/prim-simplify/." "$work/my-pass/"
cmake -S "$work/my-pass" -B "$work/my-pass/build" -DCMAKE_PREFIX_PATH="$work/prefix" > /dev/null
cmake --build "$work/my-pass/build"
echo "== the installed tt-opt loads it"
"$work/prefix/bin/tt-opt" --load-pass-plugin="$work/my-pass/build/prim-simplify.so" --version
"$work/prefix/bin/tt-opt" --load-pass-plugin="$work/my-pass/build/prim-simplify.so" \
  --prim-simplify --mlir-print-debuginfo=false "$work/my-pass/test/Inputs/rms.mlir"
echo "== its lit tests"
cmake --build "$work/my-pass/build" --target check-prim-simplify
echo "out-of-tree plugin: built against $work/prefix, loaded, its lit tests pass"
