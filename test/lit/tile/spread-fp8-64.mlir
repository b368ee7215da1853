// --tile's one-wave rule for fp8 past 64 rows on two rows of 64-row tiles (M 65-128, K >=
// 512) where the 128-row spread does not apply: the fewest columns, a multiple of 16 and at
// least 64, whose tiles make one wave (at most 132 programs), where those are at most 128;
// no split-K, K steps of 256. H200 cold, 128 x 6144 x 4096: 64x96x256 (128 programs) 11.6
// us against 13.0 on 64x128 (96 programs); bench/2026-11-29-h200-m128.md.
// RUN: tt-opt %s --decompose --fuse --splitk | FileCheck %s
// RUN: sed '/^func.func @n3584/,$d' %s | tt-opt --decompose --fuse --splitk | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// Not where the options name the columns, nor past 128 rows (three tile rows).
// RUN: tt-opt %s --decompose --fuse --tile='block-n=128' --splitk | FileCheck %s --check-prefix=ASKED
// RUN: sed 's/128x/200x/g' %s | tt-opt --decompose --fuse --splitk | FileCheck %s --check-prefix=M200

// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=64 block-n=96 block-k=256 num-warps=4 k-stagger=0"
// CHECK: "tile.dot"({{.*}}) {mma = "wgmma-direct"} : (tensor<64x256xf8E4M3FN>, tensor<256x96xf8E4M3FN>, tensor<64x96xf32>) -> tensor<64x96xf32>
// CHECK: grid = ["128", "1", "1"]
// CHECK-LABEL: func.func @fused_1_kernel
// CHECK-SAME: tile.geometry = "block-m=64 block-n=64 block-k=256 num-warps=4 k-stagger=0"
// CHECK: grid = ["112", "1", "1"]
// PTX: //@launch fused_0_kernel grid 128 1 1 block 160 1 1
// PTX: //@arg tma %1 6144x4096 box 96x128
// ASKED-LABEL: func.func @fused_0_kernel
// ASKED-SAME: tile.geometry = "block-m=64 block-n=128
// M200-LABEL: func.func @fused_0_kernel
// M200-NOT: block-m=64 block-n=96
func.func @n6144(%x: tensor<128x4096xf8E4M3FN>, %w: tensor<6144x4096xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<128x6144xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<6144x4096xf8E4M3FN>) -> tensor<4096x6144xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<128x4096xf8E4M3FN>, tensor<4096x6144xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<128x6144xbf16>
  return %y : tensor<128x6144xbf16>
}
func.func @n3584(%x: tensor<128x3584xf8E4M3FN>, %w: tensor<3584x3584xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<128x3584xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<3584x3584xf8E4M3FN>) -> tensor<3584x3584xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<128x3584xf8E4M3FN>, tensor<3584x3584xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<128x3584xbf16>
  return %y : tensor<128x3584xbf16>
}
