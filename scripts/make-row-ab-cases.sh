#!/usr/bin/env bash
# Compiles the A/B of a 0/1 --tile option of the row kernels (peel-last: rows.c, step 4c,
# chunk loops split into whole steps and the partial last; row-frame: step 3a, rows off
# 16-byte alignment in the aligned frame) into OUTDIR (default row-ab/):
#   OUTDIR/on/   OPTION=1;
#   OUTDIR/off/  OPTION=0, the same names;
# over rows of an odd width in every form: on chip (4097, 1001, 12289; short rows,
# several a program: 301, 3), staged (50257, 70001, 33333, 65537, 262147; f16, f32, a
# cluster's parts), looped (stage-odd=0), a dynamic M, argmax, log_softmax and var in
# f32, residual + rms_norm; aligned rows of a partial last chunk (50256, 70000), of
# whole chunks (65536, 98304, 4096: controls) and staged three blocks an SM (32768,
# 24576; 36001). OPTION bin=DIR compares two compilers instead: on/ from TT_BIN
# (default build/), off/ from DIR's tt-opt and tt-translate, both at the defaults. Pairs
# of the same PTX are dropped (nothing to time). Correctness: scripts/gpu-suite.sh
# TT_RUN OUTDIR/on; time: scripts/bench_row_variants.sh TT_RUN ROUNDS off=OUTDIR/off
# on=OUTDIR/on. Usage: scripts/make-row-ab-cases.sh OPTION [OUTDIR]
set -euo pipefail
opt=${1:?usage: make-row-ab-cases.sh OPTION [OUTDIR]}
shift
default_out=row-ab
source "$(dirname "$0")/caselib.sh"
base=$out
mkdir -p "$base/on" "$base/off"
rm -f "$base"/on/*.ptx "$base"/on/*.runs "$base"/off/*.ptx "$base"/off/*.runs
both() { # name tag mlir [more tile options]
  if [[ $opt == bin=* ]]; then
    local keep=$bin o=${4:-} # the option-free form of compile_ab, over two compilers
    out=$base/on; compile "$1" "$2" "$3" "$o"
    bin=${opt#bin=}; out=$base/off; compile "$1" "$2" "$3" "$o"
    bin=$keep; out=$base
  else
    compile_ab "$base/on" "$opt=1 ${4:-}" "$base/off" "$opt=0 ${4:-}" "$1" "$2" "$3"
  fi
}
for shape in 4096x4097 8192x1001 4096x12289 2048x50257 1000x70001 3000x33333 8x50257 \
  48x65537 4096x301 1000x3 2048x50256 1000x70000 4096x4096 2048x65536 512x98304; do
  for ex in softmax rms_norm layer_norm; do
    both "$ex" "$shape" "$(rows "$ex" "${shape%x*}" "${shape#*x}")"
  done
done
both log_softmax 2048x50257_f32 "$(f32rows log_softmax 2048 50257)"
both softmax 4096x4097_f32 "$(f32rows softmax 4096 4097)"
both softmax 1024x40000_f32 "$(f32rows softmax 1024 40000)"
both softmax 512x40001_f16 "$(rows softmax 512 40001 | sed 's/bf16/f16/g')"
both residual_rms_norm 2048x40003 "$(rows residual_rms_norm 2048 40003)"
both residual_rms_norm 2048x50000 "$(rows residual_rms_norm 2048 50000)"
both residual_rms_norm 4096x4097 "$(rows residual_rms_norm 4096 4097)"
both rms_norm 1x262147 "$(rows rms_norm 1 262147)"
for shape in 4096x32768 300x32768 2048x24576 1000x36001; do # staged, three blocks an SM
  for ex in rms_norm layer_norm; do
    both "$ex" "$shape" "$(rows "$ex" "${shape%x*}" "${shape#*x}")"
  done
done
both rms_norm 4096x32768_f16 "$(rows rms_norm 4096 32768 | sed 's/bf16/f16/g')"
both softmax 1000x70001_looped "$(rows softmax 1000 70001)" "stage-odd=0"
both rms_norm 2048x50257_looped "$(rows rms_norm 2048 50257)" "stage-odd=0"
both layer_norm 1000x70001_looped "$(rows layer_norm 1000 70001)" "stage-odd=0"
both layer_norm 1000x70000_looped "$(rows layer_norm 1000 70000)" "row-stage=0"
for m in 4 64; do
  both argmax "${m}x50257" "$(sed -e "s/4x152064/${m}x50257/g; s/tensor<4xi64>/tensor<${m}xi64>/g" \
    "$root/examples/greedy_argmax_bf16.mlir")"
done
both softmax dyn_50257 "$(dynrows softmax 50257)"
both rms_norm dyn_4097 "$(dynrows rms_norm 4097)"
for d in on off; do
  printf '%s\n' "--dim s0=1000" "--dim s0=3" > "$base/$d/softmax_dyn_50257.runs"
  printf '%s\n' "--dim s0=1001" "--dim s0=1" > "$base/$d/rms_norm_dyn_4097.runs"
done
both var 1000x70001_f32 'func.func @main(%x: tensor<1000x70001xf32>) -> tensor<1000xf32> {
  %s = "prim.var"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<1000x70001xf32>) -> tensor<1000xf32>
  return %s : tensor<1000xf32>
}'
for f in "$base"/on/*.ptx; do # the same PTX: nothing to time
  if cmp -s "$f" "$base/off/${f##*/}"; then rm -f "$f" "$base/off/${f##*/}" "${f%.ptx}.runs" "$base/off/$(basename "${f%.ptx}").runs"; fi
done
ls "$base/on" | grep -c '\.ptx$'
