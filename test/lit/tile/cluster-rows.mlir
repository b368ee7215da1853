// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --fuse --tile=stage-odd=0 | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --fuse --tile='cluster=2 stage-odd=0' | FileCheck %s --check-prefix=TWO

// (Under stage-odd=0: by default a row of an odd width may be staged in shared memory as
// an aligned one is and split over a cluster of staged programs, stage-odd.mlir.)
// A row past 32768 elements that registers hold over 3 blocks (70001 f32: cdiv(70001,
// 32768); the last block's part holds 4465 columns, no block lies wholly past the row),
// whose looped form would not keep its rows in flight in L2 (132 x 70001 x 4 bytes: 37 MB),
// is split over a thread-block cluster of 3 programs: program p computes part p % 3 of row
// p / 3, columns (p % 3) * 32768 + range, on chip; each reduction of its part is combined
// across the cluster (tile.cluster_reduce), and the launch has cluster = 3 (grid 512 x 3).
// (The PTX of such a kernel: tt-translate/rows.test, LONG.)
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 16 : i32
// CHECK: %[[PID:.*]] = "tile.program_id"() {axis = 0 : i32} : () -> i32
// CHECK: %[[C:.*]] = arith.constant 3 : i32
// CHECK: %[[PART:.*]] = arith.remui %[[PID]], %[[C]] : i32
// CHECK: %[[ROW:.*]] = arith.divui %[[PID]], %[[C]] : i32
// CHECK: %[[FIRST:.*]] = arith.muli %[[PART]], %{{.*}} : i32
// CHECK: %[[M:.*]] = "tile.reduce"(%{{.*}}) {axis = 0 : i32, kind = "max"} : (tensor<32768xf32>) -> f32
// CHECK: "tile.cluster_reduce"(%[[M]]) {kind = "max", size = 3 : i32} : (f32) -> f32
// CHECK: %[[S:.*]] = "tile.reduce"(%{{.*}}) {axis = 0 : i32, kind = "sum"} : (tensor<32768xf32>) -> f32
// CHECK: "tile.cluster_reduce"(%[[S]]) {kind = "sum", size = 3 : i32} : (f32) -> f32
// CHECK-NOT: scf.for
// CHECK: "tile.store"
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: tile.launch = {args = [], cluster = 3 : i64, grid = ["1536", "1", "1"], kernel = @fused_0_kernel}
// cluster=2: no cluster of 2 holds the row: the looped form (rows off 16-byte alignment:
// blocks of 8192 on 16 warps).
// TWO-LABEL: func.func @fused_0_kernel
// TWO-SAME: tile.num_warps = 16 : i32
// TWO: scf.for
// TWO-NOT: cluster_reduce
// TWO: grid = ["512", "1", "1"]
func.func @softmax(%x: tensor<512x70001xf32>) -> tensor<512x70001xf32> {
  %m = "prim.amax"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<512x70001xf32>) -> tensor<512xf32>
  %mb = "prim.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<512xf32>) -> tensor<512x70001xf32>
  %d = "prim.sub"(%x, %mb) : (tensor<512x70001xf32>, tensor<512x70001xf32>) -> tensor<512x70001xf32>
  %e = "prim.exp"(%d) : (tensor<512x70001xf32>) -> tensor<512x70001xf32>
  %s = "prim.sum"(%e) {dims = array<i64: 1>, keepdim = false} : (tensor<512x70001xf32>) -> tensor<512xf32>
  %sb = "prim.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64: 0>} : (tensor<512xf32>) -> tensor<512x70001xf32>
  %y = "prim.div"(%e, %sb) : (tensor<512x70001xf32>, tensor<512x70001xf32>) -> tensor<512x70001xf32>
  return %y : tensor<512x70001xf32>
}

// -----

// One value per row (a row sum) beside the full rows: only the lane of column 0, in the
// cluster's part 0, stores it.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f32>, %[[E:.*]]: !tile.ptr<f32>, %[[S:.*]]: !tile.ptr<f32>)
// CHECK: %[[COLS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<32768xi32>
// CHECK: "tile.store"(%[[E]]
// CHECK: "tile.cluster_reduce"
// CHECK: %[[Z:.*]] = arith.cmpi eq, %[[COLS]], %{{.*}} : tensor<32768xi32>
// CHECK: %[[ZM:.*]] = arith.andi %{{.*}}, %[[Z]]
// CHECK: "tile.store"(%[[S]], %{{.*}}, %{{.*}}, %[[ZM]])
// CHECK: grid = ["1536", "1", "1"]
func.func private @fused_0(%x: tensor<512x70001xf32>) -> (tensor<512x70001xf32>, tensor<512xf32>) attributes {prim.fusion = "row"} {
  %e = "prim.exp"(%x) : (tensor<512x70001xf32>) -> tensor<512x70001xf32>
  %s = "prim.sum"(%e) {dims = array<i64: 1>, keepdim = false} : (tensor<512x70001xf32>) -> tensor<512xf32>
  return %e, %s : tensor<512x70001xf32>, tensor<512xf32>
}
