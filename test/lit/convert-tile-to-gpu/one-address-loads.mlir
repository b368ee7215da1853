// masked-loads=2 (the default): a tile.load whose lanes all read one
// address - here a scaled_mm's f32 scales, broadcast over a C tile whose rows pass M = 96
// and so carry a row mask - is one scalar load a group, from the scale where any lane is
// on (else the tensor's start), and a select of `other` per lane. With masked-loads=1 the
// group's masked path loads lane by lane behind a branch each.
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile='clamp-rows=0' --convert-tile-to-gpu | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile='clamp-rows=0' --convert-tile-to-gpu=masked-loads=1 | FileCheck %s --check-prefix=LANES
// RUN: tt-opt %s --decompose --fuse --splitk | tt-opt --convert-tile-to-gpu | tt-translate --ptx -o %t.ptx
// RUN: not tt-opt %s --convert-tile-to-gpu=masked-loads=3 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// CHECK-LABEL: gpu.func @fused_0_kernel
// CHECK-NOT: scf.if {{.*}} -> (f32)
// CHECK: %[[P:.*]] = llvm.getelementptr %arg2[
// CHECK-NEXT: %[[AT:.*]] = arith.select %[[ANY:.*]], %[[P]], %arg2 : !llvm.ptr<1>
// CHECK-NEXT: %[[V:.*]] = llvm.load %[[AT]] : !llvm.ptr<1> -> f32
// CHECK: arith.select %[[ANY]], %[[V]], %{{.*}} : f32
// CHECK: gpu.return
// LANES-LABEL: gpu.func @fused_0_kernel
// LANES: scf.if {{.*}} -> (f32)
// RANGE: error: option 'masked-loads' of pass 'convert-tile-to-gpu' is 3, out of range [0, 2]
func.func @main(%x: tensor<96x4096xf8E4M3FN>, %w: tensor<6144x4096xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<96x6144xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<6144x4096xf8E4M3FN>) -> tensor<4096x6144xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<96x4096xf8E4M3FN>, tensor<4096x6144xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<96x6144xbf16>
  return %y : tensor<96x6144xbf16>
}
