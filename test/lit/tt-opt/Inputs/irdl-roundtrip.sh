#!/usr/bin/env bash
# irdl-roundtrip.sh TT_OPT MLIR_OPT TMPDIR EXAMPLES_DIR: every example at every level of tt
# IR (prim; fused; tile kernels, hopper ops included; gpu) goes through upstream mlir-opt
# with tt-opt --emit-irdl's file, and back through tt-opt: the text must be the same,
# locations included. Prints one line per case; exits 1 on the first difference.
set -euo pipefail
tt_opt=$1 mlir_opt=$2 tmp=$3 examples=$4
mkdir -p "$tmp"
"$tt_opt" --emit-irdl -o "$tmp/tt.irdl.mlir"
levels=("prim:"
        "fused:--decompose --fuse"
        "tile:--decompose --fuse --splitk --tile --pipeline=stage-in=auto --pdl"
        "gpu:--decompose --fuse --splitk --tile --pipeline=stage-in=auto --pdl --convert-tile-to-gpu=mma=wgmma")
for ex in "$examples"/*.mlir; do
  for level in "${levels[@]}"; do
    name=${level%%:*} flags=${level#*:}
    # shellcheck disable=SC2086 # the flags are words
    "$tt_opt" $flags "$ex" -o "$tmp/a.mlir"
    "$mlir_opt" --irdl-file="$tmp/tt.irdl.mlir" --mlir-print-debuginfo "$tmp/a.mlir" -o "$tmp/b.mlir"
    "$tt_opt" "$tmp/b.mlir" -o "$tmp/c.mlir"
    if ! cmp -s "$tmp/a.mlir" "$tmp/c.mlir"; then
      echo "DIFFERS: $(basename "$ex") at $name"
      diff "$tmp/a.mlir" "$tmp/c.mlir" | head -20
      exit 1
    fi
    echo "round trip: $(basename "$ex") $name"
  done
done
