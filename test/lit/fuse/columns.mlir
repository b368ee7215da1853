// RUN: tt-opt %s --split-input-file --fuse | FileCheck %s
// RUN: tt-opt %s --split-input-file --fuse='report=1' 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
// Column groups: a reduction over one run of dims before the last (the operand viewed as
// [outer, R, inner]) with its elementwise prologue and epilogue.

// Column sums (dim 0) with a prologue (the convert and the square: computed at each loaded
// element) and an epilogue (a bias add and the convert back): one group.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "column"
// CHECK: "prim.convert"
// CHECK: "prim.mul"
// CHECK: "prim.sum"
// CHECK-SAME: dims = array<i64: 0>
// CHECK: "prim.add"
// CHECK: "prim.convert"
// CHECK-LABEL: func.func @column_prologue_epilogue
// CHECK-NEXT: call @fused_0
// CHECK-NEXT: return
// REPORT: columns.mlir:[[@LINE+7]]:8: remark: fuse: 'prim.convert' ends a column group of 6 ops, outlined as @fused_0
func.func @column_prologue_epilogue(%x: tensor<3x1000xbf16>, %b: tensor<1000xbf16>) -> tensor<1000xbf16> {
  %xf = "prim.convert"(%x) : (tensor<3x1000xbf16>) -> tensor<3x1000xf32>
  %sq = "prim.mul"(%xf, %xf) : (tensor<3x1000xf32>, tensor<3x1000xf32>) -> tensor<3x1000xf32>
  %s = "prim.sum"(%sq) {dims = array<i64: 0>, keepdim = false} : (tensor<3x1000xf32>) -> tensor<1000xf32>
  %bf = "prim.convert"(%b) : (tensor<1000xbf16>) -> tensor<1000xf32>
  %y = "prim.add"(%s, %bf) : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>
  %r = "prim.convert"(%y) : (tensor<1000xf32>) -> tensor<1000xbf16>
  return %r : tensor<1000xbf16>
}

// -----

// A middle dim of a 3-D tensor, keepdim true: a column group ([2, 3, 1000] as outer 2,
// R 3, inner 1000).
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "column"
// CHECK: "prim.amax"
// CHECK-SAME: keepdim = true
// CHECK-SAME: -> tensor<2x1x1000xf16>
func.func @middle_keepdim(%x: tensor<2x3x1000xf16>) -> tensor<2x1x1000xf16> {
  %m = "prim.amax"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<2x3x1000xf16>) -> tensor<2x1x1000xf16>
  return %m : tensor<2x1x1000xf16>
}

// -----

// A run of two dims before the last (and a negative dim): one column group.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "column"
// CHECK: "prim.amin"
func.func @two_dim_run(%x: tensor<2x3x4x5xf32>) -> tensor<2x5xf32> {
  %m = "prim.amin"(%x) {dims = array<i64: 1, -2>, keepdim = false} : (tensor<2x3x4x5xf32>) -> tensor<2x5xf32>
  return %m : tensor<2x5xf32>
}

// -----

// Refused: the reduced value broadcast back to the operand's shape (x - colmean-like):
// the group's result would not be one value per column, so the sum is a group of its own
// and the subtraction another.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "column"
// CHECK: "prim.sum"
// CHECK-LABEL: func.func private @fused_1
// CHECK-SAME: prim.fusion = "elementwise"
// CHECK: "prim.sub"
// REPORT: columns.mlir:[[@LINE+3]]:8: remark: fuse: 'prim.sum' not fused into the group of its user: a column kernel computes one column reduction, with only elementwise ops before and after it
// REPORT: columns.mlir:[[@LINE+2]]:8: remark: fuse: 'prim.sum' ends a column group of 1 ops, outlined as @fused_0
func.func @broadcast_back(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = "prim.sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<4x8xf32>) -> tensor<8xf32>
  %b = "prim.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64: 1>} : (tensor<8xf32>) -> tensor<4x8xf32>
  %y = "prim.sub"(%x, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Refused: two column reductions used by one op: the first joins, the second is a group
// of its own (a column kernel computes one reduction).
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "column"
// CHECK: "prim.amax"
// CHECK-LABEL: func.func private @fused_1
// CHECK-SAME: prim.fusion = "column"
// CHECK: "prim.sum"
// CHECK: "prim.sub"
func.func @two_columns(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  %s = "prim.sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<4x8xf32>) -> tensor<8xf32>
  %m = "prim.amax"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<4x8xf32>) -> tensor<8xf32>
  %y = "prim.sub"(%s, %m) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// Not fused: dims that are not one run (0 and 2) and a full reduction ending at the last
// dim stay in the host function for --decompose to split.
// CHECK-LABEL: func.func @not_a_run
// CHECK: "prim.sum"
// CHECK: "prim.sum"
// REPORT: columns.mlir:[[@LINE+2]]:8: remark: fuse: 'prim.sum' does not fuse: its dims are not one contiguous run (run --decompose, which splits it into reductions of runs)
func.func @not_a_run(%x: tensor<2x3x4xf32>, %y: tensor<3x4xf32>) -> (tensor<3xf32>, tensor<f32>) {
  %s = "prim.sum"(%x) {dims = array<i64: 0, 2>, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  %t = "prim.sum"(%y) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<3x4xf32>) -> tensor<f32>
  return %s, %t : tensor<3xf32>, tensor<f32>
}
