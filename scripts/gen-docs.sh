#!/usr/bin/env bash
# Regenerates the generated docs from the definitions: docs/dialects/*.md (from the IRDL
# files) and the head of each docs/passes/*.md up to `<!-- end of generated part -->`
# (from the pass registry); the hand-written rest of each pass page is kept. The lit test
# test/lit/docs/generated.test fails when these are stale.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gen=${TT_BIN:-$root/build}/tt-docgen
for d in prim tile hopper; do
  "$gen" "$d" > "$root/docs/dialects/$d.md"
done
for f in "$root"/docs/passes/*.md; do
  p=$(basename "$f" .md)
  { "$gen" --pass "$p"; sed -n '/^<!-- end of generated part -->$/,$p' "$f" | tail -n +2; } > "$f.new"
  mv "$f.new" "$f"
done
