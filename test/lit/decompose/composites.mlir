// RUN: tt-opt %s --split-input-file --mlir-print-debuginfo=false --decompose | FileCheck %s
// mean, var, std (over dims, keepdim optional: false; correction optional: 1), relu and
// clamp (min and/or max) become sums, elementwise ops and broadcasts, with PyTorch's
// formulas; f16/bf16 compute in f32 between one convert in and one convert out.

// mean over dim 0 (a column sum) without keepdim: sum / N.
// CHECK-LABEL: func.func @mean_dim0
// CHECK-NEXT: %[[S:.*]] = "prim.sum"(%arg0) {dims = array<i64: 0>, keepdim = false} : (tensor<5x7xf32>) -> tensor<7xf32>
// CHECK-NEXT: %[[N:.*]] = "prim.full"() {value = 5.000000e+00 : f32} : () -> tensor<7xf32>
// CHECK-NEXT: %[[M:.*]] = "prim.div"(%[[S]], %[[N]]) : (tensor<7xf32>, tensor<7xf32>) -> tensor<7xf32>
// CHECK-NEXT: return %[[M]]
func.func @mean_dim0(%x: tensor<5x7xf32>) -> tensor<7xf32> {
  %y = "prim.mean"(%x) {dims = array<i64: 0>} : (tensor<5x7xf32>) -> tensor<7xf32>
  return %y : tensor<7xf32>
}

// -----

// mean over the last dim (-1) with keepdim = true, in bf16: computed in f32.
// CHECK-LABEL: func.func @mean_keepdim_bf16
// CHECK-NEXT: %[[X:.*]] = "prim.convert"(%arg0) : (tensor<5x7xbf16>) -> tensor<5x7xf32>
// CHECK-NEXT: %[[S:.*]] = "prim.sum"(%[[X]]) {dims = array<i64: 1>, keepdim = true} : (tensor<5x7xf32>) -> tensor<5x1xf32>
// CHECK-NEXT: %[[N:.*]] = "prim.full"() {value = 7.000000e+00 : f32} : () -> tensor<5x1xf32>
// CHECK-NEXT: %[[M:.*]] = "prim.div"(%[[S]], %[[N]]) : (tensor<5x1xf32>, tensor<5x1xf32>) -> tensor<5x1xf32>
// CHECK-NEXT: %[[Y:.*]] = "prim.convert"(%[[M]]) : (tensor<5x1xf32>) -> tensor<5x1xbf16>
// CHECK-NEXT: return %[[Y]]
func.func @mean_keepdim_bf16(%x: tensor<5x7xbf16>) -> tensor<5x1xbf16> {
  %y = "prim.mean"(%x) {dims = array<i64: -1>, keepdim = true} : (tensor<5x7xbf16>) -> tensor<5x1xbf16>
  return %y : tensor<5x1xbf16>
}

// -----

// mean over all dims: the sum is split as prim.sum's is (columns, then the row); N = 35.
// CHECK-LABEL: func.func @mean_all
// CHECK-NEXT: %[[C:.*]] = "prim.sum"(%arg0) {dims = array<i64: 0>, keepdim = false} : (tensor<5x7xf32>) -> tensor<7xf32>
// CHECK-NEXT: %[[S:.*]] = "prim.sum"(%[[C]]) {dims = array<i64: 0>, keepdim = false} : (tensor<7xf32>) -> tensor<f32>
// CHECK-NEXT: %[[N:.*]] = "prim.full"() {value = 3.500000e+01 : f32} : () -> tensor<f32>
// CHECK-NEXT: "prim.div"(%[[S]], %[[N]])
func.func @mean_all(%x: tensor<5x7xf32>) -> tensor<f32> {
  %y = "prim.mean"(%x) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<5x7xf32>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

// var over the last dim, correction absent (1): the mean broadcast back, the squared
// deviations summed and divided by N - 1.
// CHECK-LABEL: func.func @var_last
// CHECK-NEXT: %[[S:.*]] = "prim.sum"(%arg0) {dims = array<i64: 1>, keepdim = false} : (tensor<3x10xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[N:.*]] = "prim.full"() {value = 1.000000e+01 : f32} : () -> tensor<3xf32>
// CHECK-NEXT: %[[M:.*]] = "prim.div"(%[[S]], %[[N]])
// CHECK-NEXT: %[[B:.*]] = "prim.broadcast_in_dim"(%[[M]]) {broadcast_dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<3x10xf32>
// CHECK-NEXT: %[[D:.*]] = "prim.sub"(%arg0, %[[B]])
// CHECK-NEXT: %[[Q:.*]] = "prim.mul"(%[[D]], %[[D]])
// CHECK-NEXT: %[[SS:.*]] = "prim.sum"(%[[Q]]) {dims = array<i64: 1>, keepdim = false} : (tensor<3x10xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[C:.*]] = "prim.full"() {value = 9.000000e+00 : f32} : () -> tensor<3xf32>
// CHECK-NEXT: %[[V:.*]] = "prim.div"(%[[SS]], %[[C]])
// CHECK-NEXT: return %[[V]]
func.func @var_last(%x: tensor<3x10xf32>) -> tensor<3xf32> {
  %y = "prim.var"(%x) {dims = array<i64: 1>} : (tensor<3x10xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// -----

// var over dim 0 with correction = 0 and keepdim = true: the second sum keeps the dim,
// the divisor is N.
// CHECK-LABEL: func.func @var_dim0_c0_keepdim
// CHECK-NEXT: "prim.sum"(%arg0) {dims = array<i64: 0>, keepdim = false} : (tensor<3x10xf32>) -> tensor<10xf32>
// CHECK-NEXT: "prim.full"() {value = 3.000000e+00 : f32} : () -> tensor<10xf32>
// CHECK-NEXT: "prim.div"
// CHECK-NEXT: "prim.broadcast_in_dim"(%{{.*}}) {broadcast_dimensions = array<i64: 1>} : (tensor<10xf32>) -> tensor<3x10xf32>
// CHECK-NEXT: "prim.sub"
// CHECK-NEXT: "prim.mul"
// CHECK-NEXT: "prim.sum"(%{{.*}}) {dims = array<i64: 0>, keepdim = true} : (tensor<3x10xf32>) -> tensor<1x10xf32>
// CHECK-NEXT: "prim.full"() {value = 3.000000e+00 : f32} : () -> tensor<1x10xf32>
// CHECK-NEXT: "prim.div"
// CHECK-NEXT: return
func.func @var_dim0_c0_keepdim(%x: tensor<3x10xf32>) -> tensor<1x10xf32> {
  %y = "prim.var"(%x) {dims = array<i64: 0>, keepdim = true, correction = 0 : i64} : (tensor<3x10xf32>) -> tensor<1x10xf32>
  return %y : tensor<1x10xf32>
}

// -----

// std in f16, correction = 1 given: sqrt of the variance, in f32.
// CHECK-LABEL: func.func @std_f16
// CHECK-NEXT: %[[X:.*]] = "prim.convert"(%arg0) : (tensor<3x10xf16>) -> tensor<3x10xf32>
// CHECK-NEXT: "prim.sum"(%[[X]]) {dims = array<i64: 1>, keepdim = false}
// CHECK: "prim.sub"(%[[X]],
// CHECK: "prim.full"() {value = 9.000000e+00 : f32} : () -> tensor<3xf32>
// CHECK-NEXT: %[[V:.*]] = "prim.div"
// CHECK-NEXT: %[[R:.*]] = "prim.sqrt"(%[[V]]) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[Y:.*]] = "prim.convert"(%[[R]]) : (tensor<3xf32>) -> tensor<3xf16>
// CHECK-NEXT: return %[[Y]]
func.func @std_f16(%x: tensor<3x10xf16>) -> tensor<3xf16> {
  %y = "prim.std"(%x) {dims = array<i64: 1>, correction = 1 : i64} : (tensor<3x10xf16>) -> tensor<3xf16>
  return %y : tensor<3xf16>
}

// -----

// std with correction = 0 over dim 0 and keepdim = false: divisor N, then sqrt.
// CHECK-LABEL: func.func @std_c0
// CHECK: "prim.mul"
// CHECK-NEXT: "prim.sum"(%{{.*}}) {dims = array<i64: 0>, keepdim = false} : (tensor<3x10xf32>) -> tensor<10xf32>
// CHECK-NEXT: "prim.full"() {value = 3.000000e+00 : f32} : () -> tensor<10xf32>
// CHECK-NEXT: "prim.div"
// CHECK-NEXT: "prim.sqrt"
// CHECK-NEXT: return
func.func @std_c0(%x: tensor<3x10xf32>) -> tensor<10xf32> {
  %y = "prim.std"(%x) {dims = array<i64: 0>, correction = 0 : i64} : (tensor<3x10xf32>) -> tensor<10xf32>
  return %y : tensor<10xf32>
}

// -----

// relu: max(x, 0); in bf16 through f32.
// CHECK-LABEL: func.func @relu
// CHECK-NEXT: %[[Z:.*]] = "prim.full"() {value = 0.000000e+00 : f32} : () -> tensor<8xf32>
// CHECK-NEXT: %[[Y:.*]] = "prim.max"(%arg0, %[[Z]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %[[Y]]
// CHECK-LABEL: func.func @relu_bf16
// CHECK-NEXT: %[[X:.*]] = "prim.convert"(%arg0) : (tensor<8xbf16>) -> tensor<8xf32>
// CHECK-NEXT: %[[Z:.*]] = "prim.full"() {value = 0.000000e+00 : f32} : () -> tensor<8xf32>
// CHECK-NEXT: %[[M:.*]] = "prim.max"(%[[X]], %[[Z]])
// CHECK-NEXT: %[[Y:.*]] = "prim.convert"(%[[M]]) : (tensor<8xf32>) -> tensor<8xbf16>
// CHECK-NEXT: return %[[Y]]
func.func @relu(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = "prim.relu"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}
func.func @relu_bf16(%x: tensor<8xbf16>) -> tensor<8xbf16> {
  %y = "prim.relu"(%x) : (tensor<8xbf16>) -> tensor<8xbf16>
  return %y : tensor<8xbf16>
}

// -----

// clamp with min and max: min(max(x, min), max); with min only: max; with max only: min.
// CHECK-LABEL: func.func @clamp_both
// CHECK-NEXT: %[[L:.*]] = "prim.full"() {value = -5.000000e-01 : f32} : () -> tensor<8xf32>
// CHECK-NEXT: %[[A:.*]] = "prim.max"(%arg0, %[[L]])
// CHECK-NEXT: %[[H:.*]] = "prim.full"() {value = 7.500000e-01 : f32} : () -> tensor<8xf32>
// CHECK-NEXT: %[[B:.*]] = "prim.min"(%[[A]], %[[H]])
// CHECK-NEXT: return %[[B]]
// CHECK-LABEL: func.func @clamp_min
// CHECK-NEXT: "prim.full"() {value = -2.500000e-01 : f32}
// CHECK-NEXT: "prim.max"
// CHECK-NEXT: return
// CHECK-LABEL: func.func @clamp_max_f16
// CHECK-NEXT: "prim.convert"(%arg0) : (tensor<8xf16>) -> tensor<8xf32>
// CHECK-NEXT: "prim.full"() {value = 5.000000e-01 : f32}
// CHECK-NEXT: "prim.min"
// CHECK-NEXT: "prim.convert"({{.*}}) : (tensor<8xf32>) -> tensor<8xf16>
// CHECK-NEXT: return
func.func @clamp_both(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = "prim.clamp"(%x) {min = -0.5 : f32, max = 0.75 : f32} : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}
func.func @clamp_min(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = "prim.clamp"(%x) {min = -0.25 : f32} : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}
func.func @clamp_max_f16(%x: tensor<8xf16>) -> tensor<8xf16> {
  %y = "prim.clamp"(%x) {max = 0.5 : f32} : (tensor<8xf16>) -> tensor<8xf16>
  return %y : tensor<8xf16>
}
