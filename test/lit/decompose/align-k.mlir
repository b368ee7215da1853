// RUN: tt-opt %s --split-input-file --decompose --mlir-print-debuginfo=false | FileCheck %s
// RUN: tt-opt %s --split-input-file --decompose='align-k=0' --mlir-print-debuginfo=false | FileCheck %s --check-prefix=OFF
// RUN: tt-opt %s --split-input-file --decompose --fuse --tile --mlir-print-debuginfo=false | FileCheck %s --check-prefix=TILE

// --decompose's align-k (default 1; the target, sm_90a, has TMA): a 2-D matmul whose K
// rows are not a multiple of 16 bytes gets both operands padded with zeros along K (to
// 128-byte rows: a TMA box row is then one cache line), so
// the dot kernel reads them with TMA boxes. A linear's [N, K] weight is padded before its
// transpose (the dot still reads it in place).
// CHECK-LABEL: func.func @linear_odd_k
// CHECK: %[[XP:.*]] = "prim.pad"(%arg0) {high = array<i64: 0, 60>, low = array<i64: 0, 0>, value = 0.000000e+00 : f64} : (tensor<7x4100xf16>) -> tensor<7x4160xf16>
// CHECK: %[[WP:.*]] = "prim.pad"(%arg1) {high = array<i64: 0, 60>, {{.*}} : (tensor<1000x4100xf16>) -> tensor<1000x4160xf16>
// CHECK: %[[WT:.*]] = "prim.transpose"(%[[WP]])
// CHECK: "prim.matmul"(%[[XP]], %[[WT]]) : (tensor<7x4160xf16>, tensor<4160x1000xf16>) -> tensor<7x1000xf16>
// OFF-LABEL: func.func @linear_odd_k
// OFF-NOT: prim.pad
// The dot kernel after the pads: TMA boxes (tile.box) read by wgmma.
// TILE-LABEL: func.func @fused_2_kernel
// TILE: tile.box
// TILE: "tile.dot"({{.*}}) {mma = "wgmma
func.func @linear_odd_k(%x: tensor<7x4100xf16>, %w: tensor<1000x4100xf16>) -> tensor<7x1000xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<7x4100xf16>, tensor<1000x4100xf16>) -> tensor<7x1000xf16>
  return %y : tensor<7x1000xf16>
}

// -----

// An odd K (2-byte rows) of a [K, N] operand with 16-byte rows: K rows of zeros below it.
// CHECK-LABEL: func.func @mm_odd_k
// CHECK: "prim.pad"(%arg0) {high = array<i64: 0, 7>, {{.*}} -> tensor<16x3008xbf16>
// CHECK: "prim.pad"(%arg1) {high = array<i64: 7, 0>, {{.*}} -> tensor<3008x256xbf16>
// CHECK: "prim.matmul"({{.*}}) : (tensor<16x3008xbf16>, tensor<3008x256xbf16>) -> tensor<16x256xbf16>
func.func @mm_odd_k(%a: tensor<16x3001xbf16>, %b: tensor<3001x256xbf16>) -> tensor<16x256xbf16> {
  %y = "prim.matmul"(%a, %b) : (tensor<16x3001xbf16>, tensor<3001x256xbf16>) -> tensor<16x256xbf16>
  return %y : tensor<16x256xbf16>
}

// -----

// Left alone: K already a multiple of 8 f16; a [K, N] operand whose own rows TMA cannot
// stride (N = 1002: the padded dot would not take TMA either); a batched matmul.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: prim.pad
// CHECK: return
func.func @left_alone(%a: tensor<16x4096xf16>, %w: tensor<1000x4096xf16>, %c: tensor<16x1001xf16>,
                      %d: tensor<1001x1002xf16>, %e: tensor<2x16x100xf16>, %f: tensor<2x100x64xf16>)
    -> (tensor<16x1000xf16>, tensor<16x1002xf16>, tensor<2x16x64xf16>) {
  %y = "prim.linear"(%a, %w) : (tensor<16x4096xf16>, tensor<1000x4096xf16>) -> tensor<16x1000xf16>
  %z = "prim.matmul"(%c, %d) : (tensor<16x1001xf16>, tensor<1001x1002xf16>) -> tensor<16x1002xf16>
  %b = "prim.matmul"(%e, %f) : (tensor<2x16x100xf16>, tensor<2x100x64xf16>) -> tensor<2x16x64xf16>
  return %y, %z, %b : tensor<16x1000xf16>, tensor<16x1002xf16>, tensor<2x16x64xf16>
}

// -----

// f32 operands are padded once, before their bf16 splits (the pads join the splits'
// elementwise kernels), so each of the three bf16 products reads aligned rows.
// CHECK-LABEL: func.func @f32_odd_k
// CHECK-NEXT: %[[AP:.*]] = "prim.pad"(%arg0) {{.*}} -> tensor<37x128xf32>
// CHECK-NEXT: %[[BP:.*]] = "prim.pad"(%arg1) {{.*}} -> tensor<65x128xf32>
// CHECK-NOT: prim.pad
// CHECK: return
func.func @f32_odd_k(%a: tensor<37x100xf32>, %w: tensor<65x100xf32>) -> tensor<37x65xf32> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<65x100xf32>) -> tensor<100x65xf32>
  %y = "prim.matmul"(%a, %wt) : (tensor<37x100xf32>, tensor<100x65xf32>) -> tensor<37x65xf32>
  return %y : tensor<37x65xf32>
}

// -----

// Rows TMA can read that start off a 32-byte sector (K = 4104 f16: 8208-byte rows, starts
// cycling through 16-byte offsets of a line): with a `tt.invariant` weight, both operands
// are padded to 128-byte rows too; the weight's pad runs once (--fuse step 6) and x's pad
// is no kernel: it joins the dot group (a K pad, read in place), so the kernel reads x's
// own rows (a TMA box of the 7 x 4104 matrix, whose zero fill is the pad) and the padded
// weight's (boxes on whole lines).
// CHECK-LABEL: func.func @linear_off_sector
// CHECK: %[[XP:.*]] = "prim.pad"(%arg0) {high = array<i64: 0, 56>, {{.*}} -> tensor<7x4160xf16>
// CHECK: %[[WP:.*]] = "prim.pad"(%arg1) {high = array<i64: 0, 56>, {{.*}} -> tensor<1000x4160xf16>
// CHECK: "prim.matmul"(%[[XP]], {{.*}}) : (tensor<7x4160xf16>, tensor<4160x1000xf16>)
// OFF-LABEL: func.func @linear_off_sector
// OFF-NOT: prim.pad
// TILE-LABEL: func.func private @fused_0(%arg0: tensor<1000x4104xf16>) -> tensor<1000x4160xf16>
// TILE-SAME: prim.fusion = "elementwise"
// TILE: "tile.load"{{.*}}tile.box = array<i64: 7, 4104>
// TILE: "tile.load"{{.*}}tile.box = array<i64: 1000, 4160>
// TILE: "tile.dot"
// TILE-LABEL: func.func private @fused_1(%arg0: tensor<7x4104xf16>, %arg1: tensor<1000x4160xf16>)
// TILE-SAME: prim.fusion = "dot"
// TILE: call @fused_0(%arg1) {tt.invariant}
func.func @linear_off_sector(%x: tensor<7x4104xf16>, %w: tensor<1000x4104xf16> {tt.invariant}) -> tensor<7x1000xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<7x4104xf16>, tensor<1000x4104xf16>) -> tensor<7x1000xf16>
  return %y : tensor<7x1000xf16>
}

// -----

// Left alone: the same rows with a weight that is not invariant (its pad would copy it at
// every call), and rows on 64-byte offsets (K = 4128: no sector is split).
// CHECK-LABEL: func.func @off_sector_left_alone
// CHECK-NOT: prim.pad
// CHECK: return
func.func @off_sector_left_alone(%x: tensor<7x4104xf16>, %w: tensor<1000x4104xf16>,
                                 %a: tensor<7x4128xf16>, %v: tensor<1000x4128xf16> {tt.invariant})
    -> (tensor<7x1000xf16>, tensor<7x1000xf16>) {
  %y = "prim.linear"(%x, %w) : (tensor<7x4104xf16>, tensor<1000x4104xf16>) -> tensor<7x1000xf16>
  %z = "prim.linear"(%a, %v) : (tensor<7x4128xf16>, tensor<1000x4128xf16>) -> tensor<7x1000xf16>
  return %y, %z : tensor<7x1000xf16>, tensor<7x1000xf16>
}

// -----

// fp8 (e4m3, scaled_mm) the same way on 1-byte rows: K = 4100 bytes is off TMA's 16, so
// both operands are padded to 128-byte rows (4224); the weight's pad is a kernel that only
// moves fp8 data (tile/kernel.c's moveOnly), x's is read in place by the dot kernel
// (tile.carry: --pipeline copies its K range to shared memory once a program).
// CHECK-LABEL: func.func @fp8_odd_k
// CHECK: %[[XP:.*]] = "prim.pad"(%arg0) {high = array<i64: 0, 124>, {{.*}} : (tensor<7x4100xf8E4M3FN>) -> tensor<7x4224xf8E4M3FN>
// CHECK: %[[WP:.*]] = "prim.pad"(%arg1) {high = array<i64: 0, 124>, {{.*}} -> tensor<1000x4224xf8E4M3FN>
// CHECK: "prim.matmul"(%[[XP]], {{.*}}) : (tensor<7x4224xf8E4M3FN>, tensor<4224x1000xf8E4M3FN>)
// OFF-LABEL: func.func @fp8_odd_k
// OFF-NOT: prim.pad
// TILE-LABEL: func.func @fused_0_kernel(%arg0: !tile.ptr<f8E4M3FN>, %arg1: !tile.ptr<f8E4M3FN>
// TILE: "tile.load"{{.*}} -> tensor<2048xf8E4M3FN>
// TILE-NEXT: "tile.store"({{.*}}tensor<2048xf8E4M3FN>
// TILE-LABEL: func.func private @fused_0(%arg0: tensor<1000x4100xf8E4M3FN>) -> tensor<1000x4224xf8E4M3FN>
// TILE-SAME: prim.fusion = "elementwise"
// TILE: tile.box = array<i64: 7, 4100>, tile.carry
// TILE: tile.box = array<i64: 1000, 4224>
// TILE: "tile.dot"
func.func @fp8_odd_k(%x: tensor<7x4100xf8E4M3FN>, %w: tensor<1000x4100xf8E4M3FN> {tt.invariant}, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<7x1000xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<1000x4100xf8E4M3FN>) -> tensor<4100x1000xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<7x4100xf8E4M3FN>, tensor<4100x1000xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<7x1000xbf16>
  return %y : tensor<7x1000xbf16>
}

// -----

// fp8 left alone: 16-byte rows off a sector (K = 4112) of a weight that is not invariant,
// and a B read as [K, N] (fp8 wgmma reads B transposed only; the pad would not buy TMA).
// CHECK-LABEL: func.func @fp8_left_alone
// CHECK-NOT: prim.pad
// CHECK: return
func.func @fp8_left_alone(%x: tensor<7x4112xf8E4M3FN>, %w: tensor<1000x4112xf8E4M3FN>, %a: tensor<7x4100xf8E4M3FN>, %b: tensor<4100x1024xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> (tensor<7x1000xbf16>, tensor<7x1024xbf16>) {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<1000x4112xf8E4M3FN>) -> tensor<4112x1000xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<7x4112xf8E4M3FN>, tensor<4112x1000xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<7x1000xbf16>
  %z = "prim.scaled_mm"(%a, %b, %sx, %sw) : (tensor<7x4100xf8E4M3FN>, tensor<4100x1024xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<7x1024xbf16>
  return %y, %z : tensor<7x1000xbf16>, tensor<7x1024xbf16>
}

// -----

// fp8 16-byte rows off a sector (K = 4112) with an invariant weight: both padded to 4224;
// x's pad joins the dot group (its rows are TMA's to stride: a box of the 7 x 4112 matrix,
// whose zero fill is the pad), the weight's runs once.
// CHECK-LABEL: func.func @fp8_off_sector
// CHECK: "prim.pad"(%arg0) {high = array<i64: 0, 112>, {{.*}} -> tensor<7x4224xf8E4M3FN>
// CHECK: "prim.pad"(%arg1) {high = array<i64: 0, 112>, {{.*}} -> tensor<1000x4224xf8E4M3FN>
// TILE-LABEL: func.func private @fused_0(%arg0: tensor<1000x4112xf8E4M3FN>) -> tensor<1000x4224xf8E4M3FN>
// TILE: "tile.load"{{.*}}tile.box = array<i64: 7, 4112>
// TILE: "tile.load"{{.*}}tile.box = array<i64: 1000, 4224>
// TILE: "tile.dot"
// TILE-LABEL: func.func private @fused_1(%arg0: tensor<7x4112xf8E4M3FN>, %arg1: tensor<1000x4224xf8E4M3FN>
// TILE-SAME: prim.fusion = "dot"
func.func @fp8_off_sector(%x: tensor<7x4112xf8E4M3FN>, %w: tensor<1000x4112xf8E4M3FN> {tt.invariant}, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<7x1000xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<1000x4112xf8E4M3FN>) -> tensor<4112x1000xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<7x4112xf8E4M3FN>, tensor<4112x1000xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<7x1000xbf16>
  return %y : tensor<7x1000xbf16>
}
