// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --fuse --tile=cluster=1 | FileCheck %s
// Several outputs (issue 21, item 3): an elementwise or row kernel takes one pointer per
// result of its fused function, after the inputs', and stores each.

// A rotary embedding step (two outputs of one shape): the kernel reads x, cos and sin
// and stores both halves, under one mask; n (its size argument) follows the outputs.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f32>, %[[C:.*]]: !tile.ptr<f32>, %[[S:.*]]: !tile.ptr<f32>, %[[O1:.*]]: !tile.ptr<f32>, %[[O2:.*]]: !tile.ptr<f32>, %[[N:.*]]: i32)
// CHECK: %[[NT:.*]] = "tile.splat"(%[[N]])
// CHECK: %[[M:.*]] = arith.cmpi slt, %{{.*}}, %[[NT]]
// CHECK-COUNT-2: "tile.load"(%[[X]]
// CHECK: arith.subf
// CHECK: "tile.store"(%[[O1]], %[[OFFS:.*]], %{{.*}}, %[[M]])
// CHECK: arith.addf
// CHECK: "tile.store"(%[[O2]], %[[OFFS]], %{{.*}}, %[[M]])
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: tile.launch = {args = ["numel(%r0)"], grid = ["cdiv(numel(%r0),1024)", "1", "1"], kernel = @fused_0_kernel}
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

// A pre-norm step (bf16): one row kernel reads x and r once, stores h = x + r (rounded
// to bf16) and the normalized row.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<bf16>, %[[R:.*]]: !tile.ptr<bf16>, %[[W:.*]]: !tile.ptr<bf16>, %[[H:.*]]: !tile.ptr<bf16>, %[[Y:.*]]: !tile.ptr<bf16>)
// CHECK: "tile.load"(%[[X]]
// CHECK: "tile.load"(%[[R]]
// CHECK: %[[HV:.*]] = arith.addf
// CHECK: %[[HB:.*]] = arith.truncf %[[HV]] {{.*}} to tensor<1024xbf16>
// CHECK: "tile.store"(%[[H]], %{{.*}}, %[[HB]],
// CHECK: "tile.reduce"
// The weight (the same for every program) is loaded where it is used, after the reduction.
// CHECK: "tile.load"(%[[W]]
// CHECK: "tile.store"(%[[Y]],
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: -> (tensor<3x1000xbf16>, tensor<3x1000xbf16>)
// CHECK-SAME: tile.launch = {args = [], grid = ["3", "1", "1"], kernel = @fused_0_kernel}
func.func @pre_norm(%x: tensor<3x1000xbf16>, %r: tensor<3x1000xbf16>, %w: tensor<1000xbf16>) -> (tensor<3x1000xbf16>, tensor<3x1000xbf16>) {
  %h = "prim.add"(%x, %r) : (tensor<3x1000xbf16>, tensor<3x1000xbf16>) -> tensor<3x1000xbf16>
  %f = "prim.convert"(%h) : (tensor<3x1000xbf16>) -> tensor<3x1000xf32>
  %q = "prim.mul"(%f, %f) : (tensor<3x1000xf32>, tensor<3x1000xf32>) -> tensor<3x1000xf32>
  %s = "prim.sum"(%q) {dims = array<i64: 1>, keepdim = true} : (tensor<3x1000xf32>) -> tensor<3x1xf32>
  %n = "prim.full"() {value = 1.0e-3 : f32} : () -> tensor<3x1xf32>
  %m = "prim.mul"(%s, %n) : (tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  %rs = "prim.rsqrt"(%m) : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %rb = "prim.broadcast_in_dim"(%rs) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<3x1xf32>) -> tensor<3x1000xf32>
  %wf = "prim.convert"(%w) : (tensor<1000xbf16>) -> tensor<1000xf32>
  %wb = "prim.broadcast_in_dim"(%wf) {broadcast_dimensions = array<i64: 1>} : (tensor<1000xf32>) -> tensor<3x1000xf32>
  %t = "prim.mul"(%f, %rb) : (tensor<3x1000xf32>, tensor<3x1000xf32>) -> tensor<3x1000xf32>
  %u = "prim.mul"(%t, %wb) : (tensor<3x1000xf32>, tensor<3x1000xf32>) -> tensor<3x1000xf32>
  %y = "prim.convert"(%u) : (tensor<3x1000xf32>) -> tensor<3x1000xbf16>
  return %h, %y : tensor<3x1000xbf16>, tensor<3x1000xbf16>
}

// -----

// A looped row kernel (rows of 40000; cluster=1: no split over a cluster) with a full-row output and one value per row: the
// reduction's loop, then a chunk loop storing the rows, then lane 0 stores the row's sum.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f32>, %[[E:.*]]: !tile.ptr<f32>, %[[S:.*]]: !tile.ptr<f32>)
// CHECK: scf.for
// CHECK: "tile.reduce"
// CHECK: scf.for
// CHECK: "tile.store"(%[[E]]
// CHECK-NEXT: }
// CHECK: arith.cmpi eq
// CHECK: "tile.store"(%[[S]]
// CHECK-NEXT: return
func.func private @fused_0(%x: tensor<2x40000xf32>) -> (tensor<2x40000xf32>, tensor<2xf32>) attributes {prim.fusion = "row"} {
  %e = "prim.exp"(%x) : (tensor<2x40000xf32>) -> tensor<2x40000xf32>
  %s = "prim.sum"(%e) {dims = array<i64: 1>, keepdim = false} : (tensor<2x40000xf32>) -> tensor<2xf32>
  return %e, %s : tensor<2x40000xf32>, tensor<2xf32>
}
