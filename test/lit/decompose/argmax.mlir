// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose | FileCheck %s
// argmax/argmin (issue 21, item 2): the row form (dim = the last) stays; another dim is
// transposed last, no dim (torch.argmax's dim=None) flattens, keepdim reshapes.

// CHECK-LABEL: func.func @last
// CHECK-NEXT: "prim.argmin"(%arg0) {dim = -1 : i64} : (tensor<3x1000xf32>) -> tensor<3xi32>
// CHECK-NEXT: return
func.func @last(%x: tensor<3x1000xf32>) -> tensor<3xi32> {
  %y = "prim.argmin"(%x) {dim = -1 : i64} : (tensor<3x1000xf32>) -> tensor<3xi32>
  return %y : tensor<3xi32>
}

// -----

// CHECK-LABEL: func.func @dim0
// CHECK-NEXT: %[[T:.*]] = "prim.transpose"(%arg0) {permutation = array<i64: 1, 2, 0>} : (tensor<3x1000x2xf16>) -> tensor<1000x2x3xf16>
// CHECK-NEXT: %[[A:.*]] = "prim.argmax"(%[[T]]) {dim = 2 : i64} : (tensor<1000x2x3xf16>) -> tensor<1000x2xi64>
// CHECK-NEXT: return %[[A]]
func.func @dim0(%x: tensor<3x1000x2xf16>) -> tensor<1000x2xi64> {
  %y = "prim.argmax"(%x) {dim = 0 : i64} : (tensor<3x1000x2xf16>) -> tensor<1000x2xi64>
  return %y : tensor<1000x2xi64>
}

// -----

// CHECK-LABEL: func.func @all_keepdim
// CHECK-NEXT: %[[F:.*]] = "prim.reshape"(%arg0) : (tensor<3x1000xbf16>) -> tensor<3000xbf16>
// CHECK-NEXT: %[[A:.*]] = "prim.argmin"(%[[F]]) {dim = 0 : i64} : (tensor<3000xbf16>) -> tensor<i64>
// CHECK-NEXT: %[[R:.*]] = "prim.reshape"(%[[A]]) : (tensor<i64>) -> tensor<1x1xi64>
// CHECK-NEXT: return %[[R]]
func.func @all_keepdim(%x: tensor<3x1000xbf16>) -> tensor<1x1xi64> {
  %y = "prim.argmin"(%x) {keepdim = true} : (tensor<3x1000xbf16>) -> tensor<1x1xi64>
  return %y : tensor<1x1xi64>
}
