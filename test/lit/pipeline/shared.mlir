// --pipeline='stage-in=shared': the loads of the K loop become cp.async copies into rings of
// shared-memory slots, and tile.dot reads its operands from the slots in place.
// RUN: tt-opt %s --decompose --fuse --tile='block-k=64' --splitk='split-k=2' --pipeline='num-stages=3 stage-in=shared' | FileCheck %s
// The automatic stage count: the most of 2-4 whose rings fit in 48 KiB (16x64 and 64x64
// f16 tiles with 16-byte row pads: 2176 + 8704 bytes a stage, so 4).
// RUN: tt-opt %s --decompose --fuse --tile='block-k=64' --pipeline='stage-in=shared' | FileCheck %s --check-prefix=AUTO
// With block-k=256 two stages need 2 x 42240 bytes: none fits, so the loop is carried in
// registers with 2 stages.
// RUN: tt-opt %s --decompose --fuse --tile='block-k=256' --pipeline='stage-in=shared' | FileCheck %s --check-prefix=FALLBACK
// Asked for more stages than fit: a located error, no output.
// RUN: not tt-opt %s --decompose --fuse --tile='block-k=256' --pipeline='num-stages=4 stage-in=shared' -o %t.out 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not test -e %t.out
// BIG: shared.mlir:[[# @LINE + 46]]:8: error: pipeline: 4 stages in shared memory need 168960 bytes; at most 49152 (48 KiB) are supported (fewer stages, a smaller block-k, or stage-in=registers)
// The lowering: cp.async of 16 bytes (.cg) with the mask as the source size, commit and
// wait groups, and ldmatrix straight from the ring.
// RUN: tt-opt %s --decompose --fuse --tile='block-k=64' --splitk='split-k=2' --pipeline='num-stages=3 stage-in=shared' --convert-tile-to-gpu | FileCheck %s --check-prefix=GPU

// Three stages: one ring per operand, slots 0 and 1 filled before the loop (a group each),
// step i waits until one group is pending, fills slot (i + 2) % 3 and reads slot i % 3;
// no copy outlives the loop.
// CHECK: func.func @fused_0_kernel{{.*}}tile.num_stages = 3
// CHECK: %[[RA:.*]] = "tile.local_alloc"() : () -> memref<3x16x64xf16, 3>
// CHECK: %[[RB:.*]] = "tile.local_alloc"() : () -> memref<3x64x64xf16, 3>
// CHECK: "tile.async_copy"(%{{.*}}, %{{.*}}, %{{.*}}, %[[RA]], %[[S0:.*]]) :
// CHECK: "tile.async_copy"(%{{.*}}, %{{.*}}, %{{.*}}, %[[RB]], %[[S0]]) :
// CHECK: "tile.async_commit"()
// CHECK: "tile.async_copy"(%{{.*}}, %{{.*}}, %{{.*}}, %[[RA]], %[[S1:.*]]) :
// CHECK: "tile.async_commit"()
// CHECK: scf.for %[[K:.*]] = %[[LO:.*]] to %{{.*}} step %[[STEP:.*]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<16x64xf32>)
// CHECK: %[[OFF:.*]] = arith.subi %[[K]], %[[LO]]
// CHECK: %[[I:.*]] = arith.divui %[[OFF]], %[[STEP]]
// CHECK: %[[RD:.*]] = arith.remui %[[I]], %c3_i32
// CHECK: %[[I2:.*]] = arith.addi %[[I]], %c2_i32
// CHECK: %[[WR:.*]] = arith.remui %[[I2]], %c3_i32
// CHECK: "tile.async_wait"() {pending = 1 : i32}
// CHECK: "tile.async_copy"(%{{.*}}, %{{.*}}, %{{.*}}, %[[RA]], %[[WR]])
// CHECK: "tile.async_copy"(%{{.*}}, %{{.*}}, %{{.*}}, %[[RB]], %[[WR]])
// CHECK: "tile.async_commit"()
// CHECK: %[[A:.*]] = "tile.local_load"(%[[RA]], %[[RD]]) : (memref<3x16x64xf16, 3>, i32) -> tensor<16x64xf16>
// CHECK: %[[B:.*]] = "tile.local_load"(%[[RB]], %[[RD]]) : (memref<3x64x64xf16, 3>, i32) -> tensor<64x64xf16>
// CHECK: %[[BT:.*]] = "tile.trans"(%[[B]])
// CHECK: "tile.dot"(%[[A]], %[[BT]], %[[ACC]]) {mma = "sync"} :
// CHECK: "tile.async_wait"() {pending = 0 : i32}
// CHECK-NOT: "tile.load"
// AUTO: tile.num_stages = 4
// AUTO: "tile.local_alloc"() : () -> memref<4x16x64xf16, 3>
// FALLBACK: tile.num_stages = 2
// FALLBACK-NOT: tile.local_alloc
// FALLBACK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// GPU: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %{{.*}} :
// GPU: nvvm.cp.async.commit.group
// GPU: scf.for
// GPU: nvvm.cp.async.wait.group 1
// GPU-NEXT: gpu.barrier
// GPU: nvvm.ldmatrix
// GPU: nvvm.mma.sync
// GPU: nvvm.cp.async.wait.group 0
func.func @linear(%x: tensor<4x512xf16>, %w: tensor<256x512xf16>) -> tensor<4x256xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<4x512xf16>, tensor<256x512xf16>) -> tensor<4x256xf16>
  return %y : tensor<4x256xf16>
}
