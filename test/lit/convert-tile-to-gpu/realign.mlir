// RUN: tt-opt %s --mlir-print-debuginfo=false --fuse --tile --convert-tile-to-gpu | FileCheck %s

// Step 1c: rows of 3001 f16 (6002 bytes: no row but every eighth starts on a 16-byte
// boundary) are stored in 16-byte stores realigned across the warp: each lane shuffles in
// the previous lane's group (four words, its first offset and whether it is all on), the
// next lane says whether it realigned too, and the 16 aligned bytes that end inside the
// lane's group are a funnel shift of the eight words. Lanes with nothing to pair with
// store element by element (step 1b).
// CHECK: gpu.func @fused_0_kernel
// CHECK-COUNT-4: gpu.shuffle  up
// CHECK: gpu.shuffle  up
// CHECK: gpu.shuffle  up
// CHECK: gpu.shuffle  down
// CHECK-COUNT-4: llvm.intr.fshr
// CHECK: scf.if
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK: scf.if
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK: llvm.store %{{.*}}, %{{.*}} {{.*}}: f16, !llvm.ptr<1>
func.func @centre(%x: tensor<4x3001xf16>) -> tensor<4x3001xf16> {
  %m = "prim.amax"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<4x3001xf16>) -> tensor<4xf16>
  %b = "prim.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf16>) -> tensor<4x3001xf16>
  %y = "prim.sub"(%x, %b) : (tensor<4x3001xf16>, tensor<4x3001xf16>) -> tensor<4x3001xf16>
  return %y : tensor<4x3001xf16>
}

// Rows of 3008 (16-byte aligned) take the plain 16-byte path: no shuffle.
// CHECK: gpu.func @fused_1_kernel
// CHECK-NOT: gpu.shuffle  up
// CHECK: gpu.return
func.func @aligned(%x: tensor<4x3008xf16>) -> tensor<4x3008xf16> {
  %m = "prim.amax"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<4x3008xf16>) -> tensor<4xf16>
  %b = "prim.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf16>) -> tensor<4x3008xf16>
  %y = "prim.sub"(%x, %b) : (tensor<4x3008xf16>, tensor<4x3008xf16>) -> tensor<4x3008xf16>
  return %y : tensor<4x3008xf16>
}
