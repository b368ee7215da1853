// RUN: tt-opt %s --split-input-file --decompose | FileCheck %s

// torch._scaled_mm: the fp8 product in f32, one product per per-tensor scale (broadcast
// from rank 0), the bias converted to f32 and added along N, one convert to the output.
// CHECK-LABEL: func.func @scaled_mm_bias
// CHECK: %[[P:.*]] = "prim.matmul"(%arg0, %arg1) : (tensor<3x64xf8E4M3FN>, tensor<64x32xf8E4M3FN>) -> tensor<3x32xf32>
// CHECK: %[[SA:.*]] = "prim.broadcast_in_dim"(%arg2) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<3x32xf32>
// CHECK: %[[Y1:.*]] = "prim.mul"(%[[P]], %[[SA]])
// CHECK: %[[SB:.*]] = "prim.broadcast_in_dim"(%arg3) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<3x32xf32>
// CHECK: %[[Y2:.*]] = "prim.mul"(%[[Y1]], %[[SB]])
// CHECK: %[[B:.*]] = "prim.convert"(%arg4) : (tensor<32xf16>) -> tensor<32xf32>
// CHECK: %[[BB:.*]] = "prim.broadcast_in_dim"(%[[B]]) {broadcast_dimensions = array<i64: 1>}
// CHECK: %[[Y3:.*]] = "prim.add"(%[[Y2]], %[[BB]])
// CHECK: %[[O:.*]] = "prim.convert"(%[[Y3]]) : (tensor<3x32xf32>) -> tensor<3x32xf16>
// CHECK: return %[[O]]
func.func @scaled_mm_bias(%a: tensor<3x64xf8E4M3FN>, %b: tensor<64x32xf8E4M3FN>, %sa: tensor<f32>, %sb: tensor<f32>, %c: tensor<32xf16>) -> tensor<3x32xf16> {
  %y = "prim.scaled_mm"(%a, %b, %sa, %sb, %c) : (tensor<3x64xf8E4M3FN>, tensor<64x32xf8E4M3FN>, tensor<f32>, tensor<f32>, tensor<32xf16>) -> tensor<3x32xf16>
  return %y : tensor<3x32xf16>
}

// -----

// E5M2 with E4M3, an f32 output: no convert at the end.
// CHECK-LABEL: func.func @scaled_mm_f32
// CHECK: "prim.matmul"(%arg0, %arg1) : (tensor<1x32xf8E5M2>, tensor<32x8xf8E4M3FN>) -> tensor<1x8xf32>
// CHECK-NOT: prim.convert
// CHECK: return
func.func @scaled_mm_f32(%a: tensor<1x32xf8E5M2>, %b: tensor<32x8xf8E4M3FN>, %sa: tensor<f32>, %sb: tensor<f32>) -> tensor<1x8xf32> {
  %y = "prim.scaled_mm"(%a, %b, %sa, %sb) : (tensor<1x32xf8E5M2>, tensor<32x8xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}
