#!/usr/bin/env bash
# Regenerates the generated docs from the definitions: docs/dialects/*.md (from the IRDL
# files) and the head of the page of every registered pass up to
# `<!-- end of generated part -->` (from the pass registry): tt's passes in docs/passes/,
# the example plugin's in examples/prim-simplify/docs/. The pass lists come from
# `tt-docgen --list-passes`; a new pass gets a page with a stub for its hand-written part,
# which is kept on every later run. The lit tests test/lit/docs/generated.test and the
# example's docs.test fail when these are stale (tt-docgen --check-passes).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${TT_BIN:-$root/build}
gen=$bin/tt-docgen
for d in prim tile hopper; do
  "$gen" "$d" > "$root/docs/dialects/$d.md"
done
# regen DIR [PLUGIN FLAGS]: the pages of the passes tt-docgen lists with those flags.
regen() {
  local dir=$1 p f
  shift
  for p in $("$gen" "$@" --list-passes); do
    f=$dir/$p.md
    {
      "$gen" "$@" --pass "$p"
      if [ -f "$f" ]; then
        sed -n '/^<!-- end of generated part -->$/,$p' "$f" | tail -n +2
      else
        printf '\n## How it works\n\n(Written by hand: the algorithm, its limits, its tests.)\n'
      fi
    } > "$f.new"
    mv "$f.new" "$f"
  done
}
regen "$root/docs/passes"
regen "$root/examples/prim-simplify/docs" \
  --load-pass-plugin="$bin/examples/prim-simplify/prim-simplify.so"
