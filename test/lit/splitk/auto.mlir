// --splitk reduce=auto (the default) with a linear epilogue (step 2c): last-slice where the
// tile has at most 16 rows and the split is 4 or more (the zero kernel it saves is a fixed
// cost; the last slice's sum of S small partial tiles is cheap), else atomics. An
// activation's epilogue: activation.mlir.
// RUN: tt-opt %s --split-input-file --decompose --fuse --splitk --mlir-print-debuginfo=false | FileCheck %s
// RUN: tt-opt %s --split-input-file --decompose --fuse --splitk=reduce=atomic --mlir-print-debuginfo=false | FileCheck %s --check-prefix=ATOMIC

// 16 x 64 tiles, 16 programs, S = 8: one launch, the workspace and its counters.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=16 block-n=64
// CHECK-SAME: tile.split_k = 8
// CHECK: "tile.arrive"
// CHECK: tile.launch = {args = [], counters, grid = ["16", "8", "1"], kernel = @fused_0_kernel, workspace = 8 : i32}
// ATOMIC: tile.launch = {args = [], grid = ["16", "8", "1"], kernel = @fused_0_kernel, zero_result}
func.func @decode(%x: tensor<16x4096xf16>, %w: tensor<1024x4096xf16>) -> tensor<16x1024xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x4096xf16>, tensor<1024x4096xf16>) -> tensor<16x1024xf16>
  return %y : tensor<16x1024xf16>
}

// -----

// 64-row tiles at S = 8: atomics (the last slice would sum 8 partial 64 x 64 tiles).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=64 block-n=64
// CHECK-NOT: tile.arrive
// CHECK: tile.launch = {args = [], grid = ["16", "8", "1"], kernel = @fused_0_kernel, zero_result}
func.func @rows64(%x: tensor<64x4096xf16>, %w: tensor<1024x4096xf16>) -> tensor<64x1024xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<64x4096xf16>, tensor<1024x4096xf16>) -> tensor<64x1024xf16>
  return %y : tensor<64x1024xf16>
}

// -----

// 16-row tiles at S = 2 (64 programs): atomics.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=16 block-n=64
// CHECK-NOT: tile.arrive
// CHECK: tile.launch = {args = [], grid = ["64", "2", "1"], kernel = @fused_0_kernel, zero_result}
func.func @split2(%x: tensor<16x4096xf16>, %w: tensor<4096x4096xf16>) -> tensor<16x4096xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x4096xf16>, tensor<4096x4096xf16>) -> tensor<16x4096xf16>
  return %y : tensor<16x4096xf16>
}
