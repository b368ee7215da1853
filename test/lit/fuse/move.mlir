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
// REPORT: move.mlir:[[# @LINE + 2]]:8: remark: fuse: 'prim.slice' not fused into the group of its user: data movement (slice, concat, index_select, gather, pad, iota, a row copy) fuses only into elementwise groups (no reduction or matmul in the group)
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

// -----

// An embedding lookup then GELU-like math: index_select, its i64 index and the chain are
// one elementwise group reading the table and the index (an index load, then a data load).
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: (%[[T:.*]]: tensor<1000x4097xbf16>, %[[I:.*]]: tensor<37xi64>)
// CHECK-SAME: prim.fusion = "elementwise"
// CHECK-NEXT: "prim.index_select"(%[[T]], %[[I]]) {dim = 0 : i64}
// CHECK-NEXT: "prim.tanh"
// CHECK-NEXT: "prim.mul"
// CHECK-NEXT: return
// CHECK-LABEL: func.func @embedding
// CHECK-NEXT: call @fused_0(%arg0, %arg1)
// CHECK-NEXT: return
// REPORT: move.mlir:[[# @LINE + 4]]:8: remark: fuse: 'prim.mul' ends an elementwise group of 3 ops, outlined as @fused_0
func.func @embedding(%t: tensor<1000x4097xbf16>, %i: tensor<37xi64>) -> tensor<37x4097xbf16> {
  %e = "prim.index_select"(%t, %i) {dim = 0 : i64} : (tensor<1000x4097xbf16>, tensor<37xi64>) -> tensor<37x4097xbf16>
  %h = "prim.tanh"(%e) : (tensor<37x4097xbf16>) -> tensor<37x4097xbf16>
  %y = "prim.mul"(%h, %e) : (tensor<37x4097xbf16>, tensor<37x4097xbf16>) -> tensor<37x4097xbf16>
  return %y : tensor<37x4097xbf16>
}

// -----

// gather, pad and iota join an elementwise chain alike: one group.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "elementwise"
// CHECK-NEXT: "prim.gather"
// CHECK-NEXT: "prim.pad"
// CHECK-NEXT: "prim.iota"
// CHECK-NEXT: "prim.add"
// CHECK-NEXT: "prim.exp"
// CHECK-NEXT: return
// CHECK-LABEL: func.func @gather_pad_iota
// CHECK-NEXT: call @fused_0
// CHECK-NEXT: return
func.func @gather_pad_iota(%x: tensor<3x1000xf32>, %i: tensor<3x7xi32>) -> tensor<4x10xf32> {
  %g = "prim.gather"(%x, %i) {dim = 1 : i64} : (tensor<3x1000xf32>, tensor<3x7xi32>) -> tensor<3x7xf32>
  %p = "prim.pad"(%g) {low = array<i64: 1, 2>, high = array<i64: 0, 1>, value = 0.5 : f64} : (tensor<3x7xf32>) -> tensor<4x10xf32>
  %r = "prim.iota"() {dimension = 1 : i64} : () -> tensor<4x10xf32>
  %a = "prim.add"(%p, %r) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
  %y = "prim.exp"(%a) : (tensor<4x10xf32>) -> tensor<4x10xf32>
  return %y : tensor<4x10xf32>
}

// -----

// Refused from a row group (an index_select before a row max), a column group (a pad before
// column sums) and a dot group's epilogue (a gathered bias): each stays a group of its own,
// with a remark.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "elementwise"
// CHECK-NEXT: "prim.index_select"
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @fused_1
// CHECK-SAME: prim.fusion = "row"
// CHECK-NEXT: "prim.amax"
// CHECK-NEXT: return
// REPORT: move.mlir:[[# @LINE + 2]]:8: remark: fuse: 'prim.index_select' not fused into the group of its user: data movement (slice, concat, index_select, gather, pad, iota, a row copy) fuses only into elementwise groups (no reduction or matmul in the group)
func.func @row(%t: tensor<1000x64xf32>, %i: tensor<5xi32>) -> tensor<5xf32> {
  %e = "prim.index_select"(%t, %i) {dim = 0 : i64} : (tensor<1000x64xf32>, tensor<5xi32>) -> tensor<5x64xf32>
  %m = "prim.amax"(%e) {dims = array<i64: 1>} : (tensor<5x64xf32>) -> tensor<5xf32>
  return %m : tensor<5xf32>
}

// -----

// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "elementwise"
// CHECK-NEXT: "prim.pad"
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @fused_1
// CHECK-SAME: prim.fusion = "column"
// CHECK-NEXT: "prim.sum"
// CHECK-NEXT: return
// REPORT: move.mlir:[[# @LINE + 2]]:8: remark: fuse: 'prim.pad' not fused into the group of its user: data movement (slice, concat, index_select, gather, pad, iota, a row copy) fuses only into elementwise groups (no reduction or matmul in the group)
func.func @column(%x: tensor<1000x64xf32>) -> tensor<66xf32> {
  %p = "prim.pad"(%x) {low = array<i64: 0, 1>, high = array<i64: 0, 1>, value = 0.0 : f64} : (tensor<1000x64xf32>) -> tensor<1000x66xf32>
  %s = "prim.sum"(%p) {dims = array<i64: 0>} : (tensor<1000x66xf32>) -> tensor<66xf32>
  return %s : tensor<66xf32>
}

// -----

// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "elementwise"
// CHECK-NEXT: "prim.gather"
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @fused_1
// CHECK-SAME: prim.fusion = "dot"
// CHECK-NEXT: "prim.matmul"
// CHECK-NEXT: "prim.add"
// CHECK-NEXT: return
// REPORT: move.mlir:[[# @LINE + 3]]:8: remark: fuse: 'prim.gather' not fused into the group of its user: data movement (slice, concat, index_select, gather, pad, iota, a row copy) fuses only into elementwise groups (no reduction or matmul in the group)
func.func @dot(%a: tensor<16x64xf16>, %b: tensor<64x128xf16>, %bias: tensor<32x128xf16>, %i: tensor<16x128xi64>) -> tensor<16x128xf16> {
  %m = "prim.matmul"(%a, %b) : (tensor<16x64xf16>, tensor<64x128xf16>) -> tensor<16x128xf16>
  %g = "prim.gather"(%bias, %i) {dim = 0 : i64} : (tensor<32x128xf16>, tensor<16x128xi64>) -> tensor<16x128xf16>
  %y = "prim.add"(%m, %g) : (tensor<16x128xf16>, tensor<16x128xf16>) -> tensor<16x128xf16>
  return %y : tensor<16x128xf16>
}
