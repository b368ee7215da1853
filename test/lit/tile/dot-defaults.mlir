// --tile's default dot geometry (the rule tables of passes/tile/geometry.c, from H100 and
// H200 sweeps: bench/geometry-rules.md): for 2-D f16/bf16 operands TMA can read, the TMA
// sweep's tiles (bench/2026-11-23-h100-tma-tune.md); otherwise (fp8, batched, rows not a
// multiple of 8) the register-staging sweeps (bench/2026-11-23-h100-geometry.md): block-m
// from M, block-n/block-k/warps from the grid's width (more than 132 programs of 64
// columns, one per SM, is "wide"; more than 256 "very wide"), fp8 like f16 but 2 warps when
// very wide; and batched 3-D matmuls.
// Rows TMA cannot stride stay unpadded here (--decompose's align-k=0), so those dots show
// the register-staging tables; test/lit/decompose/align-k.mlir has the padding.
// RUN: tt-opt %s --split-input-file --decompose='align-k=0' --fuse --tile | FileCheck %s
// tma=0 (mma.sync targets): the register-staging table for every dot (M = 64 narrow: 8 warps).
// RUN: tt-opt %s --split-input-file --decompose='align-k=0' --fuse --tile='tma=0' | FileCheck %s --check-prefix=REG

// f16/bf16 operands TMA can read (the TMA sweep, bench/2026-11-23-h100-tma-tune.md):
// M <= 16: 16x64x256 tiles, 4 warps.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 4
// CHECK: "tile.dot"({{.*}}) {mma = "wgmma"} : (tensor<16x256xf16>, tensor<256x64xf16>, tensor<16x64xf32>) -> tensor<16x64xf32>
func.func @m16(%x: tensor<16x8192xf16>, %w: tensor<8192x8192xf16>) -> tensor<16x8192xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x8192xf16>, tensor<8192x8192xf16>) -> tensor<16x8192xf16>
  return %y : tensor<16x8192xf16>
}

// -----

// M = 32 on a narrow grid (128 programs of 64 columns): 32x64x256.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 4
// CHECK: "tile.dot"({{.*}}) {mma = "wgmma"} : (tensor<32x256xf16>, tensor<256x64xf16>, tensor<32x64xf32>) -> tensor<32x64xf32>
func.func @m32_narrow(%x: tensor<32x8192xf16>, %w: tensor<8192x8192xf16>) -> tensor<32x8192xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<32x8192xf16>, tensor<8192x8192xf16>) -> tensor<32x8192xf16>
  return %y : tensor<32x8192xf16>
}

// -----

// M = 32 on a wide grid (448 programs of 64 columns, 224 of 128 columns, 112 of 256:
// one wave): 256 columns with K steps of one 128-byte row, 32x256x64.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 4
// CHECK: "tile.dot"({{.*}}) {mma = "wgmma"} : (tensor<32x64xf16>, tensor<64x256xf16>, tensor<32x256xf32>) -> tensor<32x256xf32>
func.func @m32_wide(%x: tensor<32x8192xf16>, %w: tensor<28672x8192xf16>) -> tensor<32x28672xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<32x8192xf16>, tensor<28672x8192xf16>) -> tensor<32x28672xf16>
  return %y : tensor<32x28672xf16>
}

// -----

// M = 64 on a wide grid (224 programs of 64x128, past one wave): K steps of 64, whose 3
// stages (72 KiB) let two blocks share an SM (3 stages of 64x128x128 would need 144 KiB):
// 64x128x64.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 4
// CHECK: "tile.dot"({{.*}}) {mma = "wgmma"} : (tensor<64x64xf16>, tensor<64x128xf16>, tensor<64x128xf32>) -> tensor<64x128xf32>
func.func @m64_waves(%x: tensor<64x8192xf16>, %w: tensor<28672x8192xf16>) -> tensor<64x28672xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<64x8192xf16>, tensor<28672x8192xf16>) -> tensor<64x28672xf16>
  return %y : tensor<64x28672xf16>
}

// -----

// M = 64, narrow: 64x64 tiles, 128 programs (one wave, more than half the SMs: no
// split-K), so K steps of 256 (one program an SM keeps more of the weight in flight).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 4
// REG: func.func @fused_0_kernel({{.*}}tile.num_warps = 8
// REG: "tile.dot"({{.*}}) {mma = "sync"} : (tensor<64x128xf16>, tensor<128x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
// CHECK: "tile.dot"({{.*}}) {mma = "wgmma"} : (tensor<64x256xf16>, tensor<256x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
func.func @m64(%x: tensor<64x8192xf16>, %w: tensor<8192x8192xf16>) -> tensor<64x8192xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<64x8192xf16>, tensor<8192x8192xf16>) -> tensor<64x8192xf16>
  return %y : tensor<64x8192xf16>
}

// -----

// M = 64, wide (160 programs of 64 columns), where 128 columns leave SMs idle (80
// programs): 80 columns, the fewest multiple of 16 that fits one wave (128 programs;
// wgmma's direct form), 64x80x128.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 4
// CHECK: "tile.dot"({{.*}}) {mma = "wgmma-direct"} : (tensor<64x128xf16>, tensor<128x80xf16>, tensor<64x80xf32>) -> tensor<64x80xf32>
// CHECK: grid = ["128", "1", "1"]
func.func @m64_wide(%x: tensor<64x8192xf16>, %w: tensor<10240x8192xf16>) -> tensor<64x10240xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<64x8192xf16>, tensor<10240x8192xf16>) -> tensor<64x10240xf16>
  return %y : tensor<64x10240xf16>
}

// -----

// The same grid with B read [K, N] (a matmul, not a linear layer): wgmma's direct form
// needs B K-major, so the 80-program 64x128x128 tiles stay.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.dot"({{.*}}) {mma = "wgmma"} : (tensor<64x128xf16>, tensor<128x128xf16>, tensor<64x128xf32>) -> tensor<64x128xf32>
// CHECK: grid = ["80", "1", "1"]
func.func @m64_wide_kn(%a: tensor<64x8192xf16>, %b: tensor<8192x10240xf16>) -> tensor<64x10240xf16> {
  %c = "prim.matmul"(%a, %b) : (tensor<64x8192xf16>, tensor<8192x10240xf16>) -> tensor<64x10240xf16>
  return %c : tensor<64x10240xf16>
}

// -----

// M = 128 while 64x128 tiles make one wave (128 programs): f16 64x64x128 (256 programs,
// two blocks per SM).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 4
// CHECK: "tile.dot"({{.*}}) {mma = "wgmma"} : (tensor<64x128xf16>, tensor<128x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
func.func @m128(%x: tensor<128x8192xf16>, %w: tensor<8192x8192xf16>) -> tensor<128x8192xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<128x8192xf16>, tensor<8192x8192xf16>) -> tensor<128x8192xf16>
  return %y : tensor<128x8192xf16>
}

// -----

// M = 128 past one wave of 64x128 tiles (160), where 128x128 tiles leave SMs idle (80
// programs): f16 on 64-row tiles of 80 columns, two programs per SM (256), 64x80x128.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 4
// CHECK: "tile.dot"({{.*}}) {mma = "wgmma-direct"} : (tensor<64x128xf16>, tensor<128x80xf16>, tensor<64x80xf32>) -> tensor<64x80xf32>
// CHECK: grid = ["256", "1", "1"]
func.func @m128_wide(%x: tensor<128x8192xf16>, %w: tensor<10240x8192xf16>) -> tensor<128x10240xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<128x8192xf16>, tensor<10240x8192xf16>) -> tensor<128x10240xf16>
  return %y : tensor<128x10240xf16>
}

// -----

// Past 4 waves of 128x128 tiles (2048 programs): 128x256x64 on 8 warps.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 8
// CHECK: "tile.dot"({{.*}}) {mma = "wgmma"} : (tensor<128x64xf16>, tensor<64x256xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
func.func @m4096(%x: tensor<4096x8192xf16>, %w: tensor<8192x8192xf16>) -> tensor<4096x8192xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<4096x8192xf16>, tensor<8192x8192xf16>) -> tensor<4096x8192xf16>
  return %y : tensor<4096x8192xf16>
}

// -----

// Rows TMA cannot stride (K = 4100: not a multiple of 8), from the register-staging
// sweeps: M = 32 narrow: 32x32x256 tiles, 4 warps.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 4
// CHECK: "tile.dot"({{.*}}) {mma = "sync"} : (tensor<32x256xf16>, tensor<256x32xf16>, tensor<32x32xf32>) -> tensor<32x32xf32>
func.func @m32_odd(%x: tensor<32x4100xf16>, %w: tensor<8192x4100xf16>) -> tensor<32x8192xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<32x4100xf16>, tensor<8192x4100xf16>) -> tensor<32x8192xf16>
  return %y : tensor<32x8192xf16>
}

// -----

// M = 64, narrow: 64x64x128 on 8 warps.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 8
// CHECK: "tile.dot"({{.*}}) {mma = "sync"} : (tensor<64x128xf16>, tensor<128x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
func.func @m64_odd(%x: tensor<64x4100xf16>, %w: tensor<8192x4100xf16>) -> tensor<64x8192xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<64x4100xf16>, tensor<8192x4100xf16>) -> tensor<64x8192xf16>
  return %y : tensor<64x8192xf16>
}

// -----

// fp8 with K-major operands TMA can read (K = 8192): the TMA table, as f16 (N = 28672:
// 128-column tiles would pass one wave, 256-column ones make one: 16x256 with K steps of
// one 128-byte row, 16x256x128, on 4 warps).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 4
// CHECK: "tile.dot"({{.*}}) {mma = "wgmma"} : (tensor<16x128xf8E4M3FN>, tensor<128x256xf8E4M3FN>, tensor<16x256xf32>) -> tensor<16x256xf32>
func.func @fp8_tma(%x: tensor<1x8192xf8E4M3FN>, %w: tensor<28672x8192xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<1x28672xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<28672x8192xf8E4M3FN>) -> tensor<8192x28672xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<1x8192xf8E4M3FN>, tensor<8192x28672xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<1x28672xf16>
  return %y : tensor<1x28672xf16>
}

// -----

// fp8 on a grid of at most one program per SM (N = 10240: 80 programs of 128 columns):
// K steps of the f16 tiles' bytes, twice the elements (16x128x256).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 4
// CHECK: "tile.dot"({{.*}}) {mma = "wgmma"} : (tensor<16x256xf8E4M3FN>, tensor<256x128xf8E4M3FN>, tensor<16x128xf32>) -> tensor<16x128xf32>
func.func @fp8_one_wave(%x: tensor<1x8192xf8E4M3FN>, %w: tensor<10240x8192xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<1x10240xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<10240x8192xf8E4M3FN>) -> tensor<8192x10240xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<1x8192xf8E4M3FN>, tensor<8192x10240xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<1x10240xf16>
  return %y : tensor<1x10240xf16>
}

// -----

// fp8 on 128-row tiles (M = 128, N = 28672: 224 programs of 128x128, 8 warps): K steps of
// 256 as well. (Spreading N over one wave would take 224 columns, past the 128 that fp8's
// promoted accumulator holds: see tile/spread-fp8-128.mlir.)
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 8
// CHECK: "tile.dot"({{.*}}) {mma = "wgmma"} : (tensor<128x256xf8E4M3FN>, tensor<256x128xf8E4M3FN>, tensor<128x128xf32>) -> tensor<128x128xf32>
func.func @fp8_128_rows(%x: tensor<128x8192xf8E4M3FN>, %w: tensor<28672x8192xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<128x28672xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<28672x8192xf8E4M3FN>) -> tensor<8192x28672xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<128x8192xf8E4M3FN>, tensor<8192x28672xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<128x28672xf16>
  return %y : tensor<128x28672xf16>
}

// -----

// fp8 past 64 rows where one wave of 128-row tiles takes 64 columns (N = 8192, K = 28672):
// 128x64x256 on 8 warps, wgmma's direct form (H200: 69.3 us against 75.6 on 64x128x256).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 8
// CHECK: "tile.dot"({{.*}}) {mma = "wgmma-direct"} : (tensor<128x256xf8E4M3FN>, tensor<256x64xf8E4M3FN>, tensor<128x64xf32>) -> tensor<128x64xf32>
func.func @fp8_128_rows_k_heavy(%x: tensor<128x28672xf8E4M3FN>, %w: tensor<8192x28672xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<128x8192xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<8192x28672xf8E4M3FN>) -> tensor<28672x8192xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<128x28672xf8E4M3FN>, tensor<28672x8192xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<128x8192xf16>
  return %y : tensor<128x8192xf16>
}

// -----

// ... but not where K has fewer than two K steps of 256 (as measured): 64x128x128 stays.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 4
// CHECK: "tile.dot"({{.*}}) {mma = "wgmma"} : (tensor<64x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<64x128xf32>) -> tensor<64x128xf32>
func.func @fp8_128_rows_short_k(%x: tensor<128x256xf8E4M3FN>, %w: tensor<10240x256xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<128x10240xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<10240x256xf8E4M3FN>) -> tensor<256x10240xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<128x256xf8E4M3FN>, tensor<256x10240xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<128x10240xf16>
  return %y : tensor<128x10240xf16>
}

// -----

// K > N up to 32 rows (8192 x 28672): K steps of 256 f16, as every narrow tile (128 from
// 2026-11-24 to 2026-11-29: bench/2026-11-29-h200-k-depth.md); fp8 keeps 512.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.dot"({{.*}}) {mma = "wgmma"} : (tensor<16x256xf16>, tensor<256x64xf16>, tensor<16x64xf32>) -> tensor<16x64xf32>
func.func @k_heavy(%x: tensor<4x28672xf16>, %w: tensor<8192x28672xf16>) -> tensor<4x8192xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<4x28672xf16>, tensor<8192x28672xf16>) -> tensor<4x8192xf16>
  return %y : tensor<4x8192xf16>
}

// -----

// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.dot"({{.*}}) {mma = "wgmma"} : (tensor<16x512xf8E4M3FN>, tensor<512x64xf8E4M3FN>, tensor<16x64xf32>) -> tensor<16x64xf32>
func.func @fp8_k_heavy(%x: tensor<2x28672xf8E4M3FN>, %w: tensor<8192x28672xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<2x8192xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<8192x28672xf8E4M3FN>) -> tensor<28672x8192xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<2x28672xf8E4M3FN>, tensor<28672x8192xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<2x8192xf16>
  return %y : tensor<2x8192xf16>
}

// -----

// fp8 (prim.scaled_mm): the operands are loaded as fp8 tiles and the dot takes them as
// they are (the lowering widens them, or fp8 wgmma reads TMA slots); K = 8200 (rows not
// a multiple of 16 bytes: no TMA): the register-staging table, wide: 2 warps; the scales
// are loaded as scalars and multiply the accumulator in the epilogue.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 2
// CHECK: "tile.load"({{.*}}) {tile.box = array<i64: 1, 8200>} : (!tile.ptr<f8E4M3FN>, tensor<4096xi32>, tensor<4096xi1>, tensor<4096xf8E4M3FN>) -> tensor<4096xf8E4M3FN>
// CHECK: "tile.load"({{.*}}) {tile.box = array<i64: 28672, 8200>} : (!tile.ptr<f8E5M2>, tensor<16384xi32>, tensor<16384xi1>, tensor<16384xf8E5M2>) -> tensor<16384xf8E5M2>
// CHECK: "tile.dot"({{.*}}) {mma = "sync"} : (tensor<16x256xf8E4M3FN>, tensor<256x64xf8E5M2>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK: arith.truncf {{.*}} to tensor<1024xf16>
func.func @fp8_wide(%x: tensor<1x8200xf8E4M3FN>, %w: tensor<28672x8200xf8E5M2>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<1x28672xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<28672x8200xf8E5M2>) -> tensor<8200x28672xf8E5M2>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<1x8200xf8E4M3FN>, tensor<8200x28672xf8E5M2>, tensor<f32>, tensor<f32>) -> tensor<1x28672xf16>
  return %y : tensor<1x28672xf16>
}

// -----

// A batched matmul [3, 5, 100] x [3, 100, 70] (the weight read transposed from [3, 70, 100]):
// batch pid_b = program id 2 moves A by pid_b * M * K = 500, B by K * N = 7000 and C by
// M * N = 350; the launch has 3 programs along grid axis 2.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: %[[PB:.*]] = "tile.program_id"() {axis = 2 : i32}
// CHECK: %[[AB:.*]] = arith.muli %[[PB]], %c500_i32
// CHECK: %[[AS:.*]] = "tile.splat"(%[[AB]])
// CHECK: arith.addi %{{.*}}, %[[AS]]
// CHECK: %[[BB:.*]] = arith.muli %[[PB]], %c7000_i32
// CHECK: "tile.dot"
// CHECK: %[[CB:.*]] = arith.muli %[[PB]], %c350_i32
// CHECK: tile.launch = {args = [], grid = ["2", "1", "3"]
func.func @batched(%a: tensor<3x5x100xf16>, %w: tensor<3x70x100xf16>) -> tensor<3x5x70xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 0, 2, 1>} : (tensor<3x70x100xf16>) -> tensor<3x100x70xf16>
  %c = "prim.matmul"(%a, %wt) : (tensor<3x5x100xf16>, tensor<3x100x70xf16>) -> tensor<3x5x70xf16>
  return %c : tensor<3x5x70xf16>
}
