#!/usr/bin/env bash
# The GPU check of a compiler change in one device call: compiles every case set that has
# a float64 reference check (the make-*-cases.sh suites below and the GEMM, batched,
# odd-shape and cold benchmarks' cases in f16, bf16 and fp8) twice, with the tools of
# BASE_BIN (a build of the commit before the change) and with this tree's build (TT_BIN,
# default build/), and copies every case whose PTX differs (with its .runs, the sizes of a
# dynamic dim) into OUTDIR as <set>_<name>.ptx. Then on the device:
#   scripts/gpu-suite.sh TT_RUN OUTDIR
# checks exactly what the change touched. Prints the count per set; OUTDIR/changed.txt
# lists them. Both compilations go under OUTDIR/.work (removed at the end unless KEEP=1).
# Usage: scripts/changed-cases.sh BASE_BIN OUTDIR   (env: TT_BIN, KEEP)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
base=${1:?usage: changed-cases.sh BASE_BIN OUTDIR}
out=${2:?usage: changed-cases.sh BASE_BIN OUTDIR}
new=${TT_BIN:-$root/build}
sets="gpu composite move fusion fp8 gemm dynamic matmul permute reduce last-slice multicast
      staged-rows odd-rows welford masked-load stage-regs"
benches="bmm odd cold"
mkdir -p "$out"
rm -f "$out"/*.ptx "$out"/*.runs
compile() { # tag bin
  local w=$out/.work/$1
  rm -rf "$w"
  for s in $sets; do
    TT_BIN=$2 bash "$root/scripts/make-$s-cases.sh" "$w/$s" > /dev/null 2>&1 ||
      echo "changed-cases.sh: make-$s-cases.sh failed with $2" >&2
  done
  for b in $benches; do
    TT_BIN=$2 DTYPES="f16 bf16 fp8" bash "$root/scripts/make-$b-bench.sh" "$w/b$b" > /dev/null 2>&1 ||
      echo "changed-cases.sh: make-$b-bench.sh failed with $2" >&2
  done
}
compile base "$base"
compile new "$new"
: > "$out/changed.txt"
(cd "$out/.work/new" && find . -name '*.ptx' | sort) | while read -r f; do
  f=${f#./}
  cmp -s "$out/.work/base/$f" "$out/.work/new/$f" && continue
  name=$(echo "${f%.ptx}" | tr / _)
  cp "$out/.work/new/$f" "$out/$name.ptx"
  runs="$out/.work/new/${f%.ptx}.runs"
  [ -f "$runs" ] && cp "$runs" "$out/$name.runs"
  echo "$f" >> "$out/changed.txt"
done
cut -d/ -f1 "$out/changed.txt" | sort | uniq -c
echo "changed-cases.sh: $(wc -l < "$out/changed.txt") changed cases in $out"
[ "${KEEP:-0}" = 1 ] || rm -rf "$out/.work"
