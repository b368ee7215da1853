// RUN: tt-opt %s --decompose --mlir-print-debuginfo=false | FileCheck %s
// argmax with no dim over a dynamic tensor: reshaped to tensor<?> (the flat index), then
// reduced over its one dim (before, the reshape's type read tensor<-1xf32>: no valid IR).
// CHECK-LABEL: func.func @argmax_all_dynamic
// CHECK: %[[F:.*]] = "prim.reshape"(%arg0) : (tensor<?x3xf32>) -> tensor<?xf32>
// CHECK: "prim.argmax"(%[[F]]) {dim = 0 : i64} : (tensor<?xf32>) -> tensor<i64>
func.func @argmax_all_dynamic(%x: tensor<?x3xf32>) -> tensor<i64> {
  %y = "prim.argmax"(%x) {keepdim = false} : (tensor<?x3xf32>) -> tensor<i64>
  return %y : tensor<i64>
}
