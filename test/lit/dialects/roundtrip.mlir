// RUN: tt-opt %s | tt-opt | FileCheck %s
// CHECK-LABEL: func.func @prim_ops
// CHECK: "prim.broadcast_in_dim"(%{{.*}}) {broadcast_dimensions = array<i64: 1>}
// CHECK: "prim.compare"(%{{.*}}, %{{.*}}) {direction = "lt"}
// CHECK: "prim.sum"(%{{.*}}) {dims = array<i64: 1>, keepdim = false}
func.func @prim_ops(%x: tensor<2x4xf32>, %b: tensor<4xf32>) -> tensor<2xf32> {
  %bb = "prim.broadcast_in_dim"(%b) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<2x4xf32>
  %c = "prim.compare"(%x, %bb) {direction = "lt"} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
  %w = "prim.where"(%c, %x, %bb) : (tensor<2x4xi1>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %s = "prim.sum"(%w) {dims = array<i64: 1>, keepdim = false} : (tensor<2x4xf32>) -> tensor<2xf32>
  return %s : tensor<2xf32>
}
// CHECK-LABEL: func.func @tile_ops
// CHECK: "tile.program_id"() {axis = 0 : i32} : () -> i32
// CHECK: "tile.load"
// CHECK: "tile.store"
func.func @tile_ops(%p: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %pid = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %r = "tile.range"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %s = "tile.splat"(%n) : (i32) -> tensor<128xi32>
  %m = arith.cmpi slt, %r, %s : tensor<128xi32>
  %z = arith.constant dense<0.0> : tensor<128xf32>
  %v = "tile.load"(%p, %r, %m, %z) : (!tile.ptr<f32>, tensor<128xi32>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
  "tile.store"(%p, %r, %v, %m) : (!tile.ptr<f32>, tensor<128xi32>, tensor<128xf32>, tensor<128xi1>) -> ()
  return
}
// CHECK-LABEL: func.func @hopper_ops
// CHECK: %[[B:.*]] = "hopper.mbarrier_alloc"() {count = 2 : i32} : () -> !hopper.mbarrier
// CHECK: "hopper.tma_load"(%{{.*}}, %{{.*}}, %{{.*}}, %[[B]], %{{.*}}, %{{.*}}) {dims = array<i64: 1000, 4096>}
// CHECK: "hopper.mbarrier_wait"(%[[B]], %{{.*}}, %{{.*}})
// CHECK: "hopper.wgmma_fence"()
func.func @hopper_ops(%d: !hopper.tma_desc, %ring: memref<2x64x128xf16, 3>, %offs: tensor<8192xi32>, %p: i1, %s: i32) {
  %b = "hopper.mbarrier_alloc"() {count = 2 : i32} : () -> !hopper.mbarrier
  "hopper.tma_load"(%d, %ring, %s, %b, %offs, %p) {dims = array<i64: 1000, 4096>} : (!hopper.tma_desc, memref<2x64x128xf16, 3>, i32, !hopper.mbarrier, tensor<8192xi32>, i1) -> ()
  "hopper.mbarrier_wait"(%b, %s, %s) : (!hopper.mbarrier, i32, i32) -> ()
  "hopper.wgmma_fence"() : () -> ()
  return
}
