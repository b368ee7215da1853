// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --fuse --tile | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --fuse --tile='block-size=512 num-warps=2' | FileCheck %s --check-prefix=OPT
// Column kernels: a reduction over a run of dims before the last, the operand viewed as
// [outer, R, inner]; program p takes a block of columns of one outer index and loops over
// the R rows, carrying an f32 accumulator tile.

// Column sums of 3x1000 f32: 16-byte runs (4 f32) on one warp make 128 columns; the grid
// (8 programs) is under two per SM, so the block stays at one warp; no size argument. The
// loop reads 3 rows a step (U = min(R, 16): a small grid), each at o*R*inner + r*inner + cols under the
// column mask; the store is at o*inner + cols.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: (%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>)
// CHECK-SAME: tile.num_warps = 1
// CHECK: %[[PID:.*]] = "tile.program_id"
// CHECK: %[[R:.*]] = "tile.range"() {end = 128 : i32, start = 0 : i32}
// CHECK: %[[C0:.*]] = arith.muli %[[PID]], %c128_i32
// CHECK: %[[CS:.*]] = "tile.splat"(%[[C0]])
// CHECK: %[[COLS:.*]] = arith.addi %[[CS]], %[[R]]
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[COLS]], %cst
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %c3_i32 step %c3_i32{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<128xf32>)
// CHECK: arith.muli %[[ROW]], %c1000_i32
// CHECK: "tile.load"(%arg0, %{{.*}}, %[[MASK]], %{{.*}})
// CHECK: "tile.load"(%arg0
// CHECK: "tile.load"(%arg0
// CHECK: arith.select %[[MASK]]
// CHECK: arith.addf %[[ACC]]
// CHECK: scf.yield
// CHECK: "tile.store"(%arg1, %{{.*}}, %{{.*}}, %[[MASK]])
// CHECK: prim.fusion = "column", tile.launch = {args = [], grid = ["8", "1", "1"], kernel = @fused_0_kernel}
// OPT-LABEL: func.func @fused_0_kernel
// OPT-SAME: tile.num_warps = 2
// OPT: "tile.range"() {end = 512 : i32, start = 0 : i32}
// OPT: grid = ["2", "1", "1"]
func.func @columns(%x: tensor<3x1000xf32>) -> tensor<1000xf32> {
  %s = "prim.sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<3x1000xf32>) -> tensor<1000xf32>
  return %s : tensor<1000xf32>
}

// -----

// 5 rows: a loop of 4 rows a step, then one of one row for the fifth (no row mask); 65536
// columns in blocks of 128: 512 programs (the block halves with the warps from 512 on 4
// warps while the grid is under 2 x 132); amax accumulates with maximumf from -inf.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: arith.constant dense<0xFF800000> : tensor<128xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4_i32 step %c4_i32
// CHECK-COUNT-4: arith.maximumf
// CHECK: scf.yield
// CHECK: scf.for %{{.*}} = %c4_i32{{.*}} to %c5_i32 step %c1_i32
// CHECK: arith.maximumf
// CHECK: scf.yield
// CHECK: grid = ["512", "1", "1"]
func.func @ragged(%x: tensor<5x65536xf32>) -> tensor<65536xf32> {
  %s = "prim.amax"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<5x65536xf32>) -> tensor<65536xf32>
  return %s : tensor<65536xf32>
}

// -----

// A small grid (4097 columns: 33 programs, under two per SM): 16 rows a loop step, so
// that each of the few programs keeps more loads in flight; here R = 5 < 16: one step.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: scf.for %{{.*}} = %{{.*}} to %c5_i32 step %c5_i32
// CHECK-COUNT-5: "tile.load"
// CHECK: scf.yield
// CHECK-NOT: scf.for
// CHECK: grid = ["33", "1", "1"]
func.func @small_grid(%x: tensor<5x4097xf32>) -> tensor<4097xf32> {
  %s = "prim.sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<5x4097xf32>) -> tensor<4097xf32>
  return %s : tensor<4097xf32>
}

// -----

// A middle dim (2x3x1000 bf16, outer 2): o = pid / nblk, the column block pid % nblk
// (256 bf16 columns a warp: 4 blocks a row, 8 programs); bf16 loads extend to f32 and the
// sum accumulates in f32. The epilogue (a bias add) loads the bias at the output's
// offsets (the broadcast: offs % 1000), adds in f32 and rounds once at the store.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: %[[PID:.*]] = "tile.program_id"
// CHECK: %[[O:.*]] = arith.divui %[[PID]], %c4_i32
// CHECK: arith.remui %[[PID]], %c4_i32
// CHECK: %[[COLS:.*]] = arith.addi
// CHECK: %[[OUT:.*]] = arith.addi %{{.*}}, %[[COLS]]
// CHECK: arith.remui %{{.*}}, %cst
// CHECK: %[[BIAS:.*]] = "tile.load"(%arg1
// CHECK: arith.muli %[[O]], %c3000_i32
// CHECK: %[[SUM:.*]] = scf.for
// CHECK: "tile.load"(%arg0
// CHECK: arith.extf %{{.*}} : tensor<256xbf16> to tensor<256xf32>
// CHECK: scf.yield
// CHECK: %[[B32:.*]] = arith.extf %[[BIAS]]
// CHECK: %[[Y:.*]] = arith.addf %[[SUM]], %[[B32]] fastmath<contract,afn>
// CHECK: %[[T:.*]] = arith.truncf %[[Y]]
// CHECK: "tile.store"(%arg2, %[[OUT]], %[[T]],
// CHECK: grid = ["8", "1", "1"]
func.func @middle(%x: tensor<2x3x1000xbf16>, %b: tensor<1000xbf16>) -> tensor<2x1000xbf16> {
  %s = "prim.sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<2x3x1000xbf16>) -> tensor<2x1000xbf16>
  %bb = "prim.broadcast_in_dim"(%b) {broadcast_dimensions = array<i64: 1>} : (tensor<1000xbf16>) -> tensor<2x1000xbf16>
  %y = "prim.add"(%s, %bb) : (tensor<2x1000xbf16>, tensor<2x1000xbf16>) -> tensor<2x1000xbf16>
  return %y : tensor<2x1000xbf16>
}

// -----

// keepdim true: the same kernel (the result's flat offsets are those of [outer, inner]);
// a prologue (x * x) is computed at each loaded element.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: scf.for
// CHECK: "tile.load"(%arg0
// CHECK: arith.mulf
// CHECK: scf.yield
// CHECK: "tile.store"(%arg1
// CHECK: grid = ["16", "1", "1"]
func.func @keepdim(%x: tensor<2x3x1000xf32>) -> tensor<2x1x1000xf32> {
  %q = "prim.mul"(%x, %x) : (tensor<2x3x1000xf32>, tensor<2x3x1000xf32>) -> tensor<2x3x1000xf32>
  %s = "prim.sum"(%q) {dims = array<i64: 1>, keepdim = true} : (tensor<2x3x1000xf32>) -> tensor<2x1x1000xf32>
  return %s : tensor<2x1x1000xf32>
}

// -----

// A wide column sum (8192x8192 bf16, one outer index): 4 warps of 16-byte runs would make
// 8 programs of 1024 columns; the block halves with the warps while the grid is under two
// programs per SM, down to one warp: 32 programs of 256 columns, 16 rows a step
// (--decompose splits R to fill the GPU: test/lit/decompose/reduce.mlir).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 1
// CHECK: "tile.range"() {end = 256 : i32, start = 0 : i32}
// CHECK: scf.for %{{.*}} = %{{.*}} to %c8192_i32 step %c16_i32
// CHECK: grid = ["32", "1", "1"]
func.func @wide(%x: tensor<8192x8192xbf16>) -> tensor<8192xbf16> {
  %s = "prim.sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<8192x8192xbf16>) -> tensor<8192xbf16>
  return %s : tensor<8192xbf16>
}
