// --splitk reduce=auto (the default) with a linear epilogue (step 2c): last-slice where the
// tile has at most 16 rows and the split is 4 or more (the zero kernel it saves is a fixed
// cost; the last slice's sum of S small partial tiles is cheap), else atomics. An
// activation's epilogue: activation.mlir.
// RUN: tt-opt %s --split-input-file --decompose --fuse --splitk=cluster=1 --mlir-print-debuginfo=false | FileCheck %s
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

// -----

// A bias under last-slice (16-row tiles, S = 8): the last slice adds it once, after the
// sum of the slices (no select on pid_k: that is atomics' form).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: arith.select
// CHECK: "tile.arrive"
// CHECK: scf.if
// CHECK: scf.for
// CHECK: arith.addf
// CHECK: "tile.store"(%arg3
// CHECK: tile.launch = {args = [], counters, grid = ["16", "8", "1"], kernel = @fused_0_kernel, workspace = 8 : i32}
func.func @bias(%x: tensor<16x4096xf16>, %w: tensor<1024x4096xf16>, %b: tensor<1024xf16>) -> tensor<16x1024xf16> {
  %y = "prim.linear"(%x, %w, %b) : (tensor<16x4096xf16>, tensor<1024x4096xf16>, tensor<1024xf16>) -> tensor<16x1024xf16>
  return %y : tensor<16x1024xf16>
}

// -----

// An activation: last-slice, from split-k=0 (S = 8) and from an explicit split-k=4 with
// the default reduce (reduce=atomic refuses that: invalid.mlir). With split-k=4 the file's
// linear chunks take the step 2c rule as well: 16-row tiles last-slice, 64-row atomics.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.arrive"
// CHECK: math.exp2
// CHECK: tile.launch = {args = [], counters, grid = ["16", "8", "1"], kernel = @fused_0_kernel, workspace = 8 : i32}
// RUN: tt-opt %s --split-input-file --decompose --fuse --splitk='split-k=4 cluster=1' --mlir-print-debuginfo=false | FileCheck %s --check-prefix=EXPLICIT
// EXPLICIT: tile.launch = {args = [], counters, grid = ["16", "4", "1"]
// EXPLICIT: tile.launch = {args = [], grid = ["16", "4", "1"], kernel = @fused_0_kernel, zero_result}
// EXPLICIT: tile.launch = {args = [], counters, grid = ["64", "4", "1"]
// EXPLICIT: tile.launch = {args = [], counters, grid = ["16", "4", "1"]
// EXPLICIT: tile.launch = {args = [], counters, grid = ["16", "4", "1"], kernel = @fused_0_kernel, workspace = 4 : i32}
func.func @gelu(%x: tensor<16x4096xf16>, %w: tensor<1024x4096xf16>) -> tensor<16x1024xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x4096xf16>, tensor<1024x4096xf16>) -> tensor<16x1024xf16>
  %z = "prim.gelu"(%y) {approximate = "tanh"} : (tensor<16x1024xf16>) -> tensor<16x1024xf16>
  return %z : tensor<16x1024xf16>
}
