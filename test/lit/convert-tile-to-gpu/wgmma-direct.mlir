// wgmma's direct form (convert-tile-to-gpu 5w d): a tile whose N is not a multiple of 64
// per warpgroup (80 columns, which spread N = 10240 over 128 programs where 128 columns
// make 80) but whose M is 64 per warpgroup computes C = A B as it stands: one
// wgmma.m64n80 per K step with A as wgmma's A and B^T as its B, both K-major; warpgroup
// g reads A from row 64 g. B read [K, N] (not K-major) falls back to mma.sync. The PTX
// (TMA, fp8, through ptxas): tile/spread.mlir.
// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile='block-m=64 block-n=80 block-k=64' --convert-tile-to-gpu='mma=wgmma' | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile='block-m=128 block-n=80 block-k=128 num-warps=8' --convert-tile-to-gpu='mma=wgmma' | FileCheck %s --check-prefix=TWO

// CHECK-LABEL: gpu.func @fused_0_kernel
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 80, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: nvvm.mma.sync
// TWO-LABEL: gpu.func @fused_0_kernel
// TWO-SAME: known_block_size = array<i32: 256, 1, 1>
// warpgroup g's A (wgmma's A: the first operand) starts 64 rows (8192 bytes, 512 in
// descriptor units) further
// TWO: %[[OFF:.*]] = arith.muli %{{.*}}, %c512_i64
// TWO-NEXT: %[[DA:.*]] = arith.addi %[[OFF]], %{{.*}} : i64
// TWO: %[[A0:.*]] = arith.addi %[[DA]], %c0_i64
// TWO: nvvm.wgmma.mma_async %[[A0]], %{{.*}}, %{{.*}}, <m = 64, n = 80, k = 16>
// TWO-COUNT-7: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 80, k = 16>
// TWO-NOT: nvvm.mma.sync
func.func @linear(%x: tensor<50x512xf16>, %w: tensor<400x512xf16>) -> tensor<50x400xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<50x512xf16>, tensor<400x512xf16>) -> tensor<50x400xf16>
  return %y : tensor<50x400xf16>
}

// -----

// B read as [K, N]: the direct form needs it K-major, so mma.sync.
// CHECK-LABEL: gpu.func @fused_0_kernel
// CHECK-NOT: wgmma
// CHECK: nvvm.mma.sync
// TWO-LABEL: gpu.func @fused_0_kernel
// TWO-NOT: wgmma
// TWO: nvvm.mma.sync
func.func @matmul(%a: tensor<50x512xf16>, %b: tensor<512x400xf16>) -> tensor<50x400xf16> {
  %y = "prim.matmul"(%a, %b) : (tensor<50x512xf16>, tensor<512x400xf16>) -> tensor<50x400xf16>
  return %y : tensor<50x400xf16>
}
