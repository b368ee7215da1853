// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --fuse | FileCheck %s
// RUN: tt-opt %s --split-input-file --fuse='report=1' 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
// Transposes (issue 21, item 4): one that moves the last dim is a permute group (its own
// kernel, through shared memory) with its pointwise prologue and epilogue; one that keeps
// the last dim is a row copy, a load at mapped offsets in an elementwise group.

// A standalone transpose of 8192x8192 bf16: a permute group of one op.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "permute"
// CHECK-NEXT: "prim.transpose"
// CHECK-NEXT: return
// CHECK-LABEL: func.func @standalone
// CHECK-NEXT: call @fused_0(%arg0)
// REPORT: permute.mlir:[[# @LINE + 2]]:8: remark: fuse: 'prim.transpose' ends a permute group of 1 ops, outlined as @fused_0
func.func @standalone(%x: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %t = "prim.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  return %t : tensor<8192x8192xbf16>
}

// -----

// exp before it (the prologue, at the loaded elements) and a convert after it (the
// epilogue, at the stored ones): one permute group.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "permute"
// CHECK-NEXT: "prim.exp"
// CHECK-NEXT: "prim.transpose"
// CHECK-NEXT: "prim.convert"
// CHECK-NEXT: return
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: call @fused_0(%arg0)
// CHECK-NEXT: return
// REPORT: permute.mlir:[[# @LINE + 4]]:8: remark: fuse: 'prim.convert' ends a permute group of 3 ops, outlined as @fused_0
func.func @chain(%x: tensor<1000x33xbf16>) -> tensor<33x1000xf32> {
  %e = "prim.exp"(%x) : (tensor<1000x33xbf16>) -> tensor<1000x33xbf16>
  %y = "prim.transpose"(%e) {permutation = array<i64: 1, 0>} : (tensor<1000x33xbf16>) -> tensor<33x1000xbf16>
  %z = "prim.convert"(%y) : (tensor<33x1000xbf16>) -> tensor<33x1000xf32>
  return %z : tensor<33x1000xf32>
}

// -----

// A permutation that keeps the last dim (2x3x1000x7 -> 3x2x1000x7) is a row copy: it joins
// the elementwise group of its user like a slice.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "elementwise"
// CHECK-NEXT: "prim.transpose"
// CHECK-NEXT: "prim.neg"
// CHECK-NEXT: return
// REPORT: permute.mlir:[[# @LINE + 3]]:8: remark: fuse: 'prim.neg' ends an elementwise group of 2 ops, outlined as @fused_0
func.func @rowcopy(%x: tensor<2x3x1000x7xf32>) -> tensor<3x2x1000x7xf32> {
  %t = "prim.transpose"(%x) {permutation = array<i64: 1, 0, 2, 3>} : (tensor<2x3x1000x7xf32>) -> tensor<3x2x1000x7xf32>
  %n = "prim.neg"(%t) : (tensor<3x2x1000x7xf32>) -> tensor<3x2x1000x7xf32>
  return %n : tensor<3x2x1000x7xf32>
}

// -----

// A transpose feeding a row reduction does not join its group (a row kernel's offsets
// follow its rows): the transpose is its own permute kernel.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "permute"
// CHECK-NEXT: "prim.transpose"
// CHECK-LABEL: func.func private @fused_1
// CHECK-SAME: prim.fusion = "row"
// CHECK-NEXT: "prim.sum"
// REPORT: permute.mlir:[[# @LINE + 2]]:8: remark: fuse: 'prim.transpose' not fused into the group of its user: a permute kernel computes one transpose that moves the last dim, with only elementwise ops before and after it
func.func @into_rows(%x: tensor<64x32xf32>) -> tensor<32xf32> {
  %t = "prim.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<64x32xf32>) -> tensor<32x64xf32>
  %s = "prim.sum"(%t) {dims = array<i64: 1>} : (tensor<32x64xf32>) -> tensor<32xf32>
  return %s : tensor<32xf32>
}

// -----

// Two transposes that move the last dim, one after the other: two permute groups.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "permute"
// CHECK-LABEL: func.func private @fused_1
// CHECK-SAME: prim.fusion = "permute"
// REPORT: permute.mlir:[[# @LINE + 2]]:8: remark: fuse: 'prim.transpose' not fused into the group of its user: a permute kernel computes one transpose
func.func @twice(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %t = "prim.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<64x32xf32>) -> tensor<32x64xf32>
  %u = "prim.transpose"(%t) {permutation = array<i64: 1, 0>} : (tensor<32x64xf32>) -> tensor<64x32xf32>
  return %u : tensor<64x32xf32>
}

// -----

// A transpose feeding a matmul still joins the matmul's dot group (read in place).
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "dot"
// CHECK: "prim.transpose"
// CHECK: "prim.matmul"
func.func @into_matmul(%a: tensor<16x64xf16>, %w: tensor<128x64xf16>) -> tensor<16x128xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<128x64xf16>) -> tensor<64x128xf16>
  %y = "prim.matmul"(%a, %wt) : (tensor<16x64xf16>, tensor<64x128xf16>) -> tensor<16x128xf16>
  return %y : tensor<16x128xf16>
}

// -----

// argmax over the last dim (issue 21, item 2) is a row reduction: a row group with its
// prologue (exp); a reshape of its per-row index (keepdim) joins too.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: prim.fusion = "row"
// CHECK-NEXT: "prim.exp"
// CHECK-NEXT: "prim.argmax"
// CHECK-NEXT: "prim.reshape"
// CHECK-NEXT: return
// REPORT: permute.mlir:[[# @LINE + 4]]:8: remark: fuse: 'prim.reshape' ends a row group of 3 ops, outlined as @fused_0
func.func @argmax_rows(%x: tensor<3x1000xf32>) -> tensor<3x1xi64> {
  %e = "prim.exp"(%x) : (tensor<3x1000xf32>) -> tensor<3x1000xf32>
  %a = "prim.argmax"(%e) {dim = 1 : i64} : (tensor<3x1000xf32>) -> tensor<3xi64>
  %r = "prim.reshape"(%a) : (tensor<3xi64>) -> tensor<3x1xi64>
  return %r : tensor<3x1xi64>
}

// -----

// argmax over dim 0 is no row reduction: it stays (--decompose moves its dim last).
// CHECK-LABEL: func.func @argmax_dim0
// CHECK-NEXT: "prim.argmax"
// REPORT: permute.mlir:[[# @LINE + 2]]:8: remark: fuse: 'prim.argmax' does not fuse: it is not over the last dim (run --decompose, which moves its dim last)
func.func @argmax_dim0(%x: tensor<3x1000xf32>) -> tensor<1000xi64> {
  %a = "prim.argmax"(%x) {dim = 0 : i64} : (tensor<3x1000xf32>) -> tensor<1000xi64>
  return %a : tensor<1000xi64>
}
