// --tile multicast=C (a grid of one row of tiles, TMA operands): C consecutive column
// tiles run as one thread-block cluster along x that reads A's tile once. --tile records
// it (tile.multicast, the geometry's `multicast=C`, K stagger 0); --pipeline's TMA form
// gives A's hopper.tma_load `multicast = C` (each block copies R / C of the box's rows
// into every block's slot; the tensor map's box is R / C rows), launches the kernel in
// clusters of C, and orders the rings over the cluster: a cluster barrier after the
// mbarriers' init, and each step's refill of the slot the step before read moved after
// the dot between a cluster wait and arrive (an arrive after the prologue, a wait after
// the loop). B's boxes stay each block's own. (Not a default: it lost or tied on an H200.)
// RUN: tt-opt %s --decompose --fuse --tile='block-n=64 multicast=4' --splitk='split-k=1' | FileCheck %s --check-prefix=TILE
// RUN: tt-opt %s --decompose --fuse --tile='block-n=64 multicast=4' --splitk='split-k=1' --pipeline='num-stages=3 stage-in=tma' | FileCheck %s
// RUN: tt-opt %s --decompose --fuse --tile='block-n=64 multicast=4' --splitk='split-k=1' --pipeline='num-stages=3 stage-in=tma' --convert-tile-to-gpu='mma=wgmma' | FileCheck %s --check-prefix=GPU
// RUN: tt-opt %s --decompose --fuse --tile='block-n=64 multicast=4' --splitk='split-k=1' | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// Split-K's atomics keep the clusters (grid [X, S], clusters along x); a cluster sum
// cannot share them, and reduce=auto does not take it there.
// RUN: tt-opt %s --decompose --fuse --tile='block-n=64 multicast=4' --splitk='split-k=2 reduce=atomic' --pipeline='num-stages=3 stage-in=tma' | FileCheck %s --check-prefix=SPLIT
// RUN: sed 's/tensor<64x/tensor<16x/g' %s | tt-opt --decompose --fuse --tile='block-n=64 multicast=2' --splitk='split-k=2' | FileCheck %s --check-prefix=AUTO
// RUN: not tt-opt %s --decompose --fuse --tile='block-n=64 multicast=4' --splitk='split-k=2 reduce=cluster' 2>&1 | FileCheck %s --check-prefix=NOSUM
// A grid of exactly C rows of tiles shares B instead: the C row tiles of each column run
// as one cluster (programs in column-major order, pid_m = pid mod C), B's box split over
// them (32 of 64 rows each), A's boxes each block's own.
// RUN: sed 's/tensor<64x/tensor<128x/g' %s | tt-opt --decompose --fuse --tile='block-m=64 block-n=64 multicast=2' --splitk='split-k=1' --pipeline='num-stages=3 stage-in=tma' | FileCheck %s --check-prefix=ROWS
// Hand-written tile IR whose tile.multicast_operand is neither 0 nor 1 is refused.
// RUN: sed 's/tensor<64x/tensor<128x/g' %s | tt-opt --decompose --fuse --tile='block-m=64 block-n=64 multicast=2' --splitk='split-k=1' | sed 's/tile.multicast_operand = 1/tile.multicast_operand = 5/' | not tt-opt --pipeline='stage-in=tma' 2>&1 | FileCheck %s --check-prefix=BADOP
// Where it cannot apply it is not taken: one row of 2 column tiles (not a multiple of 4),
// 16-row tiles over 8 blocks (2 rows each: not whole 8-row groups; 4 rows of tiles, not
// 8), three rows of tiles for a cluster of 2, a dynamic M (its row tiles vary at run time).
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=128 multicast=4' --splitk='split-k=1' | FileCheck %s --check-prefix=NONE
// RUN: tt-opt %s --decompose --fuse --tile='block-m=16 block-n=64 multicast=8' --splitk='split-k=1' | FileCheck %s --check-prefix=NONE
// RUN: sed 's/tensor<64x/tensor<192x/g' %s | tt-opt --decompose --fuse --tile='block-m=64 block-n=64 multicast=2' --splitk='split-k=1' | FileCheck %s --check-prefix=NONE
// RUN: sed 's/tensor<64x/tensor<?x/g' %s | tt-opt --decompose --fuse --tile='block-n=64 multicast=2' --splitk='split-k=1' | FileCheck %s --check-prefix=NONE

// TILE: tile.geometry = "block-m=64 block-n=64 block-k={{[0-9]+}} num-warps=4 k-stagger=0 multicast=4"
// TILE-SAME: tile.multicast = 4 : i32

// CHECK-LABEL: func.func @fused_0_kernel(
// CHECK: %[[RA:.*]] = "tile.local_alloc"() : () -> memref<3x64x{{[0-9]+}}xf16, 3>
// CHECK: %[[RB:.*]] = "tile.local_alloc"() : () -> memref<3x64x{{[0-9]+}}xf16, 3>
// CHECK: "hopper.cluster_barrier"()
// CHECK: "hopper.tma_load"(%{{.*}}, %[[RA]], %{{.*}}) {dims = array<i64: 64, 1024>, multicast = 4 : i32}
// CHECK: "hopper.tma_load"(%{{.*}}, %[[RB]], %{{.*}}) {dims = array<i64: 256, 1024>} :
// CHECK: "hopper.cluster_arrive"()
// CHECK-NEXT: scf.for
// CHECK-NOT: "tile.barrier"
// CHECK: "hopper.mbarrier_wait"
// CHECK: "tile.dot"
// CHECK-NEXT: "hopper.cluster_wait"()
// CHECK: "hopper.tma_load"(%{{.*}}, %[[RA]], %{{.*}}) {dims = array<i64: 64, 1024>, multicast = 4 : i32}
// CHECK: "hopper.tma_load"(%{{.*}}, %[[RB]], %{{.*}}) {dims = array<i64: 256, 1024>} :
// CHECK-NEXT: "hopper.cluster_arrive"()
// CHECK-NEXT: scf.yield
// CHECK: "hopper.cluster_wait"()
// CHECK-NOT: hopper.wgmma_wait
// CHECK: tile.launch = {{{.*}}cluster = 4 : i64{{.*}}tma = [array<i64: 1, 64, 1024, 16, 64>, array<i64: 0, 256, 1024, 64, 64>]}

// GPU-LABEL: gpu.func @fused_0_kernel(
// GPU: nvvm.fence.mbarrier.init
// GPU: nvvm.cluster.arrive.relaxed {aligned}
// GPU-NEXT: nvvm.cluster.wait {aligned}
// GPU: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] multicast_mask = %{{.*}}
// GPU: nvvm.cluster.arrive.relaxed {aligned}
// GPU: scf.for

// PTX: //@launch fused_0_kernel grid 4 1 1 block 128 1 1 shared {{[0-9]+}} {{.*}}cluster 4
// PTX: //@arg tma %0 64x1024 box 16x64
// PTX: //@arg tma %1 256x1024 box 64x64
// PTX: barrier.cluster.arrive.relaxed.aligned;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// PTX-NOT: barrier.cluster.arrive.aligned

// SPLIT: "hopper.cluster_barrier"()
// SPLIT: tile.launch = {{{.*}}cluster = 4 : i64{{.*}}grid = ["4", "2", "1"]
// AUTO: tile.geometry = "block-m=16 {{.*}} multicast=2"
// AUTO-SAME: tile.split_k = 2
// AUTO-NOT: tile.cluster_reduce
// AUTO: tile.launch
// AUTO-NOT: cluster
// NOSUM: error: splitk: reduce=cluster cannot sum a kernel whose tiles run as clusters sharing an operand's tile (--tile multicast)
// ROWS-LABEL: func.func @fused_0_kernel(
// ROWS-SAME: multicast=2"
// ROWS-SAME: tile.multicast = 2 : i32, tile.multicast_operand = 1 : i32
// ROWS: %[[PID:.*]] = "tile.program_id"() {axis = 0 : i32}
// ROWS-NEXT: %[[C:.*]] = arith.constant 2 : i32
// ROWS-NEXT: arith.remui %[[PID]], %[[C]]
// ROWS-NEXT: arith.divui %[[PID]], %[[C]]
// ROWS: "hopper.cluster_barrier"()
// ROWS: "hopper.tma_load"({{.*}}) {dims = array<i64: 128, 1024>} :
// ROWS: "hopper.tma_load"({{.*}}) {dims = array<i64: 256, 1024>, multicast = 2 : i32}
// ROWS: tile.launch = {{{.*}}cluster = 2 : i64{{.*}}tma = [array<i64: 1, 128, 1024, 64, 64>, array<i64: 0, 256, 1024, 32, 64>]}
// BADOP: <stdin>:{{[0-9]+}}:{{[0-9]+}}: error: pipeline: tile.multicast_operand must be the integer 0 (A) or 1 (B)
// NONE-NOT: {{tile.multicast|multicast=}}
func.func @linear(%x: tensor<64x1024xf16>, %w: tensor<256x1024xf16>) -> tensor<64x256xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<64x1024xf16>, tensor<256x1024xf16>) -> tensor<64x256xf16>
  return %y : tensor<64x256xf16>
}
