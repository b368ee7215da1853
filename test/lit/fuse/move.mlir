// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --fuse | FileCheck %s
// RUN: tt-opt %s --split-input-file --fuse='report=1' 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
// Data movement (issue 21, item 4): a slice is pointwise in its user's iteration space, so
// it joins an elementwise group as a load at mapped offsets, not a kernel of its own.

// An expert's merged gate+up projection [16, 2, 4097]: its two halves (slices of dim 1),
// silu(gate) * up. The two slices and the chain are one elementwise group reading %x.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: (%[[X:.*]]: tensor<16x2x4097xf32>)
// CHECK-SAME: prim.fusion = "elementwise"
// CHECK: "prim.slice"(%[[X]]) {start = array<i64: 0, 0, 0>
// CHECK: "prim.slice"(%[[X]]) {start = array<i64: 0, 1, 0>
// CHECK: "prim.neg"
// CHECK: "prim.mul"
// CHECK-LABEL: func.func @gate_up
// CHECK-NEXT: call @fused_0(%arg0)
// CHECK-NEXT: return
// REPORT: move.mlir:[[# @LINE + 9]]:8: remark: fuse: 'prim.mul' ends an elementwise group of 7 ops, outlined as @fused_0
func.func @gate_up(%x: tensor<16x2x4097xf32>) -> tensor<16x1x4097xf32> {
  %g = "prim.slice"(%x) {start = array<i64: 0, 0, 0>, stop = array<i64: 16, 1, 4097>, step = array<i64: 1, 1, 1>} : (tensor<16x2x4097xf32>) -> tensor<16x1x4097xf32>
  %u = "prim.slice"(%x) {start = array<i64: 0, 1, 0>, stop = array<i64: 16, 2, 4097>, step = array<i64: 1, 1, 1>} : (tensor<16x2x4097xf32>) -> tensor<16x1x4097xf32>
  %n = "prim.neg"(%g) : (tensor<16x1x4097xf32>) -> tensor<16x1x4097xf32>
  %e = "prim.exp"(%n) : (tensor<16x1x4097xf32>) -> tensor<16x1x4097xf32>
  %one = "prim.full"() {value = 1.0 : f32} : () -> tensor<16x1x4097xf32>
  %d = "prim.add"(%one, %e) : (tensor<16x1x4097xf32>, tensor<16x1x4097xf32>) -> tensor<16x1x4097xf32>
  %s = "prim.div"(%g, %d) : (tensor<16x1x4097xf32>, tensor<16x1x4097xf32>) -> tensor<16x1x4097xf32>
  %y = "prim.mul"(%s, %u) : (tensor<16x1x4097xf32>, tensor<16x1x4097xf32>) -> tensor<16x1x4097xf32>
  return %y : tensor<16x1x4097xf32>
}

// -----

// A slice of an elementwise value (x[:, ::3] of exp(x)) and a slice feeding one: the
// producer, the slice and the consumer are one group.
// CHECK-LABEL: func.func private @fused_0
// CHECK: "prim.exp"
// CHECK-NEXT: "prim.slice"
// CHECK-NEXT: "prim.neg"
// CHECK-NEXT: return
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: call @fused_0
// CHECK-NEXT: return
func.func @chain(%x: tensor<3x1000xf32>) -> tensor<3x334xf32> {
  %e = "prim.exp"(%x) : (tensor<3x1000xf32>) -> tensor<3x1000xf32>
  %s = "prim.slice"(%e) {start = array<i64: 0, 0>, stop = array<i64: 3, 1000>, step = array<i64: 1, 3>} : (tensor<3x1000xf32>) -> tensor<3x334xf32>
  %n = "prim.neg"(%s) : (tensor<3x334xf32>) -> tensor<3x334xf32>
  return %n : tensor<3x334xf32>
}

// -----

// Refused: a slice feeding a row reduction stays out of the row group (a row kernel's
// offsets follow its rows); it is an elementwise group of its own, and the softmax-like
// row group reads its result.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "elementwise"
// CHECK-NEXT: "prim.slice"
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @fused_1
// CHECK-SAME: prim.fusion = "row"
// CHECK-NEXT: "prim.amax"
// CHECK-NEXT: return
// REPORT: move.mlir:[[# @LINE + 2]]:8: remark: fuse: 'prim.slice' not fused into the group of its user: a slice, concat or row copy fuses only into elementwise groups (no reduction or matmul in the group)
func.func @row(%x: tensor<4x1000xf32>) -> tensor<4xf32> {
  %s = "prim.slice"(%x) {start = array<i64: 0, 0>, stop = array<i64: 4, 500>, step = array<i64: 1, 1>} : (tensor<4x1000xf32>) -> tensor<4x500xf32>
  %m = "prim.amax"(%s) {dims = array<i64: 1>, keepdim = false} : (tensor<4x500xf32>) -> tensor<4xf32>
  return %m : tensor<4xf32>
}

// -----

// torch.cat([a, b, c], 1) as a chain of concats, then exp: one elementwise group.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "elementwise"
// CHECK-NEXT: "prim.concat"
// CHECK-NEXT: "prim.concat"
// CHECK-NEXT: "prim.exp"
// CHECK-NEXT: return
// CHECK-LABEL: func.func @cat3
// CHECK-NEXT: call @fused_0
// CHECK-NEXT: return
func.func @cat3(%a: tensor<3x1000xf32>, %b: tensor<3x7xf32>, %d: tensor<3x1xf32>) -> tensor<3x1008xf32> {
  %c = "prim.concat"(%a, %b) {dim = 1 : i64} : (tensor<3x1000xf32>, tensor<3x7xf32>) -> tensor<3x1007xf32>
  %e = "prim.concat"(%c, %d) {dim = 1 : i64} : (tensor<3x1007xf32>, tensor<3x1xf32>) -> tensor<3x1008xf32>
  %y = "prim.exp"(%e) : (tensor<3x1008xf32>) -> tensor<3x1008xf32>
  return %y : tensor<3x1008xf32>
}
