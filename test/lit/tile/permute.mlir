// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --fuse --tile | FileCheck %s
// A permute kernel (passes/tile/permute.c): each program loads a TA x TB tile along the
// input's contiguous dim, exchanges it with tile.trans (through shared memory, see
// convert-tile-to-gpu) and stores it along the output's contiguous dim. Tiles are 128
// bytes a side: 32x32 f32, 64x64 bf16.

// x.permute(0, 3, 1, 2) of 2x3x1000x7 f32: the last dim (7) goes to dim 1, dim 2 (1000)
// becomes the last; dims 0 and 1 are batch dims. Grid: 2 * 3 batch indices * cdiv(1000,
// 32) tiles along A * cdiv(7, 32) along B = 192.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: %[[PID:.*]] = "tile.program_id"
// the batch index: dim 1 (x stride 7000), then dim 0 (x stride 21000)
// CHECK: arith.constant 7000 : i32
// CHECK: arith.constant 21000 : i32
// CHECK: %[[K:.*]] = "tile.range"() {end = 1024 : i32, start = 0 : i32}
// the input side: row k / 32 along A (stride 7), column k % 32 along B (7 wide): the mask
// is column < (row < 1000 ? 7 : 0)
// CHECK: %[[ROWS:.*]] = arith.constant dense<1000> : tensor<1024xi32>
// CHECK: %[[INROW:.*]] = arith.cmpi slt, %{{.*}}, %[[ROWS]]
// CHECK: %[[LIM:.*]] = arith.select %[[INROW]]
// CHECK: %[[INMASK:.*]] = arith.cmpi slt, %{{.*}}, %[[LIM]]
// CHECK: arith.constant dense<7> : tensor<1024xi32>
// CHECK: %[[X:.*]] = "tile.load"(%arg0, %{{.*}}, %[[INMASK]]
// the output side's batch offset: dim 1 at y stride 1000, dim 0 at 21000
// CHECK: arith.constant 1000 : i32
// CHECK: %[[X2:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0, 1]] output_shape [32, 32]
// CHECK: %[[T:.*]] = "tile.trans"(%[[X2]]) : (tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK: %[[Y:.*]] = tensor.collapse_shape %[[T]]
// the output side: row k / 32 along B (y stride 3000), column k % 32 along A
// CHECK: arith.select
// CHECK: %[[OUTMASK:.*]] = arith.cmpi slt
// CHECK: arith.constant dense<3000> : tensor<1024xi32>
// CHECK: "tile.store"(%arg1, %{{.*}}, %[[Y]], %[[OUTMASK]])
// CHECK: grid = ["192", "1", "1"]
func.func @perm(%x: tensor<2x3x1000x7xf32>) -> tensor<2x7x3x1000xf32> {
  %t = "prim.transpose"(%x) {permutation = array<i64: 0, 3, 1, 2>} : (tensor<2x3x1000x7xf32>) -> tensor<2x7x3x1000xf32>
  return %t : tensor<2x7x3x1000xf32>
}

// -----

// exp then transpose then convert, bf16 -> f32: the prologue is computed at the loaded
// tile (and rounded to bf16, the transposed dtype), the epilogue at the stored one; the
// exchange moves bf16 in 64x64 tiles. No mask needs the select: 1024 and 64 are whole
// tiles.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.range"() {end = 4096 : i32, start = 0 : i32}
// CHECK-NOT: arith.select
// CHECK: %[[L:.*]] = "tile.load"(%arg0
// CHECK: %[[E:.*]] = math.exp
// CHECK: %[[R:.*]] = arith.truncf %[[E]] {{.*}} to tensor<4096xbf16>
// CHECK: tensor.expand_shape %[[R]]
// CHECK: "tile.trans"({{.*}}) : (tensor<64x64xbf16>) -> tensor<64x64xbf16>
// CHECK: %[[Y:.*]] = tensor.collapse_shape
// CHECK: %[[F:.*]] = arith.extf %[[Y]]
// CHECK: "tile.store"(%arg1, %{{.*}}, %[[F]]
// CHECK: grid = ["16", "1", "1"]
func.func @chain(%x: tensor<1024x64xbf16>) -> tensor<64x1024xf32> {
  %e = "prim.exp"(%x) : (tensor<1024x64xbf16>) -> tensor<1024x64xbf16>
  %y = "prim.transpose"(%e) {permutation = array<i64: 1, 0>} : (tensor<1024x64xbf16>) -> tensor<64x1024xbf16>
  %z = "prim.convert"(%y) : (tensor<64x1024xbf16>) -> tensor<64x1024xf32>
  return %z : tensor<64x1024xf32>
}

// -----

// A row copy (x.permute(1, 0, 2) of 1000x2x7: each output row of 7 is an input row) is
// an elementwise kernel whose load maps the offsets: the result index (offs / 7000,
// offs / 7 % 1000, offs % 7) reads x at index0 * 7 + index1 * 14 + index2 (x's strides
// of dims 1 and 0).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: %[[OFFS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<1024xi32>
// CHECK: %[[I0:.*]] = arith.divui %[[OFFS]], %{{.*}}
// CHECK: %[[S0:.*]] = arith.constant dense<7> : tensor<1024xi32>
// CHECK: arith.muli %[[I0]], %[[S0]]
// CHECK: arith.constant dense<1000> : tensor<1024xi32>
// CHECK: %[[S1:.*]] = arith.constant dense<14> : tensor<1024xi32>
// CHECK: "tile.load"
// CHECK-NOT: tile.trans
// CHECK: "tile.store"(%arg1, %[[OFFS]]
func.func @rowcopy(%x: tensor<1000x2x7xf32>) -> tensor<2x1000x7xf32> {
  %t = "prim.transpose"(%x) {permutation = array<i64: 1, 0, 2>} : (tensor<1000x2x7xf32>) -> tensor<2x1000x7xf32>
  return %t : tensor<2x1000x7xf32>
}
