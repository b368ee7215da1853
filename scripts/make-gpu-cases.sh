#!/usr/bin/env bash
# Compiles every example at the GPU suite's sizes into OUTDIR (default gpu-cases/):
# 1, 1000, 2^20+3 and 8192x8192 elements. Examples are written at one size; the size is
# substituted textually (2-D examples with a [N] bias take M x N = 1 x S, or 8192 x 8192).
# Runs on the build machine (it needs tt-opt and tt-translate); the device runs the PTX.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${TT_BIN:-$root/build}
out=${1:-$root/gpu-cases}
mkdir -p "$out"
rm -f "$out"/*.ptx
compile() { # name size-tag mlir-text
  printf '%s\n' "$3" | "$bin/tt-opt" --fuse --splitk | "$bin/tt-translate" --ptx -o "$out/$1_$2.ptx"
}
for s in 1 1000 1048579 8192x8192; do
  for ex in swiglu_f16 leaky_relu_f32 rounding_bf16 tanh_f16; do
    n=$s; [ "$s" = 8192x8192 ] && n=67108864
    compile "$ex" "$s" "$(sed "s/1048576/$n/g" "$root/examples/$ex.mlir")"
  done
  if [ "$s" = 8192x8192 ]; then m=8192; n=8192; else m=1; n=$s; fi
  compile bias_gelu "$s" "$(sed -e "s/8192x8192/${m}x${n}/g" -e "s/tensor<8192xbf16>/tensor<${n}xbf16>/g" \
    "$root/examples/bias_gelu.mlir")"
done
ls "$out"
