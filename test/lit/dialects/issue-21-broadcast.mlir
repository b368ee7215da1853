// Issue 21: a broadcast_in_dim of 999 elements into a dimension of 1000, and one that names
// the wrong dimension, passed tt-opt and tt-translate and became PTX; only tt-run's reference
// rejected the metadata. The prim verifier (the reference's rules) now stops both when the
// program is parsed: a located error, exit 1, and no output file, in tt-opt (before any
// pass) and in tt-translate.
// RUN: not tt-opt %s --fuse --tile 2>&1 | FileCheck %s
// RUN: rm -f %t.mlir %t.ptx
// RUN: not tt-opt %s -o %t.mlir 2>&1 | FileCheck %s
// RUN: not ls %t.mlir
// RUN: not tt-translate --ptx %s -o %t.ptx 2>&1 | FileCheck %s
// RUN: not ls %t.ptx
// CHECK: issue-21-broadcast.mlir:[[@LINE+5]]:9: error: broadcast_in_dim operand dim 0 has size 999, but result dim 1 has size 1000 (sizes must match or the operand's be 1)
// CHECK: issue-21-broadcast.mlir:[[@LINE+6]]:9: error: broadcast_in_dim operand dim 0 has size 1000, but result dim 1 has size 8 (sizes must match or the operand's be 1)
// CHECK-NOT: error

func.func @bias_add(%x: tensor<4x1000xf32>, %b: tensor<999xf32>, %c: tensor<1000xf32>) -> (tensor<4x1000xf32>, tensor<1000x8xf32>) {
  %bb = "prim.broadcast_in_dim"(%b) {broadcast_dimensions = array<i64: 1>} : (tensor<999xf32>) -> tensor<4x1000xf32>
  %y = "prim.add"(%x, %bb) : (tensor<4x1000xf32>, tensor<4x1000xf32>) -> tensor<4x1000xf32>
  %cc = "prim.broadcast_in_dim"(%c) {broadcast_dimensions = array<i64: 1>} : (tensor<1000xf32>) -> tensor<1000x8xf32>
  return %y, %cc : tensor<4x1000xf32>, tensor<1000x8xf32>
}
