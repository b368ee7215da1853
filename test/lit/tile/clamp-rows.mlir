// --tile's clamp-rows (default 1): where M leaves a partial last tile row, that row starts
// at M - block-m, so no box of A reads rows past M; its first rows (the row before's)
// are masked at the store. H200 cold, f16 96 x 6144 x 4096 on 64x64 tiles: 27.1 -> 18.9
// us (the boxes half past M had run at 0.70x the speed of M = 128's);
// bench/2026-11-29-h200-m128.md, run 6.
// RUN: tt-opt %s --decompose --fuse --tile | FileCheck %s
// RUN: tt-opt %s --decompose --fuse --tile='clamp-rows=0' | FileCheck %s --check-prefix=OFF
// RUN: sed 's/tensor<96x/tensor<?x/g' %s | tt-opt --decompose --fuse --tile | FileCheck %s --check-prefix=DYN
// RUN: sed 's/tensor<96x/tensor<64x/g' %s | tt-opt --decompose --fuse --tile | FileCheck %s --check-prefix=ONE
// RUN: tt-opt %s --decompose --fuse --tile | tt-translate --ptx -o %t.ptx
// RUN: not tt-opt %s --decompose --fuse --tile='clamp-rows=2' 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: block-m=64
// CHECK: %[[PM:.*]] = arith.muli %{{.*}}, %c64_i32
// CHECK: %[[R0:.*]] = arith.minsi %[[PM]], %c32_i32
// CHECK: tile.splat"(%[[R0]])
// CHECK: "tile.load"(%arg1, %{{.*}}, %cst{{.*}}, %cst{{.*}}) {tile.box = array<i64: 96, 4096>}
// CHECK: %[[OWN:.*]] = "tile.splat"(%[[PM]])
// CHECK: arith.cmpi sge, %{{.*}}, %[[OWN]]
// CHECK: "tile.store"
// OFF-NOT: arith.minsi %{{.*}}, %c32_i32
// OFF: arith.cmpi slt
// OFF-NOT: arith.cmpi sge
// DYN: arith.subi %{{.*}}, %c64_i32
// DYN: arith.maxsi
// DYN: arith.minsi
// DYN: arith.cmpi sge
// ONE-NOT: arith.minsi %{{.*}}, %c0_i32
// ONE-NOT: arith.cmpi sge
// RANGE: error: option 'clamp-rows' of pass 'tile' is 2, out of range [0, 1]
func.func @main(%x: tensor<96x4096xf16>, %w: tensor<6144x4096xf16> {tt.invariant}) -> tensor<96x6144xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<96x4096xf16>, tensor<6144x4096xf16>) -> tensor<96x6144xf16>
  return %y : tensor<96x6144xf16>
}
