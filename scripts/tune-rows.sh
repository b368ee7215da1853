#!/usr/bin/env bash
# Row-kernel geometry sweep: compiles row examples (bf16) at the benchmark shapes with
# several --tile block-size/num-warps choices (and the default) into OUTDIR (default
# gpu-tune/) as OP_SHAPE_VARIANT.ptx. On the device, time them (no reference check) with
#   for f in gpu-tune/*.ptx; do tt-run --no-check --runs 30 "$f" | grep '^time'; done
# The defaults of --tile (passes/tile/geometry-rows.c, tileRowGeometry) are chosen from such sweeps.
set -euo pipefail
default_out=gpu-tune
source "$(dirname "$0")/caselib.sh"
# SHAPE:OP:VARIANT... (default = the pass's own choice, bBLOCKwWARPS = --tile options)
cases="8192x8192:softmax:default:b8192w16:b4096w32
8192x8192:layer_norm:default:b4096w8
4096x32768:softmax:default:b32768w16:b32768w32
4096x32768:log_softmax:default:b32768w16
4096x32768:layer_norm:default:b32768w32
4096x32768:rms_norm:default:b32768w16
4096x32768:residual_rms_norm:default:b32768w16
2048x65536:softmax:default:b32768w32:b8192w16
2048x65536:layer_norm:default:b32768w32
2048x65536:rms_norm:default:b32768w32"
for c in $cases; do
  IFS=: read -r shape ex vs <<<"$c"
  m=${shape%x*}; n=${shape#*x}
  for v in ${vs//:/ }; do
    opt=
    if [ "$v" != default ]; then b=${v#b}; b=${b%w*}; w=${v#*w}; opt="block-size=$b num-warps=$w"; fi
    compile "$ex" "${shape}_$v" "$(rows "$ex" "$m" "$n")" "$opt"
  done
done
ls "$out" | wc -l
