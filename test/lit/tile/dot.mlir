// Dot kernels: the program-id order's arithmetic, the operand index spaces and the K loop.
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=64 block-k=64 order=row-major' | FileCheck %s --check-prefixes=CHECK,ROW
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=64 block-k=64 order=column-major' | FileCheck %s --check-prefixes=CHECK,COL
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=64 block-k=64 order=grouped group-m=2' | FileCheck %s --check-prefixes=CHECK,GRP
// RUN: not tt-opt %s --decompose --fuse --tile='order=diagonal' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not tt-opt %s --decompose --fuse --tile='block-m=256 block-n=256 block-k=256' 2>&1 | FileCheck %s --check-prefix=SMEM
// RUN: not tt-opt %s --decompose --fuse --tile='block-m=24' 2>&1 | FileCheck %s --check-prefix=POW2
// RUN: not tt-opt %s --decompose --fuse --tile='block-n=72' 2>&1 | FileCheck %s --check-prefix=N16
// Rows fitted to M (not a power of two) on TMA boxes, which wgmma's swapped form runs; not
// staged through registers (tma=0: mma.sync's and the register loads' power-of-two tiles).
// RUN: tt-opt %s --decompose --fuse --tile='block-m=144 block-n=128 num-warps=8' | FileCheck %s --check-prefix=FIT
// RUN: not tt-opt %s --decompose --fuse --tile='block-m=144 block-n=128 num-warps=8 tma=0' 2>&1 | FileCheck %s --check-prefix=FITREG
// RUN: not tt-opt %s --decompose --fuse --tile='block-m=144 block-n=128 num-warps=8 block-k=64' 2>&1 | FileCheck %s --check-prefix=FITK
// RUN: not tt-opt %s --decompose --fuse --tile='tma=2' 2>&1 | FileCheck %s --check-prefix=TMA

// C = x @ w^T + b over 300 x 520 outputs: a grid of gm = 5 by gn = 9 tiles of 64 x 64.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: %[[PID:.*]] = "tile.program_id"() {axis = 0 : i32}
// row-major: pid_m = pid / gn, pid_n = pid % gn
// ROW: %[[M:.*]] = arith.divui %[[PID]], %c9_i32
// ROW: %[[N:.*]] = arith.remui %[[PID]], %c9_i32
// column-major: pid_m = pid % gm, pid_n = pid / gm
// COL: %[[M:.*]] = arith.remui %[[PID]], %c5_i32
// COL: %[[N:.*]] = arith.divui %[[PID]], %c5_i32
// grouped (group-m = 2): width = 2 * gn = 18, first = pid / 18 * 2, size = min(gm - first, 2),
// pid_m = first + pid % 18 % size, pid_n = pid % 18 / size
// GRP: %[[G:.*]] = arith.divui %[[PID]], %c18_i32
// GRP: %[[FIRST:.*]] = arith.muli %[[G]], %c2_i32
// GRP: %[[LEFT:.*]] = arith.subi %c5_i32, %[[FIRST]]
// GRP: %[[SIZE:.*]] = arith.minsi %[[LEFT]], %c2_i32
// GRP: %[[IN:.*]] = arith.remui %[[PID]], %c18_i32
// GRP: %[[R:.*]] = arith.remui %[[IN]], %[[SIZE]]
// GRP: %[[M:.*]] = arith.addi %[[FIRST]], %[[R]]
// GRP: %[[N:.*]] = arith.divui %[[IN]], %[[SIZE]]
// CHECK: arith.muli %[[M]], %c64
// CHECK: arith.muli %[[N]], %c64
// The A tile (64 x 64 of x): row = i / 64, k = i % 64, rows below M = 300 masked.
// CHECK: "tile.range"() {end = 4096 : i32, start = 0 : i32}
// CHECK: scf.for %[[K0:.*]] = %c0_i32 to %c1000_i32 step %c64_i32{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<64x64xf32>)
// CHECK: %[[A:.*]] = "tile.load"
// CHECK: %[[A2:.*]] = tensor.expand_shape %[[A]] {{\[\[}}0, 1]] output_shape [64, 64]
// CHECK: %[[B:.*]] = "tile.load"
// CHECK: %[[B2:.*]] = tensor.expand_shape %[[B]]
// CHECK: %[[BT:.*]] = "tile.trans"(%[[B2]])
// CHECK: "tile.dot"(%[[A2]], %[[BT]], %[[ACC]])
// The epilogue: the bias at the C tile's offsets, the store under the C mask.
// CHECK: tensor.collapse_shape
// CHECK: arith.addf
// CHECK: "tile.store"
// CHECK: tile.launch = {args = [], grid = ["45", "1", "1"], kernel = @fused_0_kernel}
// BAD: error: option 'order' of pass 'tile' is 'diagonal'; expected one of: row-major, grouped, column-major
// SMEM: error: tile: dot tile 256x256x256 needs {{[0-9]+}} bytes of shared memory; at most 230400 (225 KiB) are supported
// TMA: error: option 'tma' of pass 'tile' is 2, out of range [0, 1]
// POW2: error: tile: dot tile 24x128x128: block-m must be a power of two >= 16 (or a multiple of 16 up to 256 where operands are TMA boxes and block-n is 64 columns a warpgroup), block-n a multiple of 16 and block-k a power of two >= 32
// FIT: tile.geometry = "block-m=144 block-n=128 block-k=128 num-warps=8
// FITK: dot.mlir:{{[0-9]+}}:{{[0-9]+}}: error: tile: dot tile 144x128x64 does not split over 8 warps: {{.*}} with block-m not a power of two, a larger block-k)
// FITREG: error: tile: dot tile 144x128x128: block-m must be a power of two >= 16 (or a multiple of 16 up to 256 where operands are TMA boxes
// N16: error: tile: dot tile {{[0-9]+}}x72x{{[0-9]+}}: block-m must be a power of two >= 16 ({{.*}}), block-n a multiple of 16 and block-k a power of two >= 32
func.func @linear(%x: tensor<300x1000xf16>, %w: tensor<520x1000xf16>, %b: tensor<520xf16>) -> tensor<300x520xf16> {
  %y = "prim.linear"(%x, %w, %b) : (tensor<300x1000xf16>, tensor<520x1000xf16>, tensor<520xf16>) -> tensor<300x520xf16>
  return %y : tensor<300x520xf16>
}
