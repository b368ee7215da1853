// RUN: tt-opt %s --split-input-file --decompose --fuse --tile='cluster=1 stage-regs=0 peel-last=0' | FileCheck %s
// RUN: tt-opt %s --split-input-file --decompose --fuse --tile='block-size=256 num-warps=2 peel-last=0' | FileCheck %s --check-prefix=SMALL

// (stage-regs=0: rows the staged form holds in shared memory and registers, tile/stage-regs.mlir.)
// Rows longer than 32768 elements that no cluster holds (cluster=1 here; tile/cluster-rows.mlir
// has the split) take the looped form: a 32768-element block (32 warps) steps along the
// row. Level 1: amax; level 2: the sum of exp(x - max) needs the max. Where the reduction
// loop takes more than one step a row (70004 f32: three steps of one chunk), the sum joins
// the max's loop as an online normalizer: each step reduces its chunk's max (x masked to
// -inf), m' = max(m, it), sums exp(x - m') of the same registers, and rescales the carried
// sum by exp(m - m'); m and s are scalars. Then a loop for the output: two passes over
// the row.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 32 : i32
// CHECK: %[[COL:.*]] = "tile.range"() {end = 32768 : i32, start = 0 : i32}
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[MS:.*]]:2 = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %c32768_i32 iter_args(%[[M:.*]] = %[[NINF]], %[[S:.*]] = %[[ZERO]]) -> (f32, f32)  : i32 {
// CHECK:   %[[MASK:.*]] = arith.cmpi slt
// CHECK:   %[[X:.*]] = "tile.load"
// CHECK:   %[[XM:.*]] = arith.select %[[MASK]], %[[X]], %{{.*}} : tensor<32768xi1>, tensor<32768xf32>
// CHECK:   %[[STEPMAX:.*]] = "tile.reduce"(%[[XM]]) {axis = 0 : i32, kind = "max"} : (tensor<32768xf32>) -> f32
// CHECK:   %[[MNEW:.*]] = arith.maximumf %[[M]], %[[STEPMAX]] : f32
// CHECK:   %[[SAFE:.*]] = arith.select %{{.*}}, %{{.*}}, %[[MNEW]] : f32
// CHECK:   %[[SPLAT:.*]] = "tile.splat"(%[[SAFE]]) : (f32) -> tensor<32768xf32>
// CHECK:   %[[D:.*]] = arith.subf %[[XM]], %[[SPLAT]]
// CHECK:   %[[E:.*]] = math.exp %[[D]]
// CHECK:   %[[OLD:.*]] = arith.subf %[[M]], %[[SAFE]] : f32
// CHECK:   math.exp %[[OLD]] : f32
// CHECK:   %[[T:.*]] = "tile.reduce"(%[[E]]) {axis = 0 : i32, kind = "sum"} : (tensor<32768xf32>) -> f32
// CHECK:   %[[SCALED:.*]] = arith.mulf %[[S]], %{{.*}} : f32
// CHECK:   %[[SNEW:.*]] = arith.addf %[[SCALED]], %[[T]] : f32
// CHECK:   scf.yield %[[MNEW]], %[[SNEW]] : f32, f32
// CHECK: "tile.splat"(%[[MS]]#0) : (f32) -> tensor<32768xf32>
// CHECK: "tile.splat"(%[[MS]]#1) : (f32) -> tensor<32768xf32>
// CHECK: scf.for
// CHECK:   "tile.load"
// CHECK:   "tile.store"
// CHECK-NOT: scf.for
// CHECK: return
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: grid = ["2", "1", "1"]
// SMALL-LABEL: func.func @fused_0_kernel
// SMALL-SAME: tile.num_warps = 2 : i32
// SMALL: "tile.range"() {end = 256 : i32, start = 0 : i32}
// SMALL-COUNT-2: scf.for
// SMALL-NOT: scf.for
// SMALL: func.func private @fused_0(%arg0: tensor<2x70004xf32>
func.func @softmax(%x: tensor<2x70004xf32>) -> tensor<2x70004xf32> {
  %m = "prim.amax"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<2x70004xf32>) -> tensor<2xf32>
  %mb = "prim.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x70004xf32>
  %d = "prim.sub"(%x, %mb) : (tensor<2x70004xf32>, tensor<2x70004xf32>) -> tensor<2x70004xf32>
  %e = "prim.exp"(%d) : (tensor<2x70004xf32>) -> tensor<2x70004xf32>
  %s = "prim.sum"(%e) {dims = array<i64: 1>, keepdim = false} : (tensor<2x70004xf32>) -> tensor<2xf32>
  %sb = "prim.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x70004xf32>
  %y = "prim.div"(%e, %sb) : (tensor<2x70004xf32>, tensor<2x70004xf32>) -> tensor<2x70004xf32>
  return %y : tensor<2x70004xf32>
}

// -----

// One step a row (65536 bf16: two chunks of 32 a thread, their loads in flight together):
// three passes, the max's loop, the sum's, the output's; the accumulators are tiles.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: scf.for %{{.*}} step %c65536_i32{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<32768xf32>)
// CHECK:   arith.maximumf
// CHECK: "tile.reduce"(%{{.*}}) {axis = 0 : i32, kind = "max"}
// CHECK: scf.for %{{.*}} step %c65536_i32{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<32768xf32>)
// CHECK:   math.exp
// CHECK:   arith.addf
// CHECK: "tile.reduce"(%{{.*}}) {axis = 0 : i32, kind = "sum"}
// CHECK: scf.for
// CHECK:   "tile.store"
// CHECK-NOT: scf.for
// CHECK: return
// SMALL-LABEL: func.func @fused_0_kernel
func.func @softmax_one_step(%x: tensor<4x65536xbf16>) -> tensor<4x65536xbf16> {
  %y = "prim.softmax"(%x) {dim = 1 : i64} : (tensor<4x65536xbf16>) -> tensor<4x65536xbf16>
  return %y : tensor<4x65536xbf16>
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

// -----

// A row of three chunks: the reduction loop's step takes a divisor of them (one chunk,
// step 256: no step holds a chunk wholly past the row); the output loop keeps two chunks
// a step (512), its last step's second chunk masked off.
// SMALL-LABEL: func.func @fused_0_kernel
// SMALL: scf.for %{{.*}} = %{{.*}} to %c768_i32{{.*}} step %c256_i32 iter_args
// SMALL-COUNT-1: "tile.load"
// SMALL: scf.yield
// SMALL: scf.for %{{.*}} = %{{.*}} to %c768_i32{{.*}} step %c512_i32
// SMALL-COUNT-2: "tile.store"
func.func @three_chunks(%x: tensor<3x768xf32>) -> tensor<3x768xf32> {
  %s = "prim.sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<3x768xf32>) -> tensor<3xf32>
  %b = "prim.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<3x768xf32>
  %y = "prim.sub"(%x, %b) : (tensor<3x768xf32>, tensor<3x768xf32>) -> tensor<3x768xf32>
  return %y : tensor<3x768xf32>
}

// -----

// Rows off 16-byte alignment (70001 bf16: each row starts 2 bytes further on) load element
// by element: the looped block is at most 8192 elements on 16 warps (two programs an SM),
// not 32768 on 32 (geometry-rows.c, UNALIGNED_LOOP_BLOCK).
// CHECK-LABEL: func.func @fused_0_kernel(%arg0: !tile.ptr<bf16>
// CHECK-SAME: tile.num_warps = 16 : i32
// CHECK: "tile.range"() {end = 8192 : i32, start = 0 : i32}
// CHECK: scf.for
// SMALL-LABEL: func.func @fused_0_kernel
// SMALL-SAME: tile.num_warps = 2 : i32
func.func @softmax_odd(%x: tensor<4x70001xbf16>) -> tensor<4x70001xbf16> {
  %y = "prim.softmax"(%x) {dim = 1 : i64} : (tensor<4x70001xbf16>) -> tensor<4x70001xbf16>
  return %y : tensor<4x70001xbf16>
}
