// tile.dot on warpgroup MMA (mma=wgmma, what tt-translate picks for sm_90a): operands
// staged through registers into 128-byte-swizzled shared memory, C^T = B^T A^T so M is
// wgmma's narrow side n, descriptors of the swizzled tiles, and the fences, commit and
// wait around the K steps. Tiles that do not fit a warpgroup fall back to mma.sync.
// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile='block-m=16 block-n=64 block-k=128' --convert-tile-to-gpu='mma=wgmma' | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile='block-m=32 block-n=64 block-k=128 num-warps=8' --convert-tile-to-gpu='mma=wgmma' | FileCheck %s --check-prefix=WIDE
// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile='block-m=16 block-n=64 block-k=128' --convert-tile-to-gpu | FileCheck %s --check-prefix=SYNC
// RUN: not tt-opt %s --convert-tile-to-gpu='mma=hmma' 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: error: option 'mma' of pass 'convert-tile-to-gpu' is 'hmma'; expected one of: sync, wgmma

// A linear layer (w is [N, K]: both operands K-major). The buffer holds A (16 x 128) and
// B^T (64 x 128) in f16, aligned for the 1024-byte swizzle atoms.
// CHECK-LABEL: gpu.module @tt_kernels
// CHECK: llvm.mlir.global internal @__tt_smem_fused_0_kernel() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<20480 x i8>
// CHECK-LABEL: gpu.func @fused_0_kernel
// chunk (col / 8) % 8 of a row goes to chunk ^ (row % 8)
// CHECK: %[[C8:.*]] = arith.shrui %{{.*}}, %c3_i32
// CHECK: %[[CH:.*]] = arith.andi %[[C8]], %c7_i32
// CHECK: %[[R8:.*]] = arith.andi %{{.*}}, %c7_i32
// CHECK: arith.xori %[[CH]], %[[R8]]
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// descriptors: start address / 16, SBO 1024 (64 << 32), swizzle 128B (1 << 62)
// CHECK: llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
// CHECK: arith.ori %{{.*}}, %c4611686293305294848_i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-8: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 16, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: nvvm.mma.sync
// Two warpgroups need N to be a multiple of 128: mma.sync.
// WIDE-LABEL: gpu.func @fused_0_kernel
// WIDE-NOT: wgmma
// WIDE: nvvm.mma.sync
// SYNC-LABEL: gpu.func @fused_0_kernel
// SYNC-NOT: wgmma
// SYNC: nvvm.mma.sync
func.func @linear(%x: tensor<16x512xf16>, %w: tensor<256x512xf16>) -> tensor<16x256xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x512xf16>, tensor<256x512xf16>) -> tensor<16x256xf16>
  return %y : tensor<16x256xf16>
}

// -----

// A bf16 matmul with b as [K, N] (N contiguous): B^T is stored as [K][64] blocks and read
// transposed (layout col), the next block of 16 K rows 2048 bytes on.
// CHECK-LABEL: gpu.func @fused_0_kernel
// CHECK-COUNT-8: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 16, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <col>], B[<bf16>, <one>, <col>]
func.func @matmul(%a: tensor<16x512xbf16>, %b: tensor<512x256xbf16>) -> tensor<16x256xbf16> {
  %c = "prim.matmul"(%a, %b) : (tensor<16x512xbf16>, tensor<512x256xbf16>) -> tensor<16x256xbf16>
  return %c : tensor<16x256xbf16>
}

// -----

// fp8 operands are widened to f16 on the way to shared memory.
// CHECK-LABEL: gpu.func @fused_0_kernel
// CHECK: nvvm.convert.f8x2.to.f16x2
// CHECK: nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
func.func @fp8(%x: tensor<16x512xf8E4M3FN>, %w: tensor<256x512xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<16x256xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<256x512xf8E4M3FN>) -> tensor<512x256xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<16x512xf8E4M3FN>, tensor<512x256xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<16x256xf16>
  return %y : tensor<16x256xf16>
}
