// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile | FileCheck %s
// argmax over the last dim in a row kernel (passes/tile/emit.c, emitArgReduction): the
// row's max (NaN-propagating), then the least column whose element equals it or is NaN
// (min over the masked row of column-or-N, in f32), converted to the i64 result and
// stored by lane 0 at the row's index.

// exp(x) then argmax over rows of 4097 bf16: one row kernel, the prologue fused.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: !tile.ptr<i64>
// CHECK: %[[X:.*]] = math.exp
// CHECK: %[[M:.*]] = "tile.reduce"(%{{.*}}) {axis = 0 : i32, kind = "max"}
// CHECK: %[[MS:.*]] = "tile.splat"(%[[M]])
// CHECK: %[[EQ:.*]] = arith.cmpf oeq, %[[X]], %[[MS]]
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]]
// CHECK: %[[HIT:.*]] = arith.ori %[[EQ]], %[[NAN]]
// CHECK: %[[ON:.*]] = arith.andi %[[HIT]]
// CHECK: %[[COL:.*]] = arith.uitofp
// CHECK: %[[N:.*]] = arith.constant dense<4.097000e+03>
// CHECK: %[[C:.*]] = arith.select %[[ON]], %[[COL]], %[[N]]
// CHECK: %[[I:.*]] = "tile.reduce"(%[[C]]) {axis = 0 : i32, kind = "min"}
// CHECK: %[[I64:.*]] = arith.fptosi %[[I]] : f32 to i64
// CHECK: %[[V:.*]] = "tile.splat"(%[[I64]]) : (i64) -> tensor<8192xi64>
// CHECK: "tile.store"(%arg1, %{{.*}}, %[[V]]
// CHECK: prim.fusion = "row"
func.func @exp_argmax(%x: tensor<5x4097xbf16>) -> tensor<5xi64> {
  %e = "prim.exp"(%x) : (tensor<5x4097xbf16>) -> tensor<5x4097xbf16>
  %y = "prim.argmax"(%e) {dim = 1 : i64} : (tensor<5x4097xbf16>) -> tensor<5xi64>
  return %y : tensor<5xi64>
}

// -----

// argmin over every dim (dim absent) with keepdim: one row of 3000, the reshape to 1x1
// in the same kernel (a per-row value).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.reduce"(%{{.*}}) {axis = 0 : i32, kind = "min"}
// CHECK: "tile.reduce"(%{{.*}}) {axis = 0 : i32, kind = "min"}
// CHECK: "tile.store"
// CHECK: grid = ["1", "1", "1"]
// CHECK-NOT: func.func private @fused_1
func.func @all(%x: tensor<3x1000xf32>) -> tensor<1x1xi64> {
  %y = "prim.argmin"(%x) {keepdim = true} : (tensor<3x1000xf32>) -> tensor<1x1xi64>
  return %y : tensor<1x1xi64>
}


