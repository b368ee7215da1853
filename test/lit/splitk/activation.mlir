// RUN: tt-opt %s --split-input-file --decompose --fuse --splitk=cluster=1 --mlir-print-debuginfo=false | FileCheck %s
// RUN: tt-opt %s --split-input-file --decompose --fuse --splitk=reduce=atomic --mlir-print-debuginfo=false | FileCheck %s --check-prefix=ATOMIC

// split-k=0 with an activation epilogue (step 2b): atomics cannot add its slices, so where
// the grid leaves three quarters of the SMs or more idle (16 programs of 64 columns, 132
// SMs: S = 8) the split sums with reduce=last-slice (reduce=auto, the default: a workspace
// of 8 slices and the counters, the last slice of each tile runs the GELU), or with
// two-stage where reduce=atomic was asked for (a reduce kernel runs it).
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: tile.launch = {args = [], counters, grid = ["16", "8", "1"], kernel = @fused_0_kernel, workspace = 8 : i32}
// ATOMIC-LABEL: func.func private @fused_0
// ATOMIC-SAME: tile.launch = {args = [], grid = ["16", "8", "1"], kernel = @fused_0_kernel, reduce = @fused_0_kernel_reduce, workspace = 8 : i32}
func.func @few_programs(%x: tensor<7x4096xf16>, %w: tensor<1000x4096xf16>) -> tensor<7x1000xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<7x4096xf16>, tensor<1000x4096xf16>) -> tensor<7x1000xf16>
  %z = "prim.gelu"(%y) {approximate = "tanh"} : (tensor<7x1000xf16>) -> tensor<7x1000xf16>
  return %z : tensor<7x1000xf16>
}

// -----

// 64 programs: a split of 2 would not pay the second kernel, so the kernel stays unsplit.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: tile.launch = {args = [], grid = ["64", "1", "1"], kernel = @fused_0_kernel}
// ATOMIC-LABEL: func.func private @fused_0
// ATOMIC-SAME: tile.launch = {args = [], grid = ["64", "1", "1"], kernel = @fused_0_kernel}
func.func @enough_programs(%x: tensor<7x4096xf16>, %w: tensor<4096x4096xf16>) -> tensor<7x4096xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<7x4096xf16>, tensor<4096x4096xf16>) -> tensor<7x4096xf16>
  %z = "prim.gelu"(%y) {approximate = "tanh"} : (tensor<7x4096xf16>) -> tensor<7x4096xf16>
  return %z : tensor<7x4096xf16>
}

// -----

// A rounding to fp8 is no linear epilogue either (each slice's partial sum would round to
// 2-3 mantissa bits, and there is no fp8 atomic add): the same split, summed before the
// rounding (last-slice; two-stage where reduce=atomic was asked for).
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: tile.launch = {args = [], counters, grid = ["16", "8", "1"], kernel = @fused_0_kernel, workspace = 8 : i32}
// ATOMIC-LABEL: func.func private @fused_0
// ATOMIC-SAME: tile.launch = {args = [], grid = ["16", "8", "1"], kernel = @fused_0_kernel, reduce = @fused_0_kernel_reduce, workspace = 8 : i32}
func.func @fp8_output(%x: tensor<7x4096xf16>, %w: tensor<1000x4096xf16>) -> tensor<7x1000xf8E4M3FN> {
  %y = "prim.linear"(%x, %w) : (tensor<7x4096xf16>, tensor<1000x4096xf16>) -> tensor<7x1000xf16>
  %q = "prim.convert"(%y) : (tensor<7x1000xf16>) -> tensor<7x1000xf8E4M3FN>
  return %q : tensor<7x1000xf8E4M3FN>
}
