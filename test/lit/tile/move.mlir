// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --fuse --tile='block-size=256 num-warps=2' | FileCheck %s
// A slice in an elementwise kernel is a load at mapped offsets (passes/tile/emit.c,
// sliceOffsets): per dim d, the result index (offs / result stride % size) becomes
// start + step * index in the operand, times the operand's stride; the starts add one
// constant.

// x[1:5:3, 2:4097:3] of 5x4097 (result 2x1365): offset = offs / 1365 * (3 * 4097)
// + offs % 1365 * 3 + (1 * 4097 + 2).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: %[[OFFS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<256xi32>
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[OFFS]]
// CHECK: %[[R0:.*]] = arith.constant dense<1365> : tensor<256xi32>
// CHECK: %[[I0:.*]] = arith.divui %[[OFFS]], %[[R0]]
// CHECK: %[[S0:.*]] = arith.constant dense<12291> : tensor<256xi32>
// CHECK: %[[O0:.*]] = arith.muli %[[I0]], %[[S0]]
// CHECK: %[[N1:.*]] = arith.constant dense<1365> : tensor<256xi32>
// CHECK: %[[I1:.*]] = arith.remui %[[OFFS]], %[[N1]]
// CHECK: %[[S1:.*]] = arith.constant dense<3> : tensor<256xi32>
// CHECK: %[[O1:.*]] = arith.muli %[[I1]], %[[S1]]
// CHECK: %[[SUM:.*]] = arith.addi %[[O0]], %[[O1]]
// CHECK: %[[BASE:.*]] = arith.constant dense<4099> : tensor<256xi32>
// CHECK: %[[AT:.*]] = arith.addi %[[SUM]], %[[BASE]]
// CHECK: "tile.load"(%arg0, %[[AT]], %[[MASK]], %{{.*}})
// CHECK: "tile.store"(%arg1, %[[OFFS]],
func.func @step3(%x: tensor<5x4097xf32>) -> tensor<2x1365xf32> {
  %s = "prim.slice"(%x) {start = array<i64: 1, 2>, stop = array<i64: 5, 4097>, step = array<i64: 3, 3>} : (tensor<5x4097xf32>) -> tensor<2x1365xf32>
  return %s : tensor<2x1365xf32>
}

// -----

// The merged gate+up split: both halves of dim 1 of [16, 2, 4097] load from the one
// input; dim 1 has size 1 in the result (no index math), so the gate reads
// offs / 4097 * 8194 + offs % 4097 and the up half the same plus 4097.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f32>, %[[Y:.*]]: !tile.ptr<f32>, %{{.*}}: i32)
// CHECK: %[[OFFS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<256xi32>
// CHECK: arith.divui %[[OFFS]], %{{.*}}
// CHECK-NEXT: arith.constant dense<8194>
// CHECK-NEXT: %[[G0:.*]] = arith.muli
// CHECK-NEXT: arith.constant dense<4097>
// CHECK-NEXT: %[[G1:.*]] = arith.remui %[[OFFS]]
// CHECK-NEXT: %[[G:.*]] = arith.addi %[[G0]], %[[G1]]
// CHECK: "tile.load"(%[[X]], %[[G]],
// CHECK: %[[U0:.*]] = arith.addi
// CHECK-NEXT: %[[UB:.*]] = arith.constant dense<4097>
// CHECK-NEXT: %[[U:.*]] = arith.addi %[[U0]], %[[UB]]
// CHECK: "tile.load"(%[[X]], %[[U]],
// CHECK-NOT: "tile.load"
// CHECK: "tile.store"(%[[Y]], %[[OFFS]],
func.func @gate_up(%x: tensor<16x2x4097xf32>) -> tensor<16x1x4097xf32> {
  %g = "prim.slice"(%x) {start = array<i64: 0, 0, 0>, stop = array<i64: 16, 1, 4097>, step = array<i64: 1, 1, 1>} : (tensor<16x2x4097xf32>) -> tensor<16x1x4097xf32>
  %u = "prim.slice"(%x) {start = array<i64: 0, 1, 0>, stop = array<i64: 16, 2, 4097>, step = array<i64: 1, 1, 1>} : (tensor<16x2x4097xf32>) -> tensor<16x1x4097xf32>
  %y = "prim.mul"(%g, %u) : (tensor<16x1x4097xf32>, tensor<16x1x4097xf32>) -> tensor<16x1x4097xf32>
  return %y : tensor<16x1x4097xf32>
}

// -----

// torch.cat([a, b], 1) of 3x1000 and 3x7: the column index c = offs % 1007 and the row
// offs / 1007 pick the operand; a is loaded at row * 1000 + c where c < 1000, b at
// (c - 1000) + row * 7 where c >= 1000 (each load masked to its lanes), and a select
// joins them.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: (%[[A:.*]]: !tile.ptr<f32>, %[[B:.*]]: !tile.ptr<f32>, %[[Y:.*]]: !tile.ptr<f32>, %{{.*}}: i32)
// CHECK: %[[OFFS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<256xi32>
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[OFFS]]
// CHECK: %[[C:.*]] = arith.remui %[[OFFS]]
// CHECK: %[[ROW:.*]] = arith.divui %[[OFFS]]
// CHECK: %[[HI:.*]] = arith.constant dense<1000>
// CHECK-NEXT: %[[INA:.*]] = arith.cmpi ult, %[[C]], %[[HI]]
// CHECK: %[[MA:.*]] = arith.andi %[[MASK]], %[[INA]]
// CHECK: %[[LA:.*]] = "tile.load"(%[[A]], %{{.*}}, %[[MA]],
// CHECK: %[[INB:.*]] = arith.cmpi uge, %[[C]]
// CHECK: arith.subi %[[C]]
// CHECK: arith.constant dense<7>
// CHECK: %[[MB:.*]] = arith.andi %[[MASK]], %[[INB]]
// CHECK: %[[LB:.*]] = "tile.load"(%[[B]], %{{.*}}, %[[MB]],
// CHECK: %[[V:.*]] = arith.select %[[INA]], %[[LA]], %[[LB]]
// CHECK: "tile.store"(%[[Y]], %[[OFFS]], %[[V]], %[[MASK]])
func.func @cat(%a: tensor<3x1000xf32>, %b: tensor<3x7xf32>) -> tensor<3x1007xf32> {
  %c = "prim.concat"(%a, %b) {dim = 1 : i64} : (tensor<3x1000xf32>, tensor<3x7xf32>) -> tensor<3x1007xf32>
  return %c : tensor<3x1007xf32>
}
