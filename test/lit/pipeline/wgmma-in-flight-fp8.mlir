// --pipeline wgmma-in-flight=1 leaves fp8 dots alone: each adds its fresh fp8 sum to the
// f32 accumulator at once (promotion), so it waits for its own wgmma; the refill stays
// before the dot, as without the option.
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=128 block-k=128' --splitk='split-k=1' --pipeline='num-stages=3 stage-in=tma wgmma-in-flight=1' | FileCheck %s
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=128 block-k=128' --splitk='split-k=1' --pipeline='num-stages=3 stage-in=tma wgmma-in-flight=1' --convert-tile-to-gpu='mma=wgmma' | FileCheck %s --check-prefix=GPU

// CHECK-LABEL: func.func @fused_0_kernel(
// CHECK-NOT: hopper.wgmma_wait
// CHECK: "tile.barrier"()
// CHECK: "hopper.tma_load"
// CHECK: "tile.dot"
// CHECK-NOT: hopper.wgmma_wait
// CHECK: "tile.store"
// GPU: nvvm.wgmma.commit.group.sync.aligned
// GPU-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// GPU-NOT: nvvm.wgmma.wait.group.sync.aligned 1
func.func @scaled(%x: tensor<64x1024xf8E4M3FN>, %w: tensor<256x1024xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<64x256xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<256x1024xf8E4M3FN>) -> tensor<1024x256xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<64x1024xf8E4M3FN>, tensor<1024x256xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<64x256xf16>
  return %y : tensor<64x256xf16>
}
