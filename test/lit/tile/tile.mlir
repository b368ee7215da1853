// RUN: tt-opt %s --split-input-file --fuse --tile='block-size=256 num-warps=2' | FileCheck %s

// The kernel's pid arithmetic, mask and loads are visible in tile IR; f16 math runs in
// f32 and rounds once at the store.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f16>, %[[Y:.*]]: !tile.ptr<f16>, %[[N:.*]]: i32)
// CHECK-SAME: tile.kernel
// CHECK-SAME: tile.num_warps = 2 : i32
// CHECK: %[[PID:.*]] = "tile.program_id"() {axis = 0 : i32}
// CHECK: "tile.range"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
// CHECK: %[[C:.*]] = arith.constant 256 : i32
// CHECK: %[[S:.*]] = arith.muli %[[PID]], %[[C]]
// CHECK: %[[M:.*]] = arith.cmpi slt
// CHECK: %[[V:.*]] = "tile.load"(%[[X]], %{{.*}}, %[[M]], %{{.*}}) : (!tile.ptr<f16>, tensor<256xi32>, tensor<256xi1>, tensor<256xf16>) -> tensor<256xf16>
// CHECK: arith.extf %[[V]] : tensor<256xf16> to tensor<256xf32>
// CHECK: math.exp
// CHECK: arith.truncf
// CHECK: "tile.store"(%[[Y]],
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: tile.launch = {args = ["numel(%r0)"], grid = ["cdiv(numel(%r0),256)", "1", "1"], kernel = @fused_0_kernel}
func.func @exp(%x: tensor<1000xf16>) -> tensor<1000xf16> {
  %y = "prim.exp"(%x) : (tensor<1000xf16>) -> tensor<1000xf16>
  return %y : tensor<1000xf16>
}

// -----

// broadcast_in_dim maps the flat offsets to the operand's: (offs / 1) % 4 for dim 1.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: arith.remui %{{.*}}, %{{.*}} : tensor<256xi32>
// CHECK: "tile.load"
// CHECK: arith.addf
func.func @bias(%x: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  %bb = "prim.broadcast_in_dim"(%b) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<3x4xf32>
  %y = "prim.add"(%x, %bb) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// -----

// Float ops may contract into fma; the result is stored as bf16, so it needs only 16-bit
// accuracy and the math is marked `afn`. Both loads come before any math (with the index
// math they need).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.load"
// CHECK: "tile.load"
// CHECK-NOT: "tile.load"
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract,afn> : tensor<256xf32>
// CHECK: math.tanh %{{.*}} fastmath<contract,afn> : tensor<256xf32>
func.func @tanh_bf16(%x: tensor<1000xbf16>, %y: tensor<1000xbf16>) -> tensor<1000xbf16> {
  %s = "prim.mul"(%x, %x) : (tensor<1000xbf16>, tensor<1000xbf16>) -> tensor<1000xbf16>
  %t = "prim.add"(%s, %y) : (tensor<1000xbf16>, tensor<1000xbf16>) -> tensor<1000xbf16>
  %u = "prim.tanh"(%t) : (tensor<1000xbf16>) -> tensor<1000xbf16>
  return %u : tensor<1000xbf16>
}

// -----

// An f32 tanh must stay f32-accurate: no `afn`.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: math.tanh %{{.*}} fastmath<contract> : tensor<256xf32>
func.func @tanh_f32(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %u = "prim.tanh"(%x) : (tensor<1000xf32>) -> tensor<1000xf32>
  return %u : tensor<1000xf32>
}

// -----

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
