// --tile's prefill step (passes/tile/geometry.c step 0, f16PrefillShape and prefillCost):
// past 128 rows with K deeper than 2048, f16/bf16 dots run the rules with 128-row tiles and
// without, and with 128x256 and 128x96 tiles on 8 warps, and keep the cheapest by the model
// (the busiest SM's tensor work over the tile's rate, prefillRates; 128-row tiles at 1.5
// times a 64-row tile's; bench/2026-11-29-h200-prefill-tune.md).
// RUN: tt-opt %s --split-input-file --decompose --fuse --tile | FileCheck %s
// A given block-m, block-n or num-warps leaves the step out (the user's tile, the rules'
// picks for the rest).
// RUN: tt-opt %s --split-input-file --decompose --fuse --tile='block-m=64' | FileCheck %s --check-prefix=USER
// A given block-k keeps the step's two rule picks but not its 128x96 and 128x256 tiles
// (their rates were measured at their own K steps).
// RUN: tt-opt %s --split-input-file --decompose --fuse --tile='block-k=64' | FileCheck %s --check-prefix=USERK

// 512 x 3584^2: 64x112 tiles on 256 programs (2 an SM: 2 x 64 x 112 = 14336 rows x
// columns) against 128x128 on 112 (1 an SM: 16384 at 1.5 times the rate): 128 rows.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=128 block-n=128 block-k=128 num-warps=4
// USER-LABEL: func.func @fused_0_kernel
// USER-SAME: tile.geometry = "block-m=64 block-n=64 block-k=128 num-warps=4
func.func @rows128(%x: tensor<512x3584xf16>, %w: tensor<3584x3584xf16>) -> tensor<512x3584xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<512x3584xf16>, tensor<3584x3584xf16>) -> tensor<512x3584xf16>
  return %y : tensor<512x3584xf16>
}

// -----

// 700 x 2048 x 8192: 128x128 tiles make 96 programs (one wave, 73% of the SMs); 128x96 on
// 8 warps (four 128-deep stages fit 225 KiB) make 132, one an SM: 12288 rows x columns at
// 1.43 against 16384 at 1.5.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=128 block-n=96 block-k=128 num-warps=8
// USERK: tile.geometry = "block-m=128 block-n=128 block-k=64 num-warps=4 {{.*}} tile.tune_key = "dot 1x700x2048x8192
func.func @rows128_fill96(%x: tensor<700x8192xf16>, %w: tensor<2048x8192xf16>) -> tensor<700x2048xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<700x8192xf16>, tensor<2048x8192xf16>) -> tensor<700x2048xf16>
  return %y : tensor<700x2048xf16>
}

// -----

// 450 x 3584 x 14336: 128x96 would make 152 programs, two an SM on 20 SMs; 128x128 make
// 112, one wave: 128x128 stays. 128 x 256 (56 programs, one wave) is not weighed.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=128 block-n=128 block-k=128 num-warps=4
func.func @rows128_one_wave(%x: tensor<450x14336xf16>, %w: tensor<3584x14336xf16>) -> tensor<450x3584xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<450x14336xf16>, tensor<3584x14336xf16>) -> tensor<450x3584xf16>
  return %y : tensor<450x3584xf16>
}

// -----

// 2048 x 4096 x 4096: 128x256 on 8 warps (256 programs, two an SM's worth of work at 1.61)
// against 128x128 two blocks an SM (512, four at 1.58): 128x256.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=128 block-n=256 block-k=64 num-warps=8
// USERK: tile.geometry = "block-m=128 block-n=128 block-k=64 num-warps=4 {{.*}} tile.tune_key = "dot 1x2048x4096x4096
func.func @rows128_wide(%x: tensor<2048x4096xf16>, %w: tensor<4096x4096xf16>) -> tensor<2048x4096xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<2048x4096xf16>, tensor<4096x4096xf16>) -> tensor<2048x4096xf16>
  return %y : tensor<2048x4096xf16>
}

// -----

// 700 x 1536 x 8960 bf16: 128x128 tiles make 72 programs (two slices would be 144, past
// 132 SMs: no split), 55% of the SMs busy; 64x128 tiles make 132, one an SM; rows fitted
// to M, 5 tile rows of 144, make 60, two slices 120 on one wave of half the 64-row tiles'
// B re-reads (H200 warm 37.9 -> 33.5 us against 64x128, bench/2026-11-29-h200-prefill-tune.md
// section 16). Fails without the fitted candidate (64 rows).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=144 block-n=128 block-k=128 num-warps=8
func.func @rows_fit(%x: tensor<700x8960xbf16>, %w: tensor<1536x8960xbf16>) -> tensor<700x1536xbf16> {
  %y = "prim.linear"(%x, %w) : (tensor<700x8960xbf16>, tensor<1536x8960xbf16>) -> tensor<700x1536xbf16>
  return %y : tensor<700x1536xbf16>
}

// -----

// K <= 2048 (640 x 1536^2): the rules alone, 64x64 tiles.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=64 block-n=64 block-k=128 num-warps=4
func.func @shallow(%x: tensor<640x1536xf16>, %w: tensor<1536x1536xf16>) -> tensor<640x1536xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<640x1536xf16>, tensor<1536x1536xf16>) -> tensor<640x1536xf16>
  return %y : tensor<640x1536xf16>
}

// -----

// fp8: 128x128 tiles past two waves (512 x 14336 x 4096: 448 programs, 4 an SM; 128x96's 600
// would be 5) keep K steps of 256 on one block an SM (tmaKDepth's fp8Rows128Doubled; 128-deep
// steps two blocks an SM took 1.17x the time, bench/2026-11-29-h200-prefill-tune.md section 9).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=128 block-n=128 block-k=256 num-warps=8
func.func @fp8_past_two_waves(%x: tensor<512x4096xf8E4M3FN>, %w: tensor<14336x4096xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<512x14336xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<14336x4096xf8E4M3FN>) -> tensor<4096x14336xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<512x4096xf8E4M3FN>, tensor<4096x14336xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<512x14336xf16>
  return %y : tensor<512x14336xf16>
}

// -----

// fp8, step 0's fp8 model: 768 x 4096^2 on 128x128 tiles is 192 programs (2 an SM); 128x96
// makes 258, still 2 an SM, each a quarter less work: 128x96 x 256 on 8 warps (0.85x the
// time at 600 rows, bench/2026-11-29-h200-prefill-tune.md section 11); rows fitted to M (5
// tile rows of 160) make 160 programs, 2 an SM of more work. Fails on the rules alone.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=128 block-n=96 block-k=256 num-warps=8
func.func @fp8_prefill_96(%x: tensor<768x4096xf8E4M3FN>, %w: tensor<4096x4096xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<768x4096xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<4096x4096xf8E4M3FN>) -> tensor<4096x4096xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<768x4096xf8E4M3FN>, tensor<4096x4096xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<768x4096xf16>
  return %y : tensor<768x4096xf16>
}

// -----

// fp8 rows fitted to M: 257 x 6144 x 4096 on 128-row tiles is 3 tile rows (the third of one
// row), 192 programs of 128x96, two waves; 2 tile rows of 144 make 96 programs of 144x128,
// one wave (H200 warm 21.9 -> 14.4 us, cuBLAS fp8 14.2: section 16). Fails without the
// fitted candidate.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=144 block-n=128 block-k=256 num-warps=8
func.func @fp8_rows_fit(%x: tensor<257x4096xf8E4M3FN>, %w: tensor<6144x4096xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<257x6144xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<6144x4096xf8E4M3FN>) -> tensor<4096x6144xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<257x4096xf8E4M3FN>, tensor<4096x6144xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<257x6144xf16>
  return %y : tensor<257x6144xf16>
}

// -----

// Not fitted where that would split a one-wave pick into slices of K <= 2048: 300 x 4096^2
// fp8 on 128x96 is 129 programs, one wave; 2 tile rows of 160 make 64, split 2 ways (H200
// warm 11.1 -> 13.1 us, section 16). Fails without fitRows' split rule.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=128 block-n=96 block-k=256 num-warps=8
func.func @fp8_fit_no_split(%x: tensor<300x4096xf8E4M3FN>, %w: tensor<4096x4096xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<300x4096xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<4096x4096xf8E4M3FN>) -> tensor<4096x4096xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<300x4096xf8E4M3FN>, tensor<4096x4096xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<300x4096xf16>
  return %y : tensor<300x4096xf16>
}

// -----

// fp8, where the model keeps fp8's pick: 3000 x 3584^2 on 128x128 tiles is 672 programs (6
// rounds); 128x96 makes 912 (7 rounds). At 0.85 of the pick's rate 7 rounds of 128x96 cost
// more than 6 of 128x128 (they measured 1.06x the time, bench/2026-11-29-h200-prefill-tune.md
// section 11). Fails at a rate of 0.9.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=128 block-n=128 block-k=256 num-warps=8
func.func @fp8_prefill_keeps(%x: tensor<3000x3584xf8E4M3FN>, %w: tensor<3584x3584xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<3000x3584xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<3584x3584xf8E4M3FN>) -> tensor<3584x3584xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<3000x3584xf8E4M3FN>, tensor<3584x3584xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<3000x3584xf16>
  return %y : tensor<3000x3584xf16>
}
