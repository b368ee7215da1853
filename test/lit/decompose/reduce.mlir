// RUN: tt-opt %s --split-input-file --decompose | FileCheck %s
// --decompose rewrites reductions that are neither over the last dim alone (a row kernel)
// nor over one run of dims before it (a column kernel) into those, each reading its
// operand once, coalesced; and splits a column reduction with few columns and many rows
// into two levels.

// A full sum of [M, N]: a column sum to [N], then the sum of that row.
// CHECK-LABEL: func.func @full
// CHECK: %[[C:.*]] = "prim.sum"(%arg0) {dims = array<i64: 0>, keepdim = false} : (tensor<3x4xf32>) -> tensor<4xf32>
// CHECK: %[[R:.*]] = "prim.sum"(%[[C]]) {dims = array<i64: 0>, keepdim = false} : (tensor<4xf32>) -> tensor<f32>
// CHECK: return %[[R]]
func.func @full(%x: tensor<3x4xf32>) -> tensor<f32> {
  %s = "prim.sum"(%x) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<3x4xf32>) -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// keepdim true: every level keeps its dims as 1s, so no reshape is needed.
// CHECK-LABEL: func.func @full_keepdim
// CHECK: "prim.amax"(%arg0) {dims = array<i64: 0>, keepdim = true} : (tensor<3x4xf32>) -> tensor<1x4xf32>
// CHECK: "prim.amax"(%{{.*}}) {dims = array<i64: 1>, keepdim = true} : (tensor<1x4xf32>) -> tensor<1x1xf32>
func.func @full_keepdim(%x: tensor<3x4xf32>) -> tensor<1x1xf32> {
  %s = "prim.amax"(%x) {dims = array<i64: 0, 1>, keepdim = true} : (tensor<3x4xf32>) -> tensor<1x1xf32>
  return %s : tensor<1x1xf32>
}

// -----

// A bf16 sum accumulates in f32: one convert of the operand (it fuses into the first
// kernel's loads) and one of the result. amax and amin stay in their dtype (exact).
// CHECK-LABEL: func.func @full_bf16
// CHECK: %[[X:.*]] = "prim.convert"(%arg0) : (tensor<3x4xbf16>) -> tensor<3x4xf32>
// CHECK: "prim.sum"(%[[X]]) {dims = array<i64: 0>
// CHECK: %[[S:.*]] = "prim.sum"
// CHECK-SAME: -> tensor<f32>
// CHECK: "prim.convert"(%[[S]]) : (tensor<f32>) -> tensor<bf16>
// CHECK-LABEL: func.func @amin_f16
// CHECK-NOT: prim.convert
// CHECK: "prim.amin"(%arg0) {dims = array<i64: 0>, keepdim = false} : (tensor<3x4xf16>) -> tensor<4xf16>
func.func @full_bf16(%x: tensor<3x4xbf16>) -> tensor<bf16> {
  %s = "prim.sum"(%x) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<3x4xbf16>) -> tensor<bf16>
  return %s : tensor<bf16>
}
func.func @amin_f16(%x: tensor<3x4xf16>) -> tensor<f16> {
  %s = "prim.amin"(%x) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<3x4xf16>) -> tensor<f16>
  return %s : tensor<f16>
}

// -----

// Dims that are not one run (0 and 2 of [2, 3, 4]): the last run first (a row reduction),
// then the first (a column reduction of [2, 3]); the earlier dims keep their indices.
// CHECK-LABEL: func.func @two_runs
// CHECK: %[[A:.*]] = "prim.sum"(%arg0) {dims = array<i64: 2>, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
// CHECK: "prim.sum"(%[[A]]) {dims = array<i64: 0>, keepdim = false} : (tensor<2x3xf32>) -> tensor<3xf32>
func.func @two_runs(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %s = "prim.sum"(%x) {dims = array<i64: 0, 2>, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  return %s : tensor<3xf32>
}

// -----

// A run of two dims ending at the last (1 and 2 of [2, 3, 4]): a column reduction of dim 1,
// then the row.
// CHECK-LABEL: func.func @trailing_run
// CHECK: %[[A:.*]] = "prim.sum"(%arg0) {dims = array<i64: 1>, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// CHECK: "prim.sum"(%[[A]]) {dims = array<i64: 1>, keepdim = false} : (tensor<2x4xf32>) -> tensor<2xf32>
func.func @trailing_run(%x: tensor<2x3x4xf32>) -> tensor<2xf32> {
  %s = "prim.sum"(%x) {dims = array<i64: -2, -1>, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<2xf32>
  return %s : tensor<2xf32>
}

// -----

// Left alone: row and column reductions a kernel computes as they are.
// CHECK-LABEL: func.func @kernels
// CHECK-NEXT: "prim.sum"(%arg0) {dims = array<i64: 1>
// CHECK-NEXT: "prim.sum"(%arg0) {dims = array<i64: 0>
// CHECK-NEXT: return
func.func @kernels(%x: tensor<3x4xf32>) -> (tensor<3xf32>, tensor<4xf32>) {
  %r = "prim.sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<3x4xf32>) -> tensor<3xf32>
  %c = "prim.sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<3x4xf32>) -> tensor<4xf32>
  return %r, %c : tensor<3xf32>, tensor<4xf32>
}

// -----

// Few columns, many rows (8192x8192 column sums: 8192 columns): two levels, so that the
// first kernel has enough programs: R = 64 slices of 128 rows (the least power of two with
// columns x slices >= 2 x 132 x 1024, at least 64 rows a slice).
// CHECK-LABEL: func.func @split
// CHECK: %[[V:.*]] = "prim.reshape"(%arg0) : (tensor<8192x8192xf32>) -> tensor<64x128x8192xf32>
// CHECK: %[[P:.*]] = "prim.sum"(%[[V]]) {dims = array<i64: 1>, keepdim = false} : (tensor<64x128x8192xf32>) -> tensor<64x8192xf32>
// CHECK: "prim.sum"(%[[P]]) {dims = array<i64: 0>, keepdim = false} : (tensor<64x8192xf32>) -> tensor<8192xf32>
// With keepdim, the split's result is reshaped back.
// CHECK-LABEL: func.func @split_keepdim
// CHECK: "prim.reshape"
// CHECK: "prim.sum"
// CHECK: "prim.sum"
// CHECK: "prim.reshape"(%{{.*}}) : (tensor<8192xf32>) -> tensor<1x8192xf32>
// Not split: a row count no power of two >= 2 divides with 64 rows a slice (4097).
// CHECK-LABEL: func.func @no_split
// CHECK-NEXT: "prim.sum"(%arg0) {dims = array<i64: 0>, keepdim = false} : (tensor<4097x3xf32>) -> tensor<3xf32>
func.func @split(%x: tensor<8192x8192xf32>) -> tensor<8192xf32> {
  %s = "prim.sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<8192x8192xf32>) -> tensor<8192xf32>
  return %s : tensor<8192xf32>
}
func.func @split_keepdim(%x: tensor<8192x8192xf32>) -> tensor<1x8192xf32> {
  %s = "prim.sum"(%x) {dims = array<i64: 0>, keepdim = true} : (tensor<8192x8192xf32>) -> tensor<1x8192xf32>
  return %s : tensor<1x8192xf32>
}
func.func @no_split(%x: tensor<4097x3xf32>) -> tensor<3xf32> {
  %s = "prim.sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<4097x3xf32>) -> tensor<3xf32>
  return %s : tensor<3xf32>
}

