// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --fuse | FileCheck %s
// RUN: tt-opt %s --split-input-file --fuse='report=1' 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
// Fusion without extra memory traffic (issue 21, item 3): cheap values are recomputed in
// every group that reads them (step 2a), a group stores a value also used after it as an
// extra output (2b), and groups reading one input over one iteration space merge (3).

// A broadcast feeding two groups (a row group and an elementwise one, which cannot
// merge) is recomputed in each: 2 kernels, not 3.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>) -> tensor<4xf32>
// CHECK-SAME: prim.fusion = "row"
// CHECK-NEXT: "prim.broadcast_in_dim"(%[[B]])
// CHECK-NEXT: "prim.mul"
// CHECK-NEXT: "prim.sum"
// CHECK-LABEL: func.func private @fused_1
// CHECK-SAME: prim.fusion = "elementwise"
// CHECK-NEXT: "prim.broadcast_in_dim"
// CHECK-NEXT: "prim.add"
// CHECK-LABEL: func.func @fan_out
// CHECK-NEXT: call @fused_0(%arg0, %arg2)
// CHECK-NEXT: call @fused_1(%arg1, %arg2)
// CHECK-NEXT: return
// REPORT: multi.mlir:[[# @LINE + 2]]:9: remark: fuse: 'prim.broadcast_in_dim' is recomputed in each group that reads it, not stored (1 elementwise ops from the inputs and constants; at most 8)
func.func @fan_out(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %b: tensor<8xf32>) -> (tensor<4xf32>, tensor<4x8xf32>) {
  %bb = "prim.broadcast_in_dim"(%b) {broadcast_dimensions = array<i64: 1>} : (tensor<8xf32>) -> tensor<4x8xf32>
  %p = "prim.mul"(%x, %bb) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = "prim.sum"(%p) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  %z = "prim.add"(%y, %bb) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s, %z : tensor<4xf32>, tensor<4x8xf32>
}

// -----

// A chain of cheap values (convert, broadcast, constant, mul) is copied whole, once per
// group; the constant with it.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "row"
// CHECK-NEXT: "prim.convert"
// CHECK-NEXT: "prim.broadcast_in_dim"
// CHECK-NEXT: "prim.full"
// CHECK-NEXT: "prim.mul"
// CHECK-NEXT: "prim.mul"
// CHECK-NEXT: "prim.sum"
// CHECK-LABEL: func.func private @fused_1
// CHECK-SAME: prim.fusion = "elementwise"
// CHECK-NEXT: "prim.convert"
// CHECK-NEXT: "prim.broadcast_in_dim"
// CHECK-NEXT: "prim.full"
// CHECK-NEXT: "prim.mul"
// CHECK-NEXT: "prim.add"
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: call @fused_0
// CHECK-NEXT: call @fused_1
// CHECK-NEXT: return
// REPORT: multi.mlir:[[# @LINE + 5]]:8: remark: fuse: 'prim.convert' is recomputed in each group that reads it, not stored (1 elementwise ops
// REPORT: multi.mlir:[[# @LINE + 5]]:9: remark: fuse: 'prim.broadcast_in_dim' is recomputed in each group that reads it, not stored (2 elementwise ops
// REPORT: multi.mlir:[[# @LINE + 6]]:8: remark: fuse: 'prim.mul' is recomputed in each group that reads it, not stored (3 elementwise ops
// REPORT-NOT: 'prim.full'
func.func @chain(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %b: tensor<8xbf16>) -> (tensor<4xf32>, tensor<4x8xf32>) {
  %c = "prim.convert"(%b) : (tensor<8xbf16>) -> tensor<8xf32>
  %bb = "prim.broadcast_in_dim"(%c) {broadcast_dimensions = array<i64: 1>} : (tensor<8xf32>) -> tensor<4x8xf32>
  %two = "prim.full"() {value = 2.0 : f32} : () -> tensor<4x8xf32>
  %w = "prim.mul"(%bb, %two) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %p = "prim.mul"(%x, %w) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = "prim.sum"(%p) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  %z = "prim.add"(%y, %w) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s, %z : tensor<4xf32>, tensor<4x8xf32>
}

// -----

// A rotary embedding step: x [B, S, H, D] split into halves (slices), cos and sin [S, D/2]
// broadcast over batch and heads; out1 = x1*cos - x2*sin, out2 = x2*cos + x1*sin. The
// slices and broadcasts are recomputed in both outputs' groups, which read the same inputs
// over one iteration space and merge: one kernel reading x, cos and sin once, storing two
// outputs.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: (%[[X:.*]]: tensor<2x5x3x8xf32>, %[[C:.*]]: tensor<5x4xf32>, %[[S:.*]]: tensor<5x4xf32>) -> (tensor<2x5x3x4xf32>, tensor<2x5x3x4xf32>)
// CHECK-SAME: prim.fusion = "elementwise"
// CHECK-COUNT-2: "prim.slice"(%[[X]])
// CHECK: %[[O1:.*]] = "prim.sub"
// CHECK: %[[O2:.*]] = "prim.add"
// CHECK-NEXT: return %[[O1]], %[[O2]]
// CHECK-LABEL: func.func @rotary
// CHECK-NEXT: %[[R:.*]]:2 = call @fused_0(%arg0, %arg1, %arg2)
// CHECK-NEXT: return %[[R]]#0, %[[R]]#1
// REPORT: multi.mlir:[[# @LINE + 9]]:9: remark: fuse: 'prim.sub' is also an output of @fused_0, which stores it: its group read the same inputs over the same iteration space (merged into one kernel)
// REPORT: multi.mlir:[[# @LINE + 11]]:9: remark: fuse: 'prim.add' ends an elementwise group of 6 ops and 2 outputs, outlined as @fused_0
func.func @rotary(%x: tensor<2x5x3x8xf32>, %cos: tensor<5x4xf32>, %sin: tensor<5x4xf32>) -> (tensor<2x5x3x4xf32>, tensor<2x5x3x4xf32>) {
  %x1 = "prim.slice"(%x) {start = array<i64: 0, 0, 0, 0>, stop = array<i64: 2, 5, 3, 4>, step = array<i64: 1, 1, 1, 1>} : (tensor<2x5x3x8xf32>) -> tensor<2x5x3x4xf32>
  %x2 = "prim.slice"(%x) {start = array<i64: 0, 0, 0, 4>, stop = array<i64: 2, 5, 3, 8>, step = array<i64: 1, 1, 1, 1>} : (tensor<2x5x3x8xf32>) -> tensor<2x5x3x4xf32>
  %c = "prim.broadcast_in_dim"(%cos) {broadcast_dimensions = array<i64: 1, 3>} : (tensor<5x4xf32>) -> tensor<2x5x3x4xf32>
  %s = "prim.broadcast_in_dim"(%sin) {broadcast_dimensions = array<i64: 1, 3>} : (tensor<5x4xf32>) -> tensor<2x5x3x4xf32>
  %a = "prim.mul"(%x1, %c) : (tensor<2x5x3x4xf32>, tensor<2x5x3x4xf32>) -> tensor<2x5x3x4xf32>
  %b = "prim.mul"(%x2, %s) : (tensor<2x5x3x4xf32>, tensor<2x5x3x4xf32>) -> tensor<2x5x3x4xf32>
  %o1 = "prim.sub"(%a, %b) : (tensor<2x5x3x4xf32>, tensor<2x5x3x4xf32>) -> tensor<2x5x3x4xf32>
  %d = "prim.mul"(%x2, %c) : (tensor<2x5x3x4xf32>, tensor<2x5x3x4xf32>) -> tensor<2x5x3x4xf32>
  %e = "prim.mul"(%x1, %s) : (tensor<2x5x3x4xf32>, tensor<2x5x3x4xf32>) -> tensor<2x5x3x4xf32>
  %o2 = "prim.add"(%d, %e) : (tensor<2x5x3x4xf32>, tensor<2x5x3x4xf32>) -> tensor<2x5x3x4xf32>
  return %o1, %o2 : tensor<2x5x3x4xf32>, tensor<2x5x3x4xf32>
}

// -----

// A pre-norm step: h = x + r and rms_norm(h) * w, both results. h has users outside the
// row group (the return, after its root), so the group stores it as a second output: one
// row kernel reads x and r once.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: -> (tensor<3x1000xf32>, tensor<3x1000xf32>)
// CHECK-SAME: prim.fusion = "row"
// CHECK-NEXT: %[[H:.*]] = "prim.add"
// CHECK: "prim.sum"
// CHECK: "prim.mul"(%[[H]],
// CHECK-NEXT: %[[Y:.*]] = "prim.mul"
// CHECK-NEXT: return %[[H]], %[[Y]]
// CHECK-LABEL: func.func @pre_norm
// CHECK-NEXT: %[[R:.*]]:2 = call @fused_0(%arg0, %arg1, %arg2)
// CHECK-NEXT: return %[[R]]#0, %[[R]]#1
// REPORT: multi.mlir:[[# @LINE + 2]]:8: remark: fuse: 'prim.add' is also an output of @fused_0, which stores it: its other users come after the group's root
func.func @pre_norm(%x: tensor<3x1000xf32>, %r: tensor<3x1000xf32>, %w: tensor<1000xf32>) -> (tensor<3x1000xf32>, tensor<3x1000xf32>) {
  %h = "prim.add"(%x, %r) : (tensor<3x1000xf32>, tensor<3x1000xf32>) -> tensor<3x1000xf32>
  %q = "prim.mul"(%h, %h) : (tensor<3x1000xf32>, tensor<3x1000xf32>) -> tensor<3x1000xf32>
  %s = "prim.sum"(%q) {dims = array<i64: 1>, keepdim = true} : (tensor<3x1000xf32>) -> tensor<3x1xf32>
  %n = "prim.full"() {value = 1.0e-3 : f32} : () -> tensor<3x1xf32>
  %m = "prim.mul"(%s, %n) : (tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  %rs = "prim.rsqrt"(%m) : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %rb = "prim.broadcast_in_dim"(%rs) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<3x1xf32>) -> tensor<3x1000xf32>
  %wb = "prim.broadcast_in_dim"(%w) {broadcast_dimensions = array<i64: 1>} : (tensor<1000xf32>) -> tensor<3x1000xf32>
  %t = "prim.mul"(%h, %rb) : (tensor<3x1000xf32>, tensor<3x1000xf32>) -> tensor<3x1000xf32>
  %y = "prim.mul"(%t, %wb) : (tensor<3x1000xf32>, tensor<3x1000xf32>) -> tensor<3x1000xf32>
  return %h, %y : tensor<3x1000xf32>, tensor<3x1000xf32>
}

// -----

// Refused recomputation: a chain of 9 elementwise ops (more than 8) read by a row group and
// by an elementwise group before it is stored by a kernel of its own, which both read.
// (It is no extra output: the row group's root has another shape, and the elementwise
// group's root comes after the row group reads it.)
// CHECK-LABEL: func.func private @fused_0
// CHECK-COUNT-9: "prim.
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @fused_1
// CHECK-SAME: prim.fusion = "row"
// CHECK-LABEL: func.func private @fused_2
// CHECK-SAME: prim.fusion = "elementwise"
// CHECK-LABEL: func.func @long
// CHECK-COUNT-3: call @fused_
// REPORT: multi.mlir:[[# @LINE + 10]]:9: remark: fuse: 'prim.exp' ends an elementwise group of 9 ops, outlined as @fused_0 (not fused into its users: several groups read its result, which fusing would compute once in each; recomputing it is not cheap: its chain holds more than 8 elementwise ops)
func.func @long(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4x8xf32>) {
  %a1 = "prim.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %a2 = "prim.neg"(%a1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %a3 = "prim.exp"(%a2) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %a4 = "prim.neg"(%a3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %a5 = "prim.exp"(%a4) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %a6 = "prim.neg"(%a5) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %a7 = "prim.exp"(%a6) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %a8 = "prim.neg"(%a7) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %a9 = "prim.exp"(%a8) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = "prim.sum"(%a9) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  %z = "prim.add"(%y, %a9) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s, %z : tensor<4xf32>, tensor<4x8xf32>
}

// -----

// Refused recomputation: a slice read by a row group (which holds no slice) and by an
// elementwise group is stored by a kernel of its own.
// CHECK-LABEL: func.func private @fused_0
// CHECK-NEXT: "prim.slice"
// CHECK-NEXT: return
// CHECK-LABEL: func.func @slice_row
// CHECK-COUNT-3: call @fused_
// REPORT: multi.mlir:[[# @LINE + 2]]:8: remark: fuse: 'prim.slice' ends an elementwise group of 1 ops, outlined as @fused_0 (not fused into its users: several groups read its result, which fusing would compute once in each; a group reading it cannot hold its chain: a slice or concat in a row, column or dot group)
func.func @slice_row(%x: tensor<4x16xf32>, %y: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4x8xf32>) {
  %s = "prim.slice"(%x) {start = array<i64: 0, 0>, stop = array<i64: 4, 8>, step = array<i64: 1, 1>} : (tensor<4x16xf32>) -> tensor<4x8xf32>
  %m = "prim.amax"(%s) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  %z = "prim.add"(%s, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m, %z : tensor<4xf32>, tensor<4x8xf32>
}

// -----

// Refused merge: h = x + r is a result and read by two groups; the first stores it (an
// extra output: its other users come after that group's root), the second reads it back.
// The two groups share no input (the second reads h only), so they stay apart: 2 kernels.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: -> (tensor<8xf32>, tensor<8xf32>)
// CHECK-NEXT: "prim.add"
// CHECK-NEXT: "prim.exp"
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @fused_1
// CHECK-SAME: -> tensor<8xf32>
// CHECK-NEXT: "prim.neg"
// CHECK-LABEL: func.func @before
// CHECK-NEXT: %[[A:.*]]:2 = call @fused_0(%arg0, %arg1)
// CHECK-NEXT: %[[B:.*]] = call @fused_1(%[[A]]#0)
// CHECK-NEXT: return %[[A]]#0, %[[A]]#1, %[[B]]
func.func @before(%x: tensor<8xf32>, %r: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %h = "prim.add"(%x, %r) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %u = "prim.exp"(%h) : (tensor<8xf32>) -> tensor<8xf32>
  %y = "prim.neg"(%h) : (tensor<8xf32>) -> tensor<8xf32>
  return %h, %u, %y : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// Refused merge: two groups reading x over different iteration spaces (a full tensor and
// its first row's slice) stay two kernels.
// CHECK-LABEL: func.func private @fused_0
// CHECK-LABEL: func.func private @fused_1
// CHECK-LABEL: func.func @shapes
// CHECK-NEXT: call @fused_0
// CHECK-NEXT: call @fused_1
func.func @shapes(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<1x8xf32>) {
  %e = "prim.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = "prim.slice"(%x) {start = array<i64: 0, 0>, stop = array<i64: 1, 8>, step = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %n = "prim.neg"(%s) : (tensor<1x8xf32>) -> tensor<1x8xf32>
  return %e, %n : tensor<4x8xf32>, tensor<1x8xf32>
}

// -----

// Refused merge with a dynamic dim: two values of type tensor<?x8xf32> need not have one
// size at run time, so groups and outputs of dynamic shapes do not merge (exp is still
// recomputed in each): 2 kernels.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: -> tensor<?x8xf32>
// CHECK-NEXT: "prim.exp"
// CHECK-NEXT: "prim.neg"
// CHECK-LABEL: func.func private @fused_1
// CHECK-SAME: -> tensor<?x8xf32>
// CHECK-NEXT: "prim.exp"
// CHECK-NEXT: "prim.tanh"
// CHECK-LABEL: func.func @dynamic
// CHECK-NEXT: call @fused_0
// CHECK-NEXT: call @fused_1
func.func @dynamic(%x: tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<?x8xf32>) {
  %e = "prim.exp"(%x) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %a = "prim.neg"(%e) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %b = "prim.tanh"(%e) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %a, %b : tensor<?x8xf32>, tensor<?x8xf32>
}

// -----

// At most MAX_OUTPUTS (16) outputs a group: 17 values of one input merge into a kernel of
// 16 outputs and one of 1.
// CHECK-LABEL: func.func @wide
// CHECK-NEXT: %{{.*}}:16 = call @fused_0(%arg0)
// CHECK-NEXT: %{{.*}} = call @fused_1(%arg0)
// CHECK-NEXT: return
func.func @wide(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %a0 = "prim.neg"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %a1 = "prim.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %a2 = "prim.abs"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %a3 = "prim.tanh"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %a4 = "prim.sqrt"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %a5 = "prim.sin"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %a6 = "prim.cos"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %a7 = "prim.neg"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %a8 = "prim.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %a9 = "prim.abs"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %a10 = "prim.tanh"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %a11 = "prim.sqrt"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %a12 = "prim.sin"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %a13 = "prim.cos"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %a14 = "prim.neg"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %a15 = "prim.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %a16 = "prim.abs"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12, %a13, %a14, %a15, %a16 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// Vertical (step 3): a row group whose per-row result is also a program result (a
// dynamic quantization's scale) takes the elementwise group of full rows that reads it:
// one row kernel storing s and q, which reads x once.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: -> (tensor<4x1xf32>, tensor<4x8xf32>)
// CHECK-SAME: prim.fusion = "row"
// CHECK: "prim.amax"
// CHECK: "prim.div"
// CHECK-LABEL: func.func @row_scale
// CHECK-NEXT: %{{.*}}:2 = call @fused_0(%arg0)
// CHECK-NEXT: return
func.func @row_scale(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x1xf32>) {
  %m = "prim.amax"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %mb = "prim.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<4x1xf32>) -> tensor<4x8xf32>
  %q = "prim.div"(%x, %mb) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %q, %m : tensor<4x8xf32>, tensor<4x1xf32>
}

// -----

// Not where another op reads the row group's result before the later root: the sum of m
// (a kernel between them) needs m before the merged kernel would run.
// CHECK-LABEL: func.func @row_scale_read_between
// CHECK-NEXT: %[[M:.*]] = call @fused_0(%arg0)
// CHECK-NEXT: %[[T:.*]] = "prim.sum"(%[[M]])
// CHECK-NEXT: call @fused_1(%[[T]], %[[M]], %arg0)
// CHECK-NEXT: return
func.func @row_scale_read_between(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<f32>) {
  %m = "prim.amax"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %t = "prim.sum"(%m) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<4x1xf32>) -> tensor<f32>
  %tb = "prim.broadcast_in_dim"(%t) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<4x8xf32>
  %mb = "prim.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<4x1xf32>) -> tensor<4x8xf32>
  %q = "prim.div"(%x, %mb) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "prim.add"(%q, %tb) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r, %t : tensor<4x8xf32>, tensor<f32>
}
