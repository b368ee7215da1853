#!/usr/bin/env bash
# Compiles the GEMM cases of the GPU suite (run here; the GPU runs them with
# scripts/gpu-suite.sh TT_RUN gemm-cases): linear layers and matmuls at odd shapes (sizes
# that are not multiples of the tiles: M=3, N=1000, K=4100; M=1, N=8191; K=4104 and 1000,
# rows off a 32-byte sector), f16 and bf16,
# batched 3-D matmuls, fp8 (E4M3, E5M2, mixed) through prim.scaled_mm, every program-id order, explicit and
# automatic split-K, a [K, N] operand, a bias and an
# activation epilogue, two-stage (deterministic) split-K (_ts: the GPU suite also checks
# that repeated runs are bit-identical), and the K loop pipelined (--pipeline: 2 stages
# carried in registers unless named _pN; _sh: stages in shared-memory rings filled by
# cp.async; _tma: TMA rings, wgmma only; main_: the main job's path, tt-translate's own
# pipelining). Every other case is compiled twice: tile.dot on wgmma (sm_90a) and, named
# _sync, on mma.sync. Usage: scripts/make-gemm-cases.sh [OUTDIR] (default gemm-cases/).
set -euo pipefail
default_out=gemm-cases
source "$(dirname "$0")/caselib.sh"
gemm() { # name mlir-text tile-options splitk-options pipeline-options
  # each case twice: wgmma (tt-translate's choice for its default sm_90a) and mma.sync
  tt_ptx "$1" "$2" ${3:+--tile="$3"} --tile --splitk${4:+="$4"} --pipeline${5:+="$5"}
  TT_MMA=sync tt_ptx "$1_sync" "$2" ${3:+--tile="$3"} --tile --splitk${4:+="$4"} --pipeline${5:+="$5"}
}
matmul_kn() { # M N K dtype: a [M,K] @ b [K,N] (B read K-major: ldmatrix.trans)
  printf 'func.func @main(%%a: tensor<%sx%sx%s>, %%b: tensor<%sx%sx%s>) -> tensor<%sx%sx%s> {\n  %%c = "prim.matmul"(%%a, %%b) : (tensor<%sx%sx%s>, tensor<%sx%sx%s>) -> tensor<%sx%sx%s>\n  return %%c : tensor<%sx%sx%s>\n}\n' \
    $1 $3 $4 $3 $2 $4 $1 $2 $4 $1 $3 $4 $3 $2 $4 $1 $2 $4 $1 $2 $4
}
gemm linear_bias_3x1000x4100_f16 "$(linear 3 1000 4100 f16 1)"
gemm linear_bias_3x1000x4100_bf16 "$(linear 3 1000 4100 bf16 1)"
gemm linear_bias_3x1000x4100_f16_sk1 "$(linear 3 1000 4100 f16 1)" "" split-k=1
gemm linear_1x8191x4096_f16 "$(linear 1 8191 4096 f16 0)"
# rows TMA reads off a 32-byte sector (K = 4104, 1000) with an invariant weight: both
# padded to 128-byte rows, x's pad read in place by the dot kernel (a K pad); and a K pad
# written by hand
gemm linear_bias_7x1000x4104_bf16 "$(linear 7 1000 4104 bf16 1)"
gemm linear_33x3008x1000_f16 "$(linear 33 3008 1000 f16 0)"
gemm linear_3x4097x1000_bf16 "$(linear 3 4097 1000 bf16 0)"
gemm k_pad_batched_4x33x64x1000_f16 'func.func @main(%a: tensor<4x33x1000xf16>, %b: tensor<4x1024x64xf16>) -> tensor<4x33x64xf16> {
  %p = "prim.pad"(%a) {low = array<i64: 0, 0, 0>, high = array<i64: 0, 0, 24>, value = 0.0 : f64} : (tensor<4x33x1000xf16>) -> tensor<4x33x1024xf16>
  %y = "prim.matmul"(%p, %b) : (tensor<4x33x1024xf16>, tensor<4x1024x64xf16>) -> tensor<4x33x64xf16>
  return %y : tensor<4x33x64xf16>
}'
gemm k_pad_16x256x1000_bf16 'func.func @main(%a: tensor<16x1000xbf16>, %b: tensor<1024x256xbf16>) -> tensor<16x256xbf16> {
  %p = "prim.pad"(%a) {low = array<i64: 0, 0>, high = array<i64: 0, 24>, value = 0.0 : f64} : (tensor<16x1000xbf16>) -> tensor<16x1024xbf16>
  %y = "prim.matmul"(%p, %b) : (tensor<16x1024xbf16>, tensor<1024x256xbf16>) -> tensor<16x256xbf16>
  return %y : tensor<16x256xbf16>
}'
gemm linear_1x8191x4096_bf16_sk8 "$(linear 1 8191 4096 bf16 0)" "" split-k=8
gemm linear_16x8192x8192_f16 "$(linear 16 8192 8192 f16 0)"
gemm linear_16x8192x8192_f16_p1 "$(linear 16 8192 8192 f16 0)" "" "" num-stages=1
gemm linear_bias_3x1000x4100_f16_p3 "$(linear 3 1000 4100 f16 1)" "block-k=64" "" num-stages=3
gemm linear_bias_3x1000x4100_f16_p3_sh "$(linear 3 1000 4100 f16 1)" "block-k=64" "" "num-stages=3 stage-in=shared"
gemm linear_16x8192x8192_f16_sh "$(linear 16 8192 8192 f16 0)" "block-k=128" "" stage-in=shared
gemm linear_1x8191x4096_f16_p4_sh "$(linear 1 8191 4096 f16 0)" "block-n=32 block-k=64 num-warps=2" "" "num-stages=4 stage-in=shared"
gemm matmul_kn_5x1000x333_bf16_p3_sh "$(matmul_kn 5 1000 333 bf16)" "block-k=64" "" "num-stages=3 stage-in=shared"
gemm linear_silu_16x1024x2048_bf16 "$(linear 16 1024 2048 bf16 1 silu)"
gemm linear_3d_2x3x512x256_f16 "$(linear 6 256 512 f16 1)"
# fp8 (prim.scaled_mm, per-tensor scales): E4M3 and E5M2, mixed, f16/bf16/f32 outputs,
# odd shapes, a bias, explicit split-k, and every program-id order
e4=f8E4M3FN; e5=f8E5M2
gemm fp8_bias_3x1000x4100_e4m3_f16 "$(scaled_linear 3 1000 4100 $e4 $e4 f16 1)"
gemm fp8_1x8191x4096_e5m2_bf16 "$(scaled_linear 1 8191 4096 $e5 $e5 bf16 0)"
gemm fp8_5x1000x333_e4m3xe5m2_f32 "$(scaled_linear 5 1000 333 $e4 $e5 f32 0)" "" split-k=1
gemm fp8_16x8192x8192_e4m3_f16 "$(scaled_linear 16 8192 8192 $e4 $e4 f16 0)"
gemm fp8_1x8191x4096_e4m3_f16_sk8 "$(scaled_linear 1 8191 4096 $e4 $e4 f16 0)" "" split-k=8
# batched 3-D matmuls (grid axis 2): a [B, K, N] and a transposed [B, N, K] operand, a bias
gemm bmm_3x5x70x100_f16 "$(bmm 3 5 70 100 f16 0)"
gemm bmm_4x33x200x300_bf16_t "$(bmm 4 33 200 300 bf16 1)"
gemm bmm_2x16x1000x4100_f16_t_sk4 "$(bmm 2 16 1000 4100 f16 1)" "" split-k=4
# batched with tma-batched=0 (operands staged through registers; the TMA form of the
# same shapes is under gemm_tma below)
gemm bmm_3x100x200x72_f16_t_regs "$(bmm 3 100 200 72 f16 1)" tma-batched=0
gemm bmm_4x300x64x1024_f16_regs_sk2 "$(bmm 4 300 64 1024 f16 0 0)" tma-batched=0 split-k=2
# two-stage split-K: partial tiles to a workspace, then a reduce kernel with the epilogue
# (an activation too, which atomics cannot take)
gemm linear_silu_3x1000x4100_f16_ts4 "$(linear 3 1000 4100 f16 1 silu)" "" "split-k=4 reduce=two-stage"
# --tile's k-stagger under split-K slices of unequal length (K = 1000 in steps of 256:
# slices of 2 steps, the last one empty), atomic and two-stage
gemm linear_bias_5x3000x1000_f16_stagger_sk3 "$(linear 5 3000 1000 f16 1)" "k-stagger=37" split-k=3
gemm linear_bias_5x3000x1000_f16_stagger_ts3 "$(linear 5 3000 1000 f16 1)" "k-stagger=37" "split-k=3 reduce=two-stage"
gemm linear_bias_16x4096x8192_bf16_ts "$(linear 16 4096 8192 bf16 1)" "" "reduce=two-stage"
gemm fp8_bias_3x1000x4100_e4m3_bf16_ts8 "$(scaled_linear 3 1000 4100 $e4 $e4 bf16 1)" "" "split-k=8 reduce=two-stage"
gemm bmm_2x16x1000x4100_f16_t_ts4 "$(bmm 2 16 1000 4100 f16 1)" "" "split-k=4 reduce=two-stage"
# TMA (--pipeline stage-in=tma, sm_90a): operand boxes into swizzled rings on mbarriers,
# wgmma on the slots; edges (M = 3, N = 1000, K = 4104) read as zeros; a [K, N] operand,
# bf16, split-K both ways. wgmma only (mma.sync cannot read the swizzled slots).
gemm_tma() { # name mlir-text tile-options splitk-options pipeline-options
  tt_ptx "$1" "$2" ${3:+--tile="$3"} --tile --splitk${4:+="$4"} --pipeline="stage-in=tma${5:+ $5}"
}
gemm_tma linear_16x8192x8192_f16_tma "$(linear 16 8192 8192 f16 0)" "block-k=128"
gemm_tma linear_bias_3x1000x4104_f16_tma3 "$(linear 3 1000 4104 f16 1)" "block-k=128" "" "num-stages=3"
gemm_tma linear_silu_16x1000x4104_bf16_tma_ts4 "$(linear 16 1000 4104 bf16 1 silu)" "block-k=128" "split-k=4 reduce=two-stage"
gemm_tma matmul_kn_5x1000x512_bf16_tma_sk2 "$(matmul_kn 5 1000 512 bf16)" "block-k=64" "split-k=2" "num-stages=4"
gemm_tma linear_128x3000x1024_f16_tma "$(linear 128 3000 1024 f16 0)" "block-m=128 block-n=64 block-k=64 num-warps=4" "split-k=1"
# batched on TMA boxes of the batches' rows stacked (tma-batched, the default): M and N
# tails (a tile's rows past M or N read the next batch's, which reach only masked rows and
# columns of C), K = 72 (the [B*N, K] view reads zeros past K), a [B, K, N] operand
# (K = 128: steps within one batch), no bias, bf16, split-K, attention-score sizes; and
# [B, K, N] operands whose K no K step divides (200, 72, 1000): batched boxes (rank-3
# tensor maps, metadata format 8), so a step's rows past K read zeros, not the next batch
gemm_tma bmm_3x100x200x72_f16_t_tmab "$(bmm 3 100 200 72 f16 1)"
gemm_tma bmm_5x33x200x128_bf16_tmab "$(bmm 5 33 200 128 bf16 0)"
gemm_tma bmm_4x300x64x1024_f16_tmab_sk2 "$(bmm 4 300 64 1024 f16 0 0)" "" split-k=2
gemm_tma bmm_12x200x200x64_bf16_t_tmab "$(bmm 12 200 200 64 bf16 1 0)"
gemm_tma bmm_3x100x64x200_f16_k3d "$(bmm 3 100 64 200 f16 0)"
gemm_tma bmm_5x33x128x72_bf16_k3d "$(bmm 5 33 128 72 bf16 0)"
gemm_tma bmm_12x1000x64x1000_f16_k3d "$(bmm 12 1000 64 1000 f16 0 0)"
gemm_tma bmm_4x64x128x1000_f16_k3d_sk2 "$(bmm 4 64 128 1000 f16 0 0)" "" split-k=2
gemm_tma bmm_4x64x128x1000_f16_k3d_ts2 "$(bmm 4 64 128 1000 f16 0)" "" "split-k=2 reduce=two-stage"
# fp8 on TMA: e4m3/e5m2 boxes of 128 bytes a row, fp8 wgmma on the slots (K-major both),
# K = 4112 (not a multiple of the K step: the last boxes read zeros), mixed formats
gemm_tma fp8_3x1000x4112_e4m3xe5m2_bf16_tma "$(scaled_linear 3 1000 4112 $e4 $e5 bf16 1)"
gemm_tma fp8_16x8192x8192_e4m3_f16_tma "$(scaled_linear 16 8192 8192 $e4 $e4 f16 0)"
gemm_tma fp8_1x8191x4096_e5m2_f16_tma_ts4 "$(scaled_linear 1 8191 4096 $e5 $e5 f16 0)" "" "split-k=4 reduce=two-stage"
# the main job's path (tt-opt --fuse --splitk | tt-translate): tt-translate pipelines the
# K loop (on sm_90a TMA where it qualifies); 128-row tiles past 48 KiB, 128x256x64 tiles
# past four waves, and the _sync twins run them on mma.sync (staging in dynamic shared
# memory)
# wgmma in flight across K steps (--pipeline wgmma-in-flight=1, forced where the default
# would not take it): odd shapes, bias, split-k atomics and two-stage, an activation,
# 8 warps (two warpgroups), 2 stages and a K loop shorter than the stages
fl="wgmma-in-flight=1"
gemm_tma linear_bias_3x1000x4104_f16_fl "$(linear 3 1000 4104 f16 1)" "block-k=128" "" "$fl"
gemm_tma linear_bias_130x1000x4104_bf16_fl_sk3 "$(linear 130 1000 4104 bf16 1)" "block-m=64 block-n=128 block-k=64" "split-k=3" "$fl"
gemm_tma linear_silu_70x1000x4104_f16_fl_ts2 "$(linear 70 1000 4104 f16 1 silu)" "block-m=64 block-n=128 block-k=128" "split-k=2 reduce=two-stage" "$fl"
gemm_tma linear_200x3000x1032_f16_fl_w8 "$(linear 200 3000 1032 f16 0)" "block-m=128 block-n=256 block-k=64 num-warps=8" "split-k=1" "$fl"
gemm_tma linear_1x8191x4096_bf16_fl_p2 "$(linear 1 8191 4096 bf16 0)" "block-n=128 block-k=64" "split-k=1" "num-stages=2 $fl"
gemm_tma linear_33x500x200_f16_fl_p4 "$(linear 33 500 200 f16 1)" "block-m=64 block-k=64" "split-k=1" "num-stages=4 $fl"
main() { # name mlir-text
  tt_ptx "$1" "$2" --splitk
  TT_MMA=sync tt_ptx "$1_sync" "$2" --splitk
}
main main_16x8192x8192_f16 "$(linear 16 8192 8192 f16 0)"
main main_128x10240x1032_bf16 "$(linear 128 10240 1032 bf16 1)"
main main_2304x4096x264_f16 "$(linear 2304 4096 264 f16 0)"
main main_fp8_64x8192x4112_e4m3_f16 "$(scaled_linear 64 8192 4112 $e4 $e4 f16 0)"
main main_fp8_256x10240x1040_e4m3_bf16 "$(scaled_linear 256 10240 1040 $e4 $e4 bf16 1)"
# past one wave (157 programs of 64x128): K steps of 64 so that two blocks share an SM;
# fp8 on one wave (80 programs of 16x128): K steps of 256 (a K tail of 16)
main main_40x20000x1000_f16 "$(linear 40 20000 1000 f16 1 silu)"
main main_fp8_5x10240x4112_e4m3_f16 "$(scaled_linear 5 10240 4112 $e4 $e4 f16 1)"
# up to 32 rows where 256-column tiles make one wave and 128-column ones do not (N =
# 28672, 112 programs; a last tile of 80 columns at N = 28624): 256 columns
main main_7x28624x1040_f16 "$(linear 7 28624 1040 f16 1)"
main main_fp8_3x28672x1024_e4m3_f16 "$(scaled_linear 3 28672 1024 $e4 $e4 f16 1)"
main main_fp8_16x1000x4112_e4m3_f16 "$(scaled_linear 16 1000 4112 $e4 $e4 f16 1)"
# x read in place past an odd K pad, copied once a program into swizzled shared memory
# (--pipeline's resident form): the defaults (f16 8-byte rows, fp8 4-byte rows), rows of
# 1 byte lane by lane (fp8 K = 3001, forced in place), the streamed form (resident=2)
main main_resident_7x1000x4100_f16 "$(linear 7 1000 4100 f16 1)"
main main_resident_fp8_7x1000x4100_e4m3_bf16 "$(scaled_linear 7 1000 4100 $e4 $e4 bf16 1)"
TT_FUSE=k-pad=in-place main main_resident_fp8_33x1000x3001_e5m2_f16 "$(scaled_linear 33 1000 3001 $e5 $e5 f16 1)"
TT_FUSE=k-pad=in-place tt_ptx linear_stream_16x1000x4100_f16 "$(linear 16 1000 4100 f16 1)" \
  --tile --splitk --pipeline="stage-in=tma resident=2"
# the default geometries of M = 32..128 (narrow and wide grids)
gemm linear_32x1000x4100_f16 "$(linear 32 1000 4100 f16 1)"
gemm linear_128x3000x1000_bf16 "$(linear 128 3000 1000 bf16 0)"
gemm fp8_32x28672x4096_e4m3_f16 "$(scaled_linear 32 28672 4096 $e4 $e4 f16 0)"
gemm fp8_1x20000x1000_e5m2_f16 "$(scaled_linear 1 20000 1000 $e5 $e5 f16 0)"
# every program-id order in every operand dtype (a 5 x 9 grid of 64 x 64 tiles, groups of 2)
for order in row-major grouped column-major; do
  tiles="block-m=64 block-n=64 block-k=64 order=$order group-m=2"
  gemm "linear_300x520x1000_f16_$order" "$(linear 300 520 1000 f16 1)" "$tiles" split-k=1
  gemm "linear_300x520x1000_bf16_$order" "$(linear 300 520 1000 bf16 1)" "$tiles" split-k=1
  gemm "fp8_300x520x1000_e4m3_f16_$order" "$(scaled_linear 300 520 1000 $e4 $e4 f16 1)" "$tiles" split-k=1
  gemm "fp8_300x520x1000_e5m2_bf16_$order" "$(scaled_linear 300 520 1000 $e5 $e5 bf16 1)" "$tiles" split-k=1
done
gemm linear_300x520x1000_f16_128x64 "$(linear 300 520 1000 f16 0)" "block-m=128 block-n=64 block-k=32 num-warps=8" split-k=2
# wgmma's direct form (64-row tiles whose columns are not a multiple of 64): --tile's
# spread rule (N = 10240 on 80 columns: 128 programs, or 256 for f16 M > 64 - here with a
# bias, a K tail and a last partial tile), and explicit tiles: 48 columns with a tail of
# 40, two warpgroups, bf16 staged through registers (no TMA), fp8 with split-k 2
main main_fp8_64x10240x4112_e4m3_f16 "$(scaled_linear 64 10240 4112 $e4 $e4 f16 1)"
main main_128x10000x1032_f16 "$(linear 128 10000 1032 f16 1)"
gemm linear_61x1000x4104_f16_n48 "$(linear 61 1000 4104 f16 1)" "block-m=64 block-n=48"
gemm linear_128x1000x1032_f16_m128n80 "$(linear 128 1000 1032 f16 0)" "block-m=128 block-n=80 block-k=128 num-warps=8"
gemm linear_64x1000x4104_bf16_n80_tma0 "$(linear 64 1000 4104 bf16 1)" "block-m=64 block-n=80 num-warps=4 tma=0"
gemm fp8_64x1000x4096_e4m3_f16_n80_sk2 "$(scaled_linear 64 1000 4096 $e4 $e4 f16 1)" "block-m=64 block-n=80" split-k=2
# fp8 past 64 rows: the spread rule on 128-row tiles of 8 warps (direct form, two
# warpgroups): 80 columns at N = 9990 (125 programs, a last tile of 70) and 64 at N = 8191
# (a last tile of 63), K tails of 16 after K steps of 256
main main_fp8_100x9990x4112_e4m3_f16 "$(scaled_linear 100 9990 4112 $e4 $e4 f16 1)"
main main_fp8_128x8191x4112_e4m3_bf16 "$(scaled_linear 128 8191 4112 $e4 $e4 bf16 0)"
gemm matmul_kn_64x256x512_f16 "$(matmul_kn 64 256 512 f16)"
gemm matmul_kn_5x1000x333_bf16 "$(matmul_kn 5 1000 333 bf16)"
# tile rows fitted to M (--tile step 0's fitRows: 144 and 160 rows, not a power of two; the
# last tile row partial), fp8 with the producer warp and, by option, a producer warpgroup
# giving its registers to the consumers (setmaxnreg); bf16 with a fused bias at odd N
main main_fp8_257x6144x4096_e4m3_f16 "$(scaled_linear 257 6144 4096 $e4 $e4 f16 0)"
main main_fp8_600x4096x4096_e4m3_bf16 "$(scaled_linear 600 4096 4096 $e4 $e4 bf16 1)"
tt_ptx fp8_600x4096x4096_e4m3_bf16_ws2 "$(scaled_linear 600 4096 4096 $e4 $e4 bf16 1)" --splitk \
  --pipeline='stage-in=tma warp-specialize=2' # (wgmma only: fp8 TMA slots)
main main_145x3001x8192_bf16 "$(linear 145 3001 8192 bf16 1)"
main main_257x6144x4096_f16 "$(linear 257 6144 4096 f16 0)"
ls "$out" | wc -l
