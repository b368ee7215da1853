// --tile's defaults where 128-column tiles leave SMs idle: N = 10240 makes 80 programs of
// 128 columns on 132 SMs, so 64-row tiles take 80 columns (the fewest multiple of 16 that
// fits one wave: 128 programs), which wgmma runs in its direct form (m64n80). H200,
// 64 x 10240 x 8192: fp8 24.4 -> 22.2 us, f16 44.5 -> 41.7.
// RUN: tt-opt %s --decompose --fuse --splitk | FileCheck %s
// RUN: tt-opt %s --decompose --fuse --splitk | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// Not where the options name the tile's columns or rows.
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64' --splitk | FileCheck %s --check-prefix=ASKED

// CHECK: "tile.dot"({{.*}}) {mma = "wgmma-direct"} : (tensor<64x256xf8E4M3FN>, tensor<256x80xf8E4M3FN>, tensor<64x80xf32>) -> tensor<64x80xf32>
// CHECK: grid = ["128", "1", "1"]
// PTX: //@launch fused_0_kernel grid 128 1 1 block 160 1 1
// PTX: //@arg tma %1 10240x8192 box 80x128
// PTX: wgmma.mma_async.sync.aligned.m64n80k32.f32.e4m3.e4m3
// ASKED: "tile.dot"({{.*}}) {mma = "wgmma"} : {{.*}} -> tensor<64x128xf32>
// ASKED: grid = ["80", "1", "1"]
func.func @scaled(%x: tensor<64x8192xf8E4M3FN>, %w: tensor<10240x8192xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<64x10240xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<10240x8192xf8E4M3FN>) -> tensor<8192x10240xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<64x8192xf8E4M3FN>, tensor<8192x10240xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<64x10240xf16>
  return %y : tensor<64x10240xf16>
}
