// --tile's spread rule for fp8 past 64 rows: 128-row tiles on 8 warps (wgmma's direct form,
// 64 rows a warpgroup) of the columns that spread N over one wave, where those are 64 to
// 128 (fp8's promoted accumulator holds at most 128 columns), K steps of 256. H200, 128 x
// 10240 x 8192: 128x80x256 (128 programs) 26.3 us against 30.9 on 128x128x256 (80).
// RUN: tt-opt %s --decompose --fuse --splitk | FileCheck %s
// RUN: tt-opt %s --decompose --fuse --splitk | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// Not where the options name the warps.
// RUN: tt-opt %s --decompose --fuse --tile='num-warps=4' --splitk | FileCheck %s --check-prefix=ASKED

// CHECK: func.func @fused_0_kernel({{.*}}tile.num_warps = 8
// CHECK: "tile.dot"({{.*}}) {mma = "wgmma-direct"} : (tensor<128x256xf8E4M3FN>, tensor<256x80xf8E4M3FN>, tensor<128x80xf32>) -> tensor<128x80xf32>
// CHECK: grid = ["128", "1", "1"]
// PTX: //@launch fused_0_kernel grid 128 1 1 block 256 1 1
// PTX: //@arg tma %0 128x8192 box 128x128
// PTX: //@arg tma %1 10240x8192 box 80x128
// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n80k32.f32.e4m3.e4m3
// PTX-NOT: wgmma.mma_async
// ASKED: func.func @fused_0_kernel({{.*}}tile.num_warps = 4
// ASKED: "tile.dot"({{.*}}) {mma = "wgmma"} : {{.*}} -> tensor<128x128xf32>
// ASKED: grid = ["80", "1", "1"]
func.func @scaled128(%x: tensor<128x8192xf8E4M3FN>, %w: tensor<10240x8192xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<128x10240xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<10240x8192xf8E4M3FN>) -> tensor<8192x10240xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<128x8192xf8E4M3FN>, tensor<8192x10240xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<128x10240xf16>
  return %y : tensor<128x10240xf16>
}
