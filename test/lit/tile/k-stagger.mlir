// --tile's k-stagger on dot kernels: tile column n runs step i of its K loop as step
// (i + n * S) mod steps, steps = cdiv(ub - lb, bk), reading the bounds from the loop so
// that --splitk's slices wrap around within themselves. Default (-1): for TMA operands on
// one row of tiles with N >= K, S = 1 on 256-column tiles and 37 on others; none where
// K > N or past one row of tiles.
// RUN: tt-opt %s --decompose --fuse --tile --splitk='split-k=1' | FileCheck %s --check-prefix=DEF
// RUN: tt-opt %s --decompose --fuse --tile='k-stagger=0' --splitk='split-k=1' | FileCheck %s --check-prefix=OFF
// RUN: tt-opt %s --decompose --fuse --tile='block-k=128 k-stagger=3' --splitk='split-k=2' | FileCheck %s --check-prefix=SPLIT
// RUN: not tt-opt %s --tile='k-stagger=-2' 2>&1 | FileCheck %s --check-prefix=BAD

// DEF-LABEL: func.func @fused_0_kernel
// DEF: scf.for %[[K:.*]] = %[[LB:.*]] to %[[UB:.*]] step
// DEF: %[[LEN:.*]] = arith.subi %[[UB]], %[[LB]] : i32
// DEF: %[[STEPS0:.*]] = arith.ceildivsi %[[LEN]], %c256_i32
// DEF: %[[STEPS:.*]] = arith.maxsi %[[STEPS0]], %c1_i32
// DEF: %[[I:.*]] = arith.divsi %{{.*}}, %c256_i32
// DEF: %[[ROT0:.*]] = arith.muli %{{.*}}, %c37_i32
// DEF: %[[ROT:.*]] = arith.remsi %[[ROT0]], %[[STEPS]]
// DEF: %[[J0:.*]] = arith.addi %[[I]], %[[ROT]]
// DEF: %[[J:.*]] = arith.remsi %[[J0]], %[[STEPS]]
// DEF: "tile.dot"
// DEF-LABEL: func.func @fused_1_kernel
// DEF-NOT: arith.ceildivsi
// DEF: "tile.dot"
// DEF-LABEL: func.func @fused_2_kernel
// DEF-NOT: arith.ceildivsi
// DEF: "tile.dot"
// OFF-NOT: arith.ceildivsi

// split-k 2: slice s runs from begin = s * 256 to end = min(begin + 256, 512), and the
// stagger wraps within [begin, end)
// SPLIT-LABEL: func.func @fused_0_kernel
// SPLIT: %[[BEGIN:.*]] = arith.muli %{{.*}}, %c256_i32
// SPLIT: %[[END:.*]] = arith.minsi
// SPLIT: scf.for %[[K:.*]] = %[[BEGIN]] to %[[END]] step %c128_i32
// SPLIT: arith.subi %[[END]], %[[BEGIN]]
// SPLIT: arith.subi %[[K]], %[[BEGIN]]
// SPLIT: arith.muli %{{.*}}, %c3_i32
// SPLIT: arith.addi %[[BEGIN]]

// BAD: error: option 'k-stagger' of pass 'tile'
func.func @one_row(%x: tensor<16x512xf16>, %w: tensor<1024x512xf16>) -> tensor<16x1024xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x512xf16>, tensor<1024x512xf16>) -> tensor<16x1024xf16>
  return %y : tensor<16x1024xf16>
}
func.func @k_heavy(%x: tensor<16x1024xf16>, %w: tensor<256x1024xf16>) -> tensor<16x256xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x1024xf16>, tensor<256x1024xf16>) -> tensor<16x256xf16>
  return %y : tensor<16x256xf16>
}
func.func @two_rows(%x: tensor<128x1024xf16>, %w: tensor<2048x1024xf16>) -> tensor<128x2048xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<128x1024xf16>, tensor<2048x1024xf16>) -> tensor<128x2048xf16>
  return %y : tensor<128x2048xf16>
}
// 256-column tiles (up to 32 rows where they make one wave, N = 28672 and 128-column
// tiles would not): stride 1
// RUN: tt-opt %s --decompose --fuse --tile --splitk='split-k=1' | FileCheck %s --check-prefix=WIDE
// WIDE-LABEL: func.func @fused_3_kernel
// WIDE: arith.ceildivsi %{{.*}}, %c64_i32
// WIDE: arith.muli %{{.*}}, %c1_i32
func.func @wide(%x: tensor<4x8192xf16>, %w: tensor<28672x8192xf16>) -> tensor<4x28672xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<4x8192xf16>, tensor<28672x8192xf16>) -> tensor<4x28672xf16>
  return %y : tensor<4x28672xf16>
}
