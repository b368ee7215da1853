// RUN: tt-opt %s --split-input-file --fuse | FileCheck %s

// A chain of elementwise ops with a broadcast operand becomes one fused function that the
// host calls; the constant is copied into it.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: (%[[B:.*]]: tensor<4xf32>, %[[X:.*]]: tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-SAME: prim.fusion = "elementwise"
// CHECK: "prim.broadcast_in_dim"(%[[B]])
// CHECK: "prim.full"
// CHECK: "prim.mul"
// CHECK: "prim.add"
// CHECK: return
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[R:.*]] = call @fused_0(%arg1, %arg0)
// CHECK-NEXT: return %[[R]]
func.func @chain(%x: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  %bb = "prim.broadcast_in_dim"(%b) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<3x4xf32>
  %two = "prim.full"() {value = 2.0 : f32} : () -> tensor<3x4xf32>
  %m = "prim.mul"(%x, %two) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %y = "prim.add"(%m, %bb) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// -----

// A value used by two consumers in different groups is not recomputed: it gets a group
// of its own (refused fusion), and each consumer group reads it.
// CHECK-LABEL: func.func private @fused_0
// CHECK: "prim.exp"
// CHECK-LABEL: func.func private @fused_1
// CHECK: "prim.neg"
// CHECK-LABEL: func.func private @fused_2
// CHECK: "prim.tanh"
// CHECK-LABEL: func.func @shared
// CHECK: call @fused_0
// CHECK: call @fused_1
// CHECK: call @fused_2
func.func @shared(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = "prim.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %a = "prim.neg"(%e) : (tensor<8xf32>) -> tensor<8xf32>
  %b = "prim.tanh"(%e) : (tensor<8xf32>) -> tensor<8xf32>
  return %a, %b : tensor<8xf32>, tensor<8xf32>
}

// -----

// Ops that do not fuse (a reduction) stay in the host function.
// CHECK-LABEL: func.func @reduction
// CHECK: "prim.sum"
func.func @reduction(%x: tensor<8xf32>) -> tensor<f32> {
  %s = "prim.sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<8xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
