// RUN: tt-opt %s --split-input-file --decompose --fuse --tile --mlir-print-debuginfo=false | FileCheck %s
// Column kernels over a dynamic leading dim (columns.c): a reduced run that starts at the
// dynamic dim has R known at run time only (a size argument; the main loop ends at
// R - R % U, a one-row loop finishes); a dynamic dim before the run makes outer dynamic
// (the grid comes from the result's numel).

// A sum over the batch (dim 0 of [?, 1000]) with a bias epilogue: R = dim(%i0,0).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: %[[R:arg3]]: i32
// CHECK: %[[REM:.*]] = arith.remui %[[R]], %[[U:.*]] : i32
// CHECK: %[[END:.*]] = arith.subi %[[R]], %[[REM]] : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[END]] step %[[U]]
// CHECK: scf.for %{{.*}} = %[[END]] to %[[R]] step %{{.*}}
// CHECK: "tile.store"
// CHECK: func.func private @fused_0
// CHECK-SAME: prim.fusion = "column"
// CHECK-SAME: tile.launch = {args = ["dim(%i0,0)"], grid = ["{{[0-9]+}}", "1", "1"]
func.func @batch_sum(%x: tensor<?x1000xbf16>, %b: tensor<1000xbf16>) -> tensor<1000xbf16> {
  %t = "prim.sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<?x1000xbf16>) -> tensor<1000xbf16>
  %y = "prim.add"(%t, %b) : (tensor<1000xbf16>, tensor<1000xbf16>) -> tensor<1000xbf16>
  return %y : tensor<1000xbf16>
}

// -----

// A run of two dims from the dynamic one ([?, 5, 64] over dims 0 and 1): R = dim * 5.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: func.func private @fused_0
// CHECK-SAME: tile.launch = {args = ["dim(%i0,0)*5"]
func.func @two_dims(%x: tensor<?x5x64xf32>) -> tensor<64xf32> {
  %t = "prim.amax"(%x) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<?x5x64xf32>) -> tensor<64xf32>
  return %t : tensor<64xf32>
}

// -----

// A dynamic outer ([?, 5, 64] over dim 1): one program per outer index (its rows start at
// pid * 5 * 64), the grid from the result; R (5) is static.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: (%arg0: !tile.ptr<f16>, %arg1: !tile.ptr<f16>) attributes
// CHECK: %[[PID:.*]] = "tile.program_id"
// CHECK: arith.muli %[[PID]], %c320_i32
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c5_i32 step %c5
// CHECK: func.func private @fused_0
// CHECK-SAME: tile.launch = {args = [], grid = ["cdiv(numel(%r0),64)", "1", "1"]
func.func @dynamic_outer(%x: tensor<?x5x64xf16>) -> tensor<?x64xf16> {
  %t = "prim.amax"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<?x5x64xf16>) -> tensor<?x64xf16>
  %e = "prim.exp"(%t) : (tensor<?x64xf16>) -> tensor<?x64xf16>
  return %e : tensor<?x64xf16>
}

// -----

// A full sum of [?, 64]: a column sum over the dynamic dim, then the row.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: func.func private @fused_0
// CHECK-SAME: prim.fusion = "column"
// CHECK-SAME: args = ["dim(%i0,0)"]
// CHECK: func.func private @fused_1
// CHECK-SAME: prim.fusion = "row"
func.func @full_sum(%x: tensor<?x64xf32>) -> tensor<f32> {
  %t = "prim.sum"(%x) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<?x64xf32>) -> tensor<f32>
  return %t : tensor<f32>
}

// -----

// keepdim with a dynamic outer, then a subtract of its broadcast: the subtract's group
// has another shape, so the column group holds the amax alone ([?, 1, 64]).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: func.func private @fused_0
// CHECK-SAME: -> tensor<?x1x64xf32> attributes {prim.fusion = "column"
// CHECK-SAME: grid = ["cdiv(numel(%r0),64)", "1", "1"]
// CHECK: func.func private @fused_1
// CHECK-SAME: prim.fusion = "elementwise"
func.func @keepdim(%x: tensor<?x5x64xf32>) -> tensor<?x5x64xf32> {
  %m = "prim.amax"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<?x5x64xf32>) -> tensor<?x1x64xf32>
  %b = "prim.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<?x1x64xf32>) -> tensor<?x5x64xf32>
  %y = "prim.sub"(%x, %b) : (tensor<?x5x64xf32>, tensor<?x5x64xf32>) -> tensor<?x5x64xf32>
  return %y : tensor<?x5x64xf32>
}

// -----

// A dynamic outer over more columns than one program takes (3000 f32 in blocks of B):
// outer = pid / nblk, the block = pid % nblk, nblk = cdiv(3000, B) programs per outer index.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: %[[PID:.*]] = "tile.program_id"
// CHECK: arith.divui %[[PID]], %[[NB:c[0-9]+_i32]]
// CHECK: arith.remui %[[PID]], %[[NB]]
// CHECK: func.func private @fused_0
// CHECK-SAME: grid = ["cdiv(numel(%r0),3000)*{{[0-9]+}}", "1", "1"]
func.func @wide(%x: tensor<?x3x3000xf32>) -> tensor<?x3000xf32> {
  %t = "prim.sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<?x3x3000xf32>) -> tensor<?x3000xf32>
  return %t : tensor<?x3000xf32>
}
