// RUN: tt-opt %s --split-input-file --fuse | FileCheck %s
// Step 0: prim ops whose results have no use are erased before grouping (prim ops have
// no side effects). Kept, the dead product would join the row group as a second output
// (stored, an f32 round trip through memory) and keep the convert, a second user of %d,
// out of the group: two kernels instead of one.

// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: (%{{.*}}: tensor<64x128xf32>{{[^,]*}}) -> tensor<64x128xbf16>
// CHECK-SAME: prim.fusion = "row"
// CHECK-NOT: "prim.mul"
// CHECK: "prim.convert"
// CHECK-NEXT: return
// CHECK-LABEL: func.func @dead_chain
// CHECK-NEXT: call @fused_0
// CHECK-NEXT: return
// CHECK-NOT: fused_1
func.func @dead_chain(%x: tensor<64x128xf32>, %w: tensor<128xf32>) -> tensor<64x128xbf16> {
  %s = "prim.sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<64x128xf32>) -> tensor<64xf32>
  %b = "prim.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64: 0>} : (tensor<64xf32>) -> tensor<64x128xf32>
  %d = "prim.sub"(%x, %b) : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  %wb = "prim.broadcast_in_dim"(%w) {broadcast_dimensions = array<i64: 1>} : (tensor<128xf32>) -> tensor<64x128xf32>
  %dead = "prim.mul"(%d, %wb) : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  %dead2 = "prim.exp"(%dead) : (tensor<64x128xf32>) -> tensor<64x128xf32>
  %y = "prim.convert"(%d) : (tensor<64x128xf32>) -> tensor<64x128xbf16>
  return %y : tensor<64x128xbf16>
}

// -----

// A program whose every op is dead: nothing left to fuse, the function returns its input.
// CHECK-LABEL: func.func @all_dead
// CHECK-NOT: prim.
// CHECK-NOT: call
// CHECK: return %arg0
func.func @all_dead(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = "prim.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %n = "prim.neg"(%e) : (tensor<8xf32>) -> tensor<8xf32>
  return %x : tensor<8xf32>
}
