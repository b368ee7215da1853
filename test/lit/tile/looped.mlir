// RUN: tt-opt %s --split-input-file --fuse --tile=cluster=1 | FileCheck %s
// RUN: tt-opt %s --split-input-file --fuse --tile='block-size=256 num-warps=2' | FileCheck %s --check-prefix=SMALL

// Rows longer than 32768 elements that no cluster holds (cluster=1 here; tile/cluster-rows.mlir
// has the split) take the looped form: a 32768-element block
// (32 warps) steps along the row. Level 1: amax. Level 2: the sum of exp(x - max) needs the
// max, so it takes a second loop. Then a loop for the output: three passes over the row.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 32 : i32
// CHECK: %[[COL:.*]] = "tile.range"() {end = 32768 : i32, start = 0 : i32}
// CHECK: %[[START:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// CHECK: %[[NINF:.*]] = arith.constant dense<0xFF800000> : tensor<32768xf32>
// CHECK: %[[MAXACC:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[NINF]]) -> (tensor<32768xf32>)  : i32 {
// CHECK:   %[[KT:.*]] = "tile.splat"(%[[K]]) : (i32) -> tensor<32768xi32>
// CHECK:   %[[C:.*]] = arith.addi %[[KT]], %[[COL]] : tensor<32768xi32>
// CHECK:   %[[MASK:.*]] = arith.cmpi slt, %[[C]], %{{.*}} : tensor<32768xi32>
// CHECK:   "tile.load"
// CHECK:   %[[SEL:.*]] = arith.select %[[MASK]]
// CHECK:   %[[NEXT:.*]] = arith.maximumf %[[ACC]], %[[SEL]] : tensor<32768xf32>
// CHECK:   scf.yield %[[NEXT]] : tensor<32768xf32>
// CHECK: %[[MAX:.*]] = "tile.reduce"(%[[MAXACC]]) {axis = 0 : i32, kind = "max"}
// CHECK: scf.for
// CHECK:   math.exp
// CHECK:   arith.addf
// CHECK:   scf.yield
// CHECK: "tile.reduce"(%{{.*}}) {axis = 0 : i32, kind = "sum"}
// CHECK: scf.for
// CHECK:   "tile.load"
// CHECK:   "tile.store"
// CHECK-NOT: scf.yield %
// CHECK: return
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: grid = ["2", "1", "1"]
// SMALL-LABEL: func.func @fused_0_kernel
// SMALL-SAME: tile.num_warps = 2 : i32
// SMALL: "tile.range"() {end = 256 : i32, start = 0 : i32}
// SMALL-COUNT-3: scf.for
func.func @softmax(%x: tensor<2x70001xf32>) -> tensor<2x70001xf32> {
  %m = "prim.amax"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<2x70001xf32>) -> tensor<2xf32>
  %mb = "prim.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x70001xf32>
  %d = "prim.sub"(%x, %mb) : (tensor<2x70001xf32>, tensor<2x70001xf32>) -> tensor<2x70001xf32>
  %e = "prim.exp"(%d) : (tensor<2x70001xf32>) -> tensor<2x70001xf32>
  %s = "prim.sum"(%e) {dims = array<i64: 1>, keepdim = false} : (tensor<2x70001xf32>) -> tensor<2xf32>
  %sb = "prim.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x70001xf32>
  %y = "prim.div"(%e, %sb) : (tensor<2x70001xf32>, tensor<2x70001xf32>) -> tensor<2x70001xf32>
  return %y : tensor<2x70001xf32>
}

// -----

// Sibling reductions: sum(x) and sum(x * x) use no other reduction, so one loop computes
// both (two accumulators); the output then needs one more loop: two passes over the row.
// A block-size shorter than the row makes a row kernel looped at any length. A loop step
// computes as many chunks as keep 128 bytes of loads a thread in flight (4 chunks of 256
// f32 on 64 threads: a step of 1024), their loads first, the accumulators chained.
// SMALL-LABEL: func.func @fused_0_kernel
// SMALL: %[[BOTH:.*]]:2 = scf.for %{{.*}} step %c1024_i32 iter_args(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}) -> (tensor<256xf32>, tensor<256xf32>)
// SMALL-COUNT-4: "tile.load"
// SMALL:   %[[NA:.*]] = arith.addf %[[A]]
// SMALL:   %[[NB:.*]] = arith.addf %[[B]]
// SMALL:   %[[NA2:.*]] = arith.addf %[[NA]]
// SMALL:   %[[NB2:.*]] = arith.addf %[[NB]]
// SMALL:   %[[NA3:.*]] = arith.addf %[[NA2]]
// SMALL:   %[[NB3:.*]] = arith.addf %[[NB2]]
// SMALL:   %[[NA4:.*]] = arith.addf %[[NA3]]
// SMALL:   %[[NB4:.*]] = arith.addf %[[NB3]]
// SMALL:   scf.yield %[[NA4]], %[[NB4]]
// SMALL: "tile.reduce"(%[[BOTH]]#0) {axis = 0 : i32, kind = "sum"}
// SMALL: "tile.reduce"(%[[BOTH]]#1) {axis = 0 : i32, kind = "sum"}
// SMALL: scf.for
// SMALL:   "tile.store"
// SMALL-NOT: scf.for
func.func @moments(%x: tensor<3x1000xf32>) -> tensor<3x1000xf32> {
  %s1 = "prim.sum"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<3x1000xf32>) -> tensor<3x1xf32>
  %x2 = "prim.mul"(%x, %x) : (tensor<3x1000xf32>, tensor<3x1000xf32>) -> tensor<3x1000xf32>
  %s2 = "prim.sum"(%x2) {dims = array<i64: 1>, keepdim = true} : (tensor<3x1000xf32>) -> tensor<3x1xf32>
  %b1 = "prim.broadcast_in_dim"(%s1) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<3x1xf32>) -> tensor<3x1000xf32>
  %b2 = "prim.broadcast_in_dim"(%s2) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<3x1xf32>) -> tensor<3x1000xf32>
  %d = "prim.sub"(%x, %b1) : (tensor<3x1000xf32>, tensor<3x1000xf32>) -> tensor<3x1000xf32>
  %y = "prim.mul"(%d, %b2) : (tensor<3x1000xf32>, tensor<3x1000xf32>) -> tensor<3x1000xf32>
  return %y : tensor<3x1000xf32>
}
