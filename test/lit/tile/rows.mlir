// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --fuse --tile=row-frame=0 | FileCheck %s
// Row kernels with the default geometry (block and warps chosen from the row length).

// A row group: one program per row (grid = rows, no size argument); the block covers the
// row (1000 -> 1024 elements, 2 warps); the mask is column < N; each reduction selects the
// identity on masked-off lanes, reduces to a scalar and splats it back.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f32>, %[[Y:.*]]: !tile.ptr<f32>)
// CHECK-SAME: tile.num_warps = 2 : i32
// CHECK: %[[PID:.*]] = "tile.program_id"()
// CHECK: %[[COL:.*]] = "tile.range"() {end = 1024 : i32, start = 0 : i32}
// CHECK: arith.muli %[[PID]], %{{.*}} : i32
// CHECK: %[[M:.*]] = arith.cmpi slt, %[[COL]], %{{.*}} : tensor<1024xi32>
// CHECK: %[[V:.*]] = "tile.load"(%[[X]]
// CHECK: %[[SEL:.*]] = arith.select %[[M]], %[[V]], %{{.*}} : tensor<1024xi1>, tensor<1024xf32>
// CHECK: %[[MAX:.*]] = "tile.reduce"(%[[SEL]]) {axis = 0 : i32, kind = "max"} : (tensor<1024xf32>) -> f32
// CHECK: "tile.splat"(%[[MAX]]) : (f32) -> tensor<1024xf32>
// CHECK: math.exp
// CHECK: "tile.reduce"(%{{.*}}) {axis = 0 : i32, kind = "sum"}
// CHECK: arith.divf
// CHECK: "tile.store"(%[[Y]]
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: tile.launch = {args = [], grid = ["4", "1", "1"], kernel = @fused_0_kernel}
func.func @softmax(%x: tensor<4x1000xf32>) -> tensor<4x1000xf32> {
  %m = "prim.amax"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<4x1000xf32>) -> tensor<4xf32>
  %mb = "prim.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x1000xf32>
  %d = "prim.sub"(%x, %mb) : (tensor<4x1000xf32>, tensor<4x1000xf32>) -> tensor<4x1000xf32>
  %e = "prim.exp"(%d) : (tensor<4x1000xf32>) -> tensor<4x1000xf32>
  %s = "prim.sum"(%e) {dims = array<i64: 1>, keepdim = false} : (tensor<4x1000xf32>) -> tensor<4xf32>
  %sb = "prim.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x1000xf32>
  %y = "prim.div"(%e, %sb) : (tensor<4x1000xf32>, tensor<4x1000xf32>) -> tensor<4x1000xf32>
  return %y : tensor<4x1000xf32>
}

// -----

// Short rows: a program computes several (here 5 columns -> a 32-element block, 4 rows a
// program, so one program for the 3 rows), one after another; rows past the last are
// masked off. One value per row: lane 0 stores it at the row's index.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: %[[PID:.*]] = "tile.program_id"()
// CHECK: %[[COL:.*]] = "tile.range"()
// CHECK: %[[R0:.*]] = arith.muli %[[PID]], %{{.*}} : i32
// CHECK: %[[ROW:.*]] = arith.addi %[[R0]], %{{.*}} : i32
// CHECK: %[[RT:.*]] = "tile.splat"(%[[ROW]]) : (i32) -> tensor<32xi32>
// CHECK: arith.cmpi slt, %[[RT]], %{{.*}} : tensor<32xi32>
// CHECK: "tile.reduce"
// CHECK: %[[AT:.*]] = "tile.splat"(%[[ROW]]) : (i32) -> tensor<32xi32>
// CHECK: %[[LANE0:.*]] = arith.cmpi eq, %[[COL]], %{{.*}} : tensor<32xi32>
// CHECK: %[[ST:.*]] = arith.andi %{{.*}}, %[[LANE0]]
// CHECK: "tile.store"(%{{.*}}, %[[AT]], %{{.*}}, %[[ST]])
// CHECK-COUNT-3: "tile.store"
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: grid = ["1", "1", "1"]
func.func @row_sums(%x: tensor<3x5xf32>) -> tensor<3xf32> {
  %s = "prim.sum"(%x) {dims = array<i64: -1>, keepdim = false} : (tensor<3x5xf32>) -> tensor<3xf32>
  return %s : tensor<3xf32>
}
