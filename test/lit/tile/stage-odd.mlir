// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile=stage-odd=0 | FileCheck %s --check-prefix=OFF
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile=row-frame=0 | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile="peel-last=0 row-frame=0" --convert-tile-to-gpu | FileCheck %s --check-prefix=GPU
// RUN: tt-opt %s --decompose --fuse --tile --splitk | tt-translate --ptx -o %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// (row-frame=0: columns from the row's start; the aligned frame: row-frame.mlir.)
// A row of an odd width (50257 bf16: each row starts 2 bytes further on than the last)
// loads element by element. Under stage-odd=0 it stays out of shared memory: the looped form,
// 8192-element blocks on 16 warps (geometry-rows.c, UNALIGNED_LOOP_BLOCK), each pass
// loading the row again.
// OFF-LABEL: func.func @fused_0_kernel
// OFF-SAME: tile.num_warps = 16 : i32
// OFF-NOT: tile.local_alloc
// OFF: "tile.range"() {end = 8192 : i32, start = 0 : i32}
// OFF: scf.for
// OFF: "tile.load"
// By default (stage-odd=1) it may be staged as an aligned row is (rows.c, 3'): 13 chunks of 4096 copied
// to shared memory once a row, every pass reading the slots.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.local_alloc"() : () -> memref<13x1x4096xbf16, 3>
// CHECK-COUNT-13: "tile.async_copy"(%arg0,
// CHECK: "tile.async_wait"() {pending = 0 : i32}
// CHECK: scf.for
// CHECK: "tile.local_load"
// Its copy cannot be a cp.async (no 4-byte-aligned run): each element is loaded without a
// branch, from the tensor's start where the mask is off, zero selected there, and the
// group stored to its slot in one 16-byte store.
// GPU-LABEL: gpu.func @fused_0_kernel
// GPU-NOT: scf.if
// GPU: %[[P:[0-9]+]] = llvm.getelementptr %arg0[%{{[0-9]+}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, bf16
// GPU: %[[AT:[0-9]+]] = arith.select %[[ON:[0-9]+]], %[[P]], %arg0 : !llvm.ptr<1>
// GPU: %[[V:[0-9]+]] = llvm.load %[[AT]] : !llvm.ptr<1> -> bf16
// GPU: arith.select %[[ON]], %[[V]], %{{.*}} : bf16
// GPU: llvm.store %{{[0-9]+}}, %{{[0-9]+}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
func.func @rms_norm(%x: tensor<2048x50257xbf16>, %w: tensor<50257xbf16>) -> tensor<2048x50257xbf16> {
  %y = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32} : (tensor<2048x50257xbf16>, tensor<50257xbf16>) -> tensor<2048x50257xbf16>
  return %y : tensor<2048x50257xbf16>
}
