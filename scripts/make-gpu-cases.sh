#!/usr/bin/env bash
# Compiles every example at the GPU suite's sizes into OUTDIR (default gpu-cases/).
# Elementwise examples (pow_sin_bf16: exact pow and sin for a bf16 result): 1, 1000, 2^20+3 and 8192x8192 elements. Row examples (softmax,
# log_softmax, layer_norm, rms_norm, residual + rms_norm; written at 8192x8192 bf16): rows
# that are not a multiple of the block (3x1000, 5x4097, 1x1), and the benchmark shapes
# 8192x8192, 4096x32768 and 1048576x128; long rows in the looped form (3x70001,
# 2048x65536, and 5x4097 with a 1024-element block); softmax also in f16; pre_norm (one
# kernel, two outputs) at 3x1000, 16x8192 and 8192x8192; rows split over clusters
# (300x70000, 512x131072); rows of an odd width (300x50257, staged and under stage-odd=0, and
# argmax over 4x50257). Examples are written at one
# size; the size is substituted textually. Runs on the build machine (it needs tt-opt and
# tt-translate); the device runs the PTX with scripts/gpu-suite.sh.
set -euo pipefail
default_out=gpu-cases
source "$(dirname "$0")/caselib.sh"
for s in 1 1000 1048579 8192x8192; do
  for ex in swiglu_f16 leaky_relu_f32 rounding_bf16 tanh_f16 pow_sin_bf16; do
    n=$s; [ "$s" = 8192x8192 ] && n=67108864
    compile "$ex" "$s" "$(sed "s/1048576/$n/g" "$root/examples/$ex.mlir")"
  done
  if [ "$s" = 8192x8192 ]; then m=8192; n=8192; else m=1; n=$s; fi
  compile bias_gelu "$s" "$(sed -e "s/8192x8192/${m}x${n}/g" -e "s/tensor<8192xbf16>/tensor<${n}xbf16>/g" \
    "$root/examples/bias_gelu.mlir")"
done
for shape in 3x1000 5x4097 1x1 8192x8192 4096x32768 1048576x128 3x70001 2048x65536; do
  m=${shape%x*}; n=${shape#*x}
  for ex in softmax log_softmax layer_norm rms_norm residual_rms_norm; do
    compile "$ex" "$shape" "$(rows "$ex" "$m" "$n")"
  done
done
# rows split over thread-block clusters (the looped form's rows in flight past L2): a
# masked last part (300 x 70000: 4 programs a row, the last one all masked), 4 programs a row
for shape in 300x70000 512x131072; do
  for ex in softmax residual_rms_norm; do
    compile "$ex" "$shape" "$(rows "$ex" "${shape%x*}" "${shape#*x}")"
  done
done
# the looped form's online softmax in f32 (three steps of one chunk; bf16's 3x70001 and
# 300x70000 take it too, two chunks a step)
for ex in softmax log_softmax; do
  compile "$ex" 5x70001_f32 "$(rows "$ex" 5 70001 | sed 's/bf16/f32/g')"
done
# the looped form with a block shorter than the row and a masked last chunk
for ex in softmax layer_norm; do
  compile "$ex" 5x4097_looped "$(rows "$ex" 5 4097)" "block-size=1024 num-warps=2"
done
# rows of an odd width past the on-chip limit (element-by-element loads, 8192-element
# looped blocks under --tile stage-odd=0): a vocabulary of 50257 (GPT-2) for softmax and
# greedy argmax; and the same rows staged through shared memory (the default)
compile softmax 300x50257_looped "$(rows softmax 300 50257)" "stage-odd=0"
compile rms_norm 300x50257_looped "$(rows rms_norm 300 50257)" "stage-odd=0"
compile softmax 300x50257 "$(rows softmax 300 50257)"
compile rms_norm 300x50257 "$(rows rms_norm 300 50257)"
compile argmax 4x50257 "$(sed -e 's/4x152064/4x50257/g' "$root/examples/greedy_argmax_bf16.mlir")"
# a program of two kernels (run with --graph by gpu-suite.sh)
for shape in 3x1000 16x8192 8192x8192; do
  compile pre_norm "$shape" "$(rows pre_norm "${shape%x*}" "${shape#*x}")"
done
compile softmax_f16 8192x8192 "$(sed 's/bf16/f16/g' "$root/examples/softmax_bf16.mlir")"
ls "$out" | wc -l
