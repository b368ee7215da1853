// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --fuse | FileCheck %s

// A chain of elementwise ops with a broadcast operand becomes one fused function that the
// host calls; the constant is copied into it.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: (%[[B:.*]]: tensor<4xf32>, %[[X:.*]]: tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-SAME: prim.fusion = "elementwise"
// CHECK: "prim.broadcast_in_dim"(%[[B]])
// CHECK: "prim.full"
// CHECK: "prim.mul"
// CHECK: "prim.add"
// CHECK: return
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[R:.*]] = call @fused_0(%arg1, %arg0)
// CHECK-NEXT: return %[[R]]
func.func @chain(%x: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  %bb = "prim.broadcast_in_dim"(%b) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<3x4xf32>
  %two = "prim.full"() {value = 2.0 : f32} : () -> tensor<3x4xf32>
  %m = "prim.mul"(%x, %two) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %y = "prim.add"(%m, %bb) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// -----

// A cheap value used by two consumers in different groups is recomputed in each (it is
// no kernel of its own), and the two groups, reading the same input over one iteration
// space, merge: one kernel with two outputs (more in test/lit/fuse/multi.mlir).
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: -> (tensor<8xf32>, tensor<8xf32>)
// CHECK: "prim.exp"
// CHECK: "prim.neg"
// CHECK: "prim.tanh"
// CHECK: return
// CHECK-NOT: "prim.
// CHECK-LABEL: func.func @shared
// CHECK-NEXT: %[[R:.*]]:2 = call @fused_0
// CHECK-NEXT: return %[[R]]#0, %[[R]]#1
func.func @shared(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = "prim.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %a = "prim.neg"(%e) : (tensor<8xf32>) -> tensor<8xf32>
  %b = "prim.tanh"(%e) : (tensor<8xf32>) -> tensor<8xf32>
  return %a, %b : tensor<8xf32>, tensor<8xf32>
}

// -----

// A reduction over dims before the last (dim 0: column sums) makes a column group, with
// the elementwise op after it (its epilogue): one kernel (more in test/lit/fuse/columns.mlir).
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "column"
// CHECK: "prim.sum"
// CHECK: "prim.neg"
// CHECK-LABEL: func.func @columns
// CHECK: call @fused_0
func.func @columns(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  %s = "prim.sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<4x8xf32>) -> tensor<8xf32>
  %n = "prim.neg"(%s) : (tensor<8xf32>) -> tensor<8xf32>
  return %n : tensor<8xf32>
}

// -----

// Softmax: both reductions reduce rows of the same shape, so the max, the exp, the sum and
// the division are one row group: each row is read once.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "row"
// CHECK: "prim.amax"
// CHECK: "prim.exp"
// CHECK: "prim.sum"
// CHECK: "prim.div"
// CHECK-LABEL: func.func @softmax
// CHECK-NEXT: call @fused_0
// CHECK-NEXT: return
func.func @softmax(%x: tensor<4x1000xf32>) -> tensor<4x1000xf32> {
  %m = "prim.amax"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<4x1000xf32>) -> tensor<4xf32>
  %mb = "prim.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x1000xf32>
  %d = "prim.sub"(%x, %mb) : (tensor<4x1000xf32>, tensor<4x1000xf32>) -> tensor<4x1000xf32>
  %e = "prim.exp"(%d) : (tensor<4x1000xf32>) -> tensor<4x1000xf32>
  %s = "prim.sum"(%e) {dims = array<i64: 1>, keepdim = true} : (tensor<4x1000xf32>) -> tensor<4x1xf32>
  %sb = "prim.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<4x1xf32>) -> tensor<4x1000xf32>
  %y = "prim.div"(%e, %sb) : (tensor<4x1000xf32>, tensor<4x1000xf32>) -> tensor<4x1000xf32>
  return %y : tensor<4x1000xf32>
}

// -----

// A row sum whose result is one value per row is a row group of its own.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "row"
// CHECK: "prim.mul"
// CHECK: "prim.sum"
func.func @sum_of_squares(%x: tensor<3x5xf32>) -> tensor<3xf32> {
  %q = "prim.mul"(%x, %x) : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %s = "prim.sum"(%q) {dims = array<i64: -1>, keepdim = false} : (tensor<3x5xf32>) -> tensor<3xf32>
  return %s : tensor<3xf32>
}

// -----

// Refused: a reduction of rows of another shape (here the columns' sum, transposed by the
// program) cannot join a row group, whose rows it would have to read again.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "row"
// CHECK-LABEL: func.func private @fused_1
// CHECK-SAME: prim.fusion = "row"
// CHECK-LABEL: func.func @two_shapes
// CHECK: call @fused_0
// CHECK: call @fused_1
func.func @two_shapes(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>) -> tensor<4xf32> {
  %a = "prim.sum"(%y) {dims = array<i64: 1>, keepdim = false} : (tensor<8x4xf32>) -> tensor<8xf32>
  %ab = "prim.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 1>} : (tensor<8xf32>) -> tensor<4x8xf32>
  %p = "prim.mul"(%x, %ab) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = "prim.sum"(%p) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
