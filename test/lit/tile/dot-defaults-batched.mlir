// --tile's defaults for batched (3-D) matmuls on TMA boxes and the bounds that follow the
// rule tables (bench/geometry-rules.md; the sweep: bench/2026-11-26-h200-bmm-tune.md):
// one wave is counted over every batch's programs, 64-row tiles where N <= 64 and
// 128-row ones give under two programs an SM, a shallow K (<= 256) keeps 128 x 128
// tiles on one warpgroup instead of the big grid's 128 x 256 on 8 warps, a tile is no
// wider than N and a K step no deeper than K; --pipeline runs no more TMA stages than the
// K loop has steps (at least 2).
// RUN: tt-opt %s --split-input-file --decompose --fuse --tile --splitk --pipeline='stage-in=auto' | FileCheck %s

// Attention scores 32 x 1024 x 1024 x 128 (K read transposed): 2048 programs of 128 x 128,
// K = 128 shallow: 128x128x64 on 4 warps, 2 K steps so 2 stages.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=128 block-n=128 block-k=64 num-warps=4 k-stagger=0"
// CHECK-SAME: tile.num_stages = 2
// CHECK: mma = "wgmma"
func.func @scores(%q: tensor<32x1024x128xf16>, %k: tensor<32x1024x128xf16>) -> tensor<32x1024x1024xf16> {
  %kt = "prim.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<32x1024x128xf16>) -> tensor<32x128x1024xf16>
  %s = "prim.matmul"(%q, %kt) : (tensor<32x1024x128xf16>, tensor<32x128x1024xf16>) -> tensor<32x1024x1024xf16>
  return %s : tensor<32x1024x1024xf16>
}

// -----

// K = 64: the K step is one 128-byte row (64 f16), one step, still 2 stages.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=128 block-n=128 block-k=64 num-warps=4 k-stagger=0"
// CHECK-SAME: tile.num_stages = 2
func.func @scores_k64(%q: tensor<12x1000x64xf16>, %k: tensor<12x1000x64xf16>) -> tensor<12x1000x1000xf16> {
  %kt = "prim.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<12x1000x64xf16>) -> tensor<12x64x1000xf16>
  %s = "prim.matmul"(%q, %kt) : (tensor<12x1000x64xf16>, tensor<12x64x1000xf16>) -> tensor<12x1000x1000xf16>
  return %s : tensor<12x1000x1000xf16>
}

// -----

// P @ V at N = 64 (V [B, K, N]): no wider than N (64 columns); 128-row tiles would give
// 32 x 8 = 256 programs, under two an SM, so 64-row tiles (batchedNarrowUnderTwoPerSm);
// K = 1024 deep: 3 stages.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=64 block-n=64 block-k=
// CHECK-SAME: tile.num_stages = 3
func.func @pv(%p: tensor<32x1024x1024xf16>, %v: tensor<32x1024x64xf16>) -> tensor<32x1024x64xf16> {
  %o = "prim.matmul"(%p, %v) : (tensor<32x1024x1024xf16>, tensor<32x1024x64xf16>) -> tensor<32x1024x64xf16>
  return %o : tensor<32x1024x64xf16>
}

// -----

// The same at 64 heads: 64 x 8 = 512 programs of 128 rows fill two an SM, so 128-row
// tiles stay.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=128 block-n=64 block-k=
func.func @pv_many_heads(%p: tensor<64x1024x1024xf16>, %v: tensor<64x1024x64xf16>) -> tensor<64x1024x64xf16> {
  %o = "prim.matmul"(%p, %v) : (tensor<64x1024x1024xf16>, tensor<64x1024x64xf16>) -> tensor<64x1024x64xf16>
  return %o : tensor<64x1024x64xf16>
}

// -----

// P @ V at N = 128 under two programs an SM keeps 128-row tiles: 64 x 128 tiles lost
// there (bench/2026-11-27-h200-bmm-rows64.md).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=128 block-n=128 block-k=
func.func @pv_n128(%p: tensor<16x2048x2048xf16>, %v: tensor<16x2048x128xf16>) -> tensor<16x2048x128xf16> {
  %o = "prim.matmul"(%p, %v) : (tensor<16x2048x2048xf16>, tensor<16x2048x128xf16>) -> tensor<16x2048x128xf16>
  return %o : tensor<16x2048x128xf16>
}

// -----

// A [B, K, N] operand with K < 64: a K step (one 128-byte row at least) would pass K, so
// the operands are staged through registers (no boxes, no TMA rings).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: tile.box
// CHECK-NOT: hopper.tma_load
// CHECK: return
func.func @pv_k32(%p: tensor<8x64x32xf16>, %v: tensor<8x32x128xf16>) -> tensor<8x64x128xf16> {
  %o = "prim.matmul"(%p, %v) : (tensor<8x64x32xf16>, tensor<8x32x128xf16>) -> tensor<8x64x128xf16>
  return %o : tensor<8x64x128xf16>
}

// -----

// 2-D, K = 128 past 4 waves of 128 x 128 tiles: shallow, so not the big grid's 128 x 256.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=128 block-n=128 block-k=64 num-warps=4 k-stagger=0"
// CHECK-SAME: tile.num_stages = 2
func.func @shallow_2d(%x: tensor<4096x128xf16>, %w: tensor<8192x128xf16>) -> tensor<4096x8192xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<4096x128xf16>, tensor<8192x128xf16>) -> tensor<4096x8192xf16>
  return %y : tensor<4096x8192xf16>
}
