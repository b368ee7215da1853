// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile --convert-tile-to-gpu | FileCheck %s
// RUN: tt-translate --ptx %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// A staged row of f32 in a kernel whose narrowest element is bf16 (the result): runs are
// 8 elements (16 bytes of bf16), 32 bytes of f32, so each run of a tile.async_copy is two
// 16-byte cp.async, the second 4 elements on. (Three rows of 65536 are few: staged over a
// cluster of 8, parts of two 4096-element chunks.)
// CHECK-LABEL: gpu.func @fused_0_kernel
// CHECK: nvvm.cp.async.shared.global %[[D:[0-9]+]], %[[S:[0-9]+]], 16, cache = cg, %[[N:[0-9]+]]
// CHECK: %[[S2:[0-9]+]] = llvm.getelementptr %[[S]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK: %[[D2:[0-9]+]] = llvm.getelementptr %[[D]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: nvvm.cp.async.shared.global %[[D2]], %[[S2]], 16, cache = cg, %[[N]]
// PTX: //@launch fused_0_kernel grid 24 1 1 block 512 1 1 {{.*}}cluster 8
// PTX-COUNT-4: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16
// PTX-NOT: cp.async.cg.shared.global
func.func @rowsum(%x: tensor<3x65536xf32>) -> tensor<3xbf16> {
  %s = "prim.sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<3x65536xf32>) -> tensor<3xf32>
  %y = "prim.convert"(%s) : (tensor<3xf32>) -> tensor<3xbf16>
  return %y : tensor<3xbf16>
}
