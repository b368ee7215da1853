// --pipeline's TMA stages on a grid of one program an SM (forms.c, ONE_SM_INFLIGHT_BYTES):
// tiles of 64 rows or more take at least the stages that keep 96 KB loading besides the
// slots their dots read (one; two where a wgmma stays in flight and a program walks at
// least 4 turns of the ring over K), where the caps (3 under
// 7/8 of the SMs, else 4) leave fewer. f16 128 x 3584 x 3584 on 64 x 64 x 128 tiles: 112
// programs (under 7/8 of 132 SMs), 32 KB slots, a wgmma in flight: 5 stages, not 3. fp8 on
// 64 x 64 x 256 tiles (32 KB slots, no wgmma in flight): 4. A decode tile (16 rows) keeps
// the cap; 64 x 256 x 64 tiles (40 KB slots) keep 3 (auto.mlir's FEW).
// RUN: tt-opt %s --split-input-file --decompose --fuse --splitk --pipeline='stage-in=auto' --mlir-print-debuginfo=false | FileCheck %s

// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=64 block-n=64 block-k=128
// CHECK-SAME: tile.num_stages = 5
// CHECK: "tile.local_alloc"() : () -> memref<5x64x128xf16, 3>
// CHECK: tile.launch = {args = [], grid = ["112", "1", "1"]
func.func @m128(%x: tensor<128x3584xf16>, %w: tensor<3584x3584xf16> {tt.invariant}) -> tensor<128x3584xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<128x3584xf16>, tensor<3584x3584xf16>) -> tensor<128x3584xf16>
  return %y : tensor<128x3584xf16>
}

// -----

// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=64 block-n=64 block-k=256
// CHECK-SAME: tile.num_stages = 4
// CHECK: "tile.local_alloc"() : () -> memref<4x64x256xf8E4M3FN, 3>
// CHECK: tile.launch = {args = [], grid = ["112", "1", "1"]
func.func @fp8(%x: tensor<128x3584xf8E4M3FN>, %w: tensor<3584x3584xf8E4M3FN> {tt.invariant}, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<128x3584xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<3584x3584xf8E4M3FN>) -> tensor<3584x3584xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<128x3584xf8E4M3FN>, tensor<3584x3584xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<128x3584xbf16>
  return %y : tensor<128x3584xbf16>
}

// -----

// Split 8 ways, a program walks 4 K steps (min(lb + 512, 4096)): under 4 turns of the
// ring, so no stage for the wgmma in flight (4, not 5).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=64 block-n=64 block-k=128
// CHECK-SAME: tile.num_stages = 4
// CHECK-SAME: tile.split_k = 8
func.func @short(%x: tensor<64x4096xf16>, %w: tensor<1024x4096xf16> {tt.invariant}) -> tensor<64x1024xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<64x4096xf16>, tensor<1024x4096xf16>) -> tensor<64x1024xf16>
  return %y : tensor<64x1024xf16>
}

// -----

// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=16
// CHECK-SAME: tile.num_stages = 3
func.func @m16(%x: tensor<16x3584xf16>, %w: tensor<3584x3584xf16> {tt.invariant}) -> tensor<16x3584xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x3584xf16>, tensor<3584x3584xf16>) -> tensor<16x3584xf16>
  return %y : tensor<16x3584xf16>
}
