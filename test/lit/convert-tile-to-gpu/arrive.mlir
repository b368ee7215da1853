// RUN: tt-opt %s --mlir-print-debuginfo=false --convert-tile-to-gpu | FileCheck %s
// tile.arrive (--splitk reduce=last-slice) lowers to cooperative groups' grid-sync
// pattern: a barrier; thread 0 alone fences, adds 1 to the counter word (relaxed), is last
// when it read count - 1, fences again, puts the counter back to 0 when last and writes
// the answer to a shared word; a second barrier; every thread reads it. scf.if on the
// answer (a scalar, the same in every thread) stays an scf.if, its body lowered.
// CHECK: llvm.mlir.global internal @__tt_arrive_flag() {addr_space = 3 : i32
// CHECK: gpu.func @arrive(%[[P:.*]]: !llvm.ptr<1>, %[[I:.*]]: i32)
// CHECK: gpu.barrier
// CHECK: %[[FLAG:.*]] = llvm.mlir.addressof @__tt_arrive_flag
// CHECK: %[[T0:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32
// CHECK: scf.if %[[T0]] {
// CHECK-NEXT: nvvm.inline_ptx "fence.acq_rel.gpu;"
// CHECK-NEXT: %[[W:.*]] = llvm.getelementptr %[[P]][%[[I]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
// CHECK: %[[OLD:.*]] = llvm.atomicrmw add %[[W]], %{{.*}} monotonic : !llvm.ptr<1>, i32
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[OLD]], %c2_i32
// CHECK-NEXT: nvvm.inline_ptx "fence.acq_rel.gpu;"
// CHECK: scf.if %[[LAST]] {
// CHECK-NEXT: llvm.store %{{.*}}, %[[W]] : i32, !llvm.ptr<1>
// CHECK: llvm.store %{{.*}}, %[[FLAG]] : i32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-NEXT: %[[GOT:.*]] = llvm.load %[[FLAG]] : !llvm.ptr<3> -> i32
// CHECK: %[[IS:.*]] = arith.cmpi ne, %[[GOT]]
// CHECK-NEXT: scf.if %[[IS]] {
// CHECK-NEXT: gpu.barrier
func.func @arrive(%p: !tile.ptr<f32>, %i: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %l = "tile.arrive"(%p, %i) {count = 3 : i32} : (!tile.ptr<f32>, i32) -> i1
  scf.if %l {
    "tile.barrier"() : () -> ()
  }
  return
}
