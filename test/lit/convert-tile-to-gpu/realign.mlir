// RUN: tt-opt %s --mlir-print-debuginfo=false --fuse --tile=row-frame=0 --convert-tile-to-gpu | FileCheck %s

// Step 1c (row-frame=0: the aligned frame would align these rows instead): rows of 3001 f16 (6002 bytes: no row but every eighth starts on a 16-byte
// boundary) are stored in 16-byte stores realigned across the warp: each lane shuffles in
// the previous lane's group (four words, its first offset and whether it is all on), the
// next lane says whether it realigned too. A group all on (the `and` of the row and the
// column masks: one compare each) shifts the words of the two groups and zeros into the
// aligned windows W and W' (a barrel shifter of selects, then eight funnel shifts) and
// stores its group as it is (aligned), or W (realigned), then its head (W's last VEC - m
// elements) and tail (W''s first m) as naturally aligned stores of 2, 4 and 8 bytes; a
// group not all on stores element by element under the mask.
// CHECK: gpu.func @fused_0_kernel
// CHECK-COUNT-4: gpu.shuffle  up
// CHECK: gpu.shuffle  up
// CHECK: gpu.shuffle  up
// CHECK: gpu.shuffle  down
// CHECK: scf.if
// CHECK-COUNT-8: llvm.intr.fshr
// CHECK: scf.if
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK: scf.if
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : i16, !llvm.ptr<1>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : i16, !llvm.ptr<1>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : i64, !llvm.ptr<1>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : i64, !llvm.ptr<1>
// CHECK: } else {
// CHECK: llvm.store %{{.*}}, %{{.*}} : f16, !llvm.ptr<1>
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
