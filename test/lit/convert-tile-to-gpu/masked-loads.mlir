// RUN: tt-opt %s --mlir-print-debuginfo=false --fuse --tile --convert-tile-to-gpu=masked-loads=0 | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --fuse --tile --convert-tile-to-gpu | FileCheck %s --check-prefix=SEL

// A masked vector load: rows of 1000 f32 on a block of 1024, the mask `column < 1000`
// constant over each group of 4. With masked-loads=0 a branch: all lanes on ? load : other.
// CHECK-LABEL: gpu.func @fused_0_kernel
// CHECK: scf.if %{{.*}} -> (vector<4xf32>)
// CHECK: llvm.getelementptr
// CHECK-NEXT: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// By default (masked-loads=2; 1 the same here) no branch: the address is the group's where on, the tensor's start
// where off, and `other` is selected after the load.
// SEL-LABEL: gpu.func @fused_0_kernel
// SEL-NOT: scf.if {{.*}} -> (vector<4xf32>)
// SEL: %[[P:.*]] = llvm.getelementptr %arg0[
// SEL-NEXT: %[[AT:.*]] = arith.select %[[ON:.*]], %[[P]], %arg0 : !llvm.ptr<1>
// SEL-NEXT: %[[V:.*]] = llvm.load %[[AT]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// SEL-NEXT: arith.select %[[ON]], %[[V]], %{{.*}} : vector<4xf32>
func.func @rowsum(%x: tensor<3x1000xf32>) -> tensor<3xf32> {
  %y = "prim.sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<3x1000xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
