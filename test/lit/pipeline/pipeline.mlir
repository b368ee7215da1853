// RUN: tt-opt %s --decompose --fuse --tile='block-k=64' --splitk='split-k=2' --pipeline | FileCheck %s
// RUN: tt-opt %s --decompose --fuse --tile='block-k=64' --splitk='split-k=2' --pipeline='num-stages=3' | FileCheck %s --check-prefix=THREE
// RUN: tt-opt %s --decompose --fuse --tile='block-k=64' --pipeline='num-stages=1' | FileCheck %s --check-prefix=ONE
// RUN: tt-opt %s --decompose --fuse --tile='block-k=64' --pipeline --pipeline='num-stages=3' | FileCheck %s --check-prefix=ONCE

// Two stages: the prologue loads step 0 (masked with lo < hi), the loop carries the A and
// B tiles and loads step k + 64 (masked with k + 64 < hi) before the dot uses step k's.
// CHECK: func.func @fused_0_kernel{{.*}}tile.num_stages = 2
// CHECK: %[[LO:.*]] = arith.muli %{{.*}}, %c256_i32
// CHECK: %[[HI:.*]] = arith.minsi
// CHECK: %[[OK0:.*]] = arith.cmpi slt, %[[LO]], %[[HI]]
// CHECK: %[[S0:.*]] = "tile.splat"(%[[OK0]])
// CHECK: %[[M0:.*]] = arith.andi %{{.*}}, %[[S0]]
// CHECK: %[[A0:.*]] = "tile.load"(%{{.*}}, %{{.*}}, %[[M0]], %{{.*}})
// CHECK: %[[B0:.*]] = "tile.load"
// CHECK: scf.for %[[K:.*]] = %[[LO]] to %[[HI]] step %[[STEP:.*]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[A:.*]] = %[[A0]], %[[B:.*]] = %[[B0]])
// CHECK: %[[D:.*]] = arith.muli %[[STEP]], %c1_i32
// CHECK: %[[KN:.*]] = arith.addi %[[K]], %[[D]]
// CHECK: %[[OK:.*]] = arith.cmpi slt, %[[KN]], %[[HI]]
// CHECK: %[[AN:.*]] = "tile.load"
// CHECK: %[[BN:.*]] = "tile.load"
// CHECK: tensor.expand_shape %[[A]]
// CHECK: tensor.expand_shape %[[B]]
// CHECK: %[[DOT:.*]] = "tile.dot"(%{{.*}}, %{{.*}}, %[[ACC]])
// CHECK: scf.yield %[[DOT]], %[[AN]], %[[BN]]
// Three stages: two steps loaded ahead, four carried tiles, shifted by one each step.
// THREE: func.func @fused_0_kernel{{.*}}tile.num_stages = 3
// THREE: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[A0:.*]] = %{{.*}}, %[[B0:.*]] = %{{.*}}, %[[A1:.*]] = %{{.*}}, %[[B1:.*]] = %{{.*}})
// THREE: arith.muli %{{.*}}, %c2_i32
// THREE: %[[AN:.*]] = "tile.load"
// THREE: %[[BN:.*]] = "tile.load"
// THREE: scf.yield %{{.*}}, %[[A1]], %[[B1]], %[[AN]], %[[BN]]
// ONE: tile.num_stages = 1
// ONE: scf.for {{.*}} iter_args(%{{[^,]*}}) -> (tensor<16x64xf32>)
// A pipelined kernel is left alone by a second run.
// ONCE: tile.num_stages = 2
// ONCE-NOT: tile.num_stages = 3
func.func @linear(%x: tensor<4x512xf16>, %w: tensor<256x512xf16>) -> tensor<4x256xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<4x512xf16>, tensor<256x512xf16>) -> tensor<4x256xf16>
  return %y : tensor<4x256xf16>
}
