#!/usr/bin/env bash
# Compiles the check and the A/B of the staged row form with its last chunks in
# registers (--tile stage-regs: a row whose shared-memory form fits an SM once but not
# twice; passes/tile/rows.c 3'') into OUTDIR (default stage-regs/):
#   OUTDIR/chk/      correctness (scripts/gpu-suite.sh): whole chunks (softmax, log_softmax,
#                    layer_norm, rms_norm at 2048 x 65536; 61440), a partial last chunk in
#                    registers (softmax 2048 x 60000, f32 softmax 1024 x 30000), rows
#                    two blocks fit by shared memory alone (57344, 54000, f32 28000), f32
#                    layer_norm 1024 x 32768, fewer rows than SMs (log_softmax 64 x 65536),
#                    a dynamic M (softmax ? x 65536 at M = 1, 5, 1000), f16 softmax;
#   OUTDIR/def/, OUTDIR/noregs/   the timed set by the default rule and with stage-regs=0
#                    (the looped form those rows took before), same names:
#                    scripts/bench_row_variants.sh TT_RUN ROUNDS def=... noregs=...
#   OUTDIR/rl-def/, OUTDIR/rl-on/   staged rows with weights (norms) by default and with
#                    --pipeline=row-loads=1 (the output loop's weight loads a step ahead);
#                    chk/*_rl: the same option checked (staged, with registers, split
#                    over a cluster, a dynamic M)
# Usage: scripts/make-stage-regs-cases.sh [OUTDIR]
set -euo pipefail
default_out=stage-regs
source "$(dirname "$0")/caselib.sh"
base=$out
mkdir -p "$base/chk" "$base/def" "$base/noregs"
out=$base/chk
for ex in softmax log_softmax layer_norm rms_norm; do
  compile "$ex" 2048x65536 "$(rows $ex 2048 65536)"
done
compile layer_norm 2048x61440 "$(rows layer_norm 2048 61440)"
compile softmax 2048x60000 "$(rows softmax 2048 60000)"
compile softmax 2048x57344 "$(rows softmax 2048 57344)"
compile layer_norm 1000x54000 "$(rows layer_norm 1000 54000)"
compile softmax 512x28000_f32 "$(f32rows softmax 512 28000)"
compile softmax 1024x30000_f32 "$(f32rows softmax 1024 30000)"
compile layer_norm 1024x32768_f32 "$(f32rows layer_norm 1024 32768)"
compile log_softmax 64x65536 "$(rows log_softmax 64 65536)"
compile softmax 300x65536_f16 "$(rows softmax 300 65536 | sed 's/bf16/f16/g')"
compile softmax dynx65536 "$(dynrows softmax 65536)"
printf -- '--dim s0=1\n--dim s0=5\n--dim s0=1000\n' > "$out/softmax_dynx65536.runs"
# the timed set: NAME:SHAPE (f32 rows: NAME:SHAPE_f32)
set_="softmax:2048x65536 log_softmax:2048x65536 layer_norm:2048x65536 rms_norm:2048x65536
layer_norm:1000x65536 rms_norm:500x65536 softmax:132x65536 softmax:2048x61440
softmax:2048x60000 softmax:1024x30000_f32 layer_norm:1024x32768_f32 rms_norm:4096x61440"
for c in $set_; do
  ex=${c%%:*}; shape=${c#*:}; dims=${shape%_f32}; m=${dims%x*}; n=${dims#*x}
  src=$(rows "$ex" "$m" "$n"); [ "$shape" != "$dims" ] && src=$(f32rows "$ex" "$m" "$n")
  for v in def:"" noregs:stage-regs=0; do
    out=$base/${v%%:*}
    compile "$ex" "$shape" "$src" "${v#*:}"
  done
done
# --pipeline=row-loads=1 (after --tile, which tt-translate would run otherwise)
rowloads() { # name size-tag mlir-text
  printf '%s\n' "$3" | "$bin/tt-opt" --decompose --fuse --tile --pipeline=row-loads=1 --splitk |
    "$bin/tt-translate" --ptx -o "$out/$1_$2.ptx"
}
mkdir -p "$base/rl-def" "$base/rl-on"
out=$base/chk
rowloads layer_norm 4096x32768_rl "$(rows layer_norm 4096 32768)"
rowloads layer_norm 2048x65536_rl "$(rows layer_norm 2048 65536)"
rowloads rms_norm 37x32768_rl "$(rows rms_norm 37 32768)"
rowloads layer_norm 1000x40000_rl "$(rows layer_norm 1000 40000)"
rowloads rms_norm dynx32768_rl "$(dynrows rms_norm 32768)"
printf -- '--dim s0=1\n--dim s0=7\n--dim s0=1000\n' > "$out/rms_norm_dynx32768_rl.runs"
for c in layer_norm:4096x32768 rms_norm:4096x32768 layer_norm:1000x40000 rms_norm:300x32768 \
         layer_norm:2048x65536 layer_norm:1000x65536 residual_rms_norm:2048x65536; do
  ex=${c%%:*}; shape=${c#*:}; src=$(rows "$ex" "${shape%x*}" "${shape#*x}")
  out=$base/rl-def; compile "$ex" "$shape" "$src"
  out=$base/rl-on; rowloads "$ex" "$shape" "$src"
done
out=$base
ls "$base"/chk/*.ptx | wc -l
