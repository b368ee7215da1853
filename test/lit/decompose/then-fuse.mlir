// RUN: tt-opt %s --decompose --fuse | FileCheck %s --implicit-check-not=prim.softmax
// The decomposed softmax is valid input to --fuse: it runs without error, and the
// reductions either stay in the host function or join a row group (with the reduction-
// fusion work); no composite is left either way.
// CHECK-DAG: func.func @softmax
// CHECK-DAG: "prim.amax"
// CHECK-DAG: "prim.exp"
// CHECK-DAG: "prim.sum"
func.func @softmax(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %y = "prim.softmax"(%x) {dim = -1 : i64} : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %y : tensor<4x8xbf16>
}
