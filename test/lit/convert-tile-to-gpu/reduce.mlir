// RUN: tt-opt %s --split-input-file --fuse --tile --convert-tile-to-gpu | FileCheck %s

// A row sum over 2 warps: each thread combines its vectors and lanes, the warp combines by
// butterfly shuffles (16, 8, 4, 2, 1), and the warps meet in shared memory between two
// barriers (lane 0 of each warp writes; every thread reads both).
// CHECK: llvm.mlir.global internal @__tt_reduce_scratch() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<128 x i8>
// CHECK: gpu.func @fused_0_kernel
// CHECK: vector.reduction <add>, %{{.*}} : vector<4xf32> into f32
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK: llvm.mlir.addressof @__tt_reduce_scratch : !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: llvm.store
// CHECK: gpu.barrier
// CHECK-COUNT-2: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
func.func @row_sums(%x: tensor<3x1000xf32>) -> tensor<3xf32> {
  %s = "prim.sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<3x1000xf32>) -> tensor<3xf32>
  return %s : tensor<3xf32>
}

// -----

// One warp: no shared memory, no barrier.
// CHECK-NOT: __tt_reduce_scratch
// CHECK: gpu.func @fused_0_kernel
// CHECK: vector.reduction <maximumf>
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @row_max(%x: tensor<3x100xf32>) -> tensor<3xf32> {
  %s = "prim.amax"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<3x100xf32>) -> tensor<3xf32>
  return %s : tensor<3xf32>
}
