// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --fuse --tile='block-size=256 num-warps=2' | FileCheck %s
// A slice in an elementwise kernel is a load at mapped offsets (passes/tile/move.c,
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

// -----

// An embedding lookup, rows of a 1000x4097 table at 3 i64 indices: the index is loaded at
// the row offs / 4097 (as i64), compared with 1000 in i64 (unsigned: negative indices are
// out too), truncated to i32, and the table loaded at index * 4097 + offs % 4097 under the
// kernel's mask and the in-range lanes (an out-of-range index reads 0).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: (%[[T:.*]]: !tile.ptr<f32>, %[[I:.*]]: !tile.ptr<i64>, %[[Y:.*]]: !tile.ptr<f32>, %{{.*}}: i32)
// CHECK: %[[OFFS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<256xi32>
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[OFFS]]
// CHECK: %[[ROW:.*]] = arith.divui %[[OFFS]]
// CHECK: %[[IV:.*]] = "tile.load"(%[[I]], %[[ROW]], %[[MASK]], %{{.*}}) : (!tile.ptr<i64>, tensor<256xi32>, tensor<256xi1>, tensor<256xi64>) -> tensor<256xi64>
// CHECK: %[[N:.*]] = arith.constant dense<1000> : tensor<256xi64>
// CHECK-NEXT: %[[OK:.*]] = arith.cmpi ult, %[[IV]], %[[N]] : tensor<256xi64>
// CHECK-NEXT: %[[J:.*]] = arith.trunci %[[IV]] : tensor<256xi64> to tensor<256xi32>
// CHECK: %[[JR:.*]] = arith.muli %[[J]]
// CHECK: %[[COL:.*]] = arith.remui %[[OFFS]]
// CHECK-NEXT: %[[AT:.*]] = arith.addi %[[JR]], %[[COL]]
// CHECK-NEXT: %[[M:.*]] = arith.andi %[[MASK]], %[[OK]]
// CHECK: %[[V:.*]] = "tile.load"(%[[T]], %[[AT]], %[[M]],
// CHECK-NOT: arith.select
// CHECK: "tile.store"(%[[Y]], %[[OFFS]], %[[V]], %[[MASK]])
func.func @embedding(%t: tensor<1000x4097xf32>, %i: tensor<3xi64>) -> tensor<3x4097xf32> {
  %e = "prim.index_select"(%t, %i) {dim = 0 : i64} : (tensor<1000x4097xf32>, tensor<3xi64>) -> tensor<3x4097xf32>
  return %e : tensor<3x4097xf32>
}

// -----

// gather along dim 1 of 3x1000x7 with a 3x37x7 i32 index: the index is loaded at the
// result's own offsets (no truncation), x at index * 7 + offs / 259 * 7000 + offs % 7;
// exp(x) of a masked-off lane is not 0, so a select puts 0 there.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f32>, %[[I:.*]]: !tile.ptr<i32>, %[[Y:.*]]: !tile.ptr<f32>, %{{.*}}: i32)
// CHECK: %[[OFFS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<256xi32>
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[OFFS]]
// CHECK: %[[IV:.*]] = "tile.load"(%[[I]], %[[OFFS]], %[[MASK]], %{{.*}}) : (!tile.ptr<i32>
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[IV]]
// CHECK-NOT: arith.trunci
// CHECK: arith.muli %[[IV]]
// CHECK: arith.constant dense<259>
// CHECK: arith.constant dense<7000>
// CHECK: arith.remui %[[OFFS]]
// CHECK-NEXT: %[[AT:.*]] = arith.addi
// CHECK-NEXT: %[[M:.*]] = arith.andi %[[MASK]], %[[OK]]
// CHECK: %[[V:.*]] = "tile.load"(%[[X]], %[[AT]], %[[M]],
// CHECK: %[[E:.*]] = math.exp %[[V]]
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00>
// CHECK-NEXT: arith.select %[[OK]], %[[E]], %[[Z]]
func.func @gather(%x: tensor<3x1000x7xf32>, %i: tensor<3x37x7xi32>) -> tensor<3x37x7xf32> {
  %e = "prim.exp"(%x) : (tensor<3x1000x7xf32>) -> tensor<3x1000x7xf32>
  %g = "prim.gather"(%e, %i) {dim = 1 : i64} : (tensor<3x1000x7xf32>, tensor<3x37x7xi32>) -> tensor<3x37x7xf32>
  return %g : tensor<3x37x7xf32>
}

// -----

// pad of 3x1000 by low 1,2 and high 2,3 (result 6x1005) then exp: per dim the operand index
// i - low, in the operand where below its size (unsigned); x is loaded under the mask of
// those lanes and a select puts 0.5 elsewhere.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f32>, %[[Y:.*]]: !tile.ptr<f32>, %{{.*}}: i32)
// CHECK: %[[OFFS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<256xi32>
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[OFFS]]
// CHECK: %[[R:.*]] = arith.divui %[[OFFS]]
// CHECK: %[[R1:.*]] = arith.subi %[[R]]
// CHECK: %[[IN0:.*]] = arith.cmpi ult, %[[R1]]
// CHECK: %[[C:.*]] = arith.remui %[[OFFS]]
// CHECK: %[[C1:.*]] = arith.subi %[[C]]
// CHECK: %[[IN1:.*]] = arith.cmpi ult, %[[C1]]
// CHECK: %[[OK:.*]] = arith.andi %[[IN0]], %[[IN1]]
// CHECK: %[[M:.*]] = arith.andi %[[MASK]], %[[OK]]
// CHECK: %[[V:.*]] = "tile.load"(%[[X]], %{{.*}}, %[[M]],
// CHECK: %[[P:.*]] = arith.constant dense<5.000000e-01>
// CHECK-NEXT: %[[S:.*]] = arith.select %[[OK]], %[[V]], %[[P]]
// CHECK-NEXT: math.exp %[[S]]
func.func @pad(%x: tensor<3x1000xf32>) -> tensor<6x1005xf32> {
  %p = "prim.pad"(%x) {low = array<i64: 1, 2>, high = array<i64: 2, 3>, value = 0.5 : f64} : (tensor<3x1000xf32>) -> tensor<6x1005xf32>
  %y = "prim.exp"(%p) : (tensor<6x1005xf32>) -> tensor<6x1005xf32>
  return %y : tensor<6x1005xf32>
}

// -----

// iota along dim 1 of 3x1000 plus x: the column offs % 1000, converted to f32; no load.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: %[[OFFS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<256xi32>
// CHECK: %[[C:.*]] = arith.remui %[[OFFS]]
// CHECK-NEXT: %[[F:.*]] = arith.uitofp %[[C]] : tensor<256xi32> to tensor<256xf32>
// CHECK: arith.addf %[[F]]
func.func @iota(%x: tensor<3x1000xbf16>) -> tensor<3x1000xbf16> {
  %i = "prim.iota"() {dimension = 1 : i64} : () -> tensor<3x1000xbf16>
  %y = "prim.add"(%i, %x) : (tensor<3x1000xbf16>, tensor<3x1000xbf16>) -> tensor<3x1000xbf16>
  return %y : tensor<3x1000xbf16>
}
