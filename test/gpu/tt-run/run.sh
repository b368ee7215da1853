#!/bin/sh
# GPU smoke test of the runtime and tt-run (needs a Hopper GPU, nvcc and gcc;
# not part of the lit suite, which runs without a GPU).
#
# Builds tt-run, turns each *.cu here into a tt PTX file (its //@ lines, then
# the PTX nvcc makes of it; *.ptx files are taken as they are), runs tt-run on
# it and checks the exit status against the file's `// EXPECT: exit N` line
# and that every `// EXPECT-OUTPUT: TEXT` line's TEXT is in the output. A file's
# `// TT-RUN-ARGS: ...` line adds tt-run options for it.
#
# usage: test/gpu/tt-run/run.sh [WORKDIR]   (default /tmp/tt-run-gpu)
# Extra tt-run options can be given in $TT_RUN_ARGS.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../../..
work=${1:-/tmp/tt-run-gpu}
mkdir -p "$work" || exit 1
gcc -std=c11 -O2 -Wall -Wextra -I"$root/runtime" -I/usr/local/cuda/include \
  "$root"/runtime/*.c "$root"/tools/tt-run/*.c -ldl -lm -o "$work/tt-run" ||
  exit 1

passed=0
failed=0
for src in "$here"/*.cu "$here"/*.ptx; do
  name=$(basename "$src")
  name=${name%.*}
  ptx=$work/$name.ptx
  case $src in
  *.cu)
    nvcc -ptx -arch=sm_90a -o "$work/$name.body" "$src" || exit 1
    { grep '^//@' "$src"; cat "$work/$name.body"; } >"$ptx"
    ;;
  *) cp "$src" "$ptx" ;;
  esac
  want=$(sed -n 's|^// EXPECT: exit \([0-9]*\).*|\1|p' "$src")
  args=$(sed -n 's|^// TT-RUN-ARGS: ||p' "$src")
  (cd "$work" && ./tt-run --warmup 3 --runs 20 ${TT_RUN_ARGS:-} $args "$name.ptx") \
    >"$work/$name.log" 2>&1
  rc=$?
  ok=1
  [ "$rc" = "$want" ] || ok=0
  sed -n 's|^// EXPECT-OUTPUT: ||p' "$src" >"$work/$name.expect"
  while IFS= read -r text; do
    grep -qF -- "$text" "$work/$name.log" || { ok=0; echo "  missing: $text"; }
  done <"$work/$name.expect"
  if [ $ok = 1 ]; then
    passed=$((passed + 1))
    echo "PASS $name (exit $rc)"
  else
    failed=$((failed + 1))
    echo "FAIL $name (exit $rc, expected $want):"
    sed 's/^/  | /' "$work/$name.log"
  fi
done
echo "$passed passed, $failed failed"
[ $failed = 0 ]
