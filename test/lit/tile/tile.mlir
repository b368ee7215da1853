// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --fuse --tile='block-size=256 num-warps=2' | FileCheck %s

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

// pow, sin and cos stay exact even for a bf16 result: approximate pow is exp2(y*log2(x)),
// NaN for a negative base (pow(x, 2) of an rms_norm that torch.compile decomposes), and
// sin.approx/cos.approx fail on the large angles of rotary embeddings. exp keeps `afn`.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: math.powf %{{.*}}, %{{.*}} fastmath<contract> : tensor<256xf32>
// CHECK: math.sin %{{.*}} fastmath<contract> : tensor<256xf32>
// CHECK: math.cos %{{.*}} fastmath<contract> : tensor<256xf32>
// CHECK: math.exp %{{.*}} fastmath<contract,afn> : tensor<256xf32>
func.func @pow_sin_bf16(%x: tensor<1000xbf16>, %y: tensor<1000xbf16>) -> tensor<1000xbf16> {
  %p = "prim.pow"(%x, %y) : (tensor<1000xbf16>, tensor<1000xbf16>) -> tensor<1000xbf16>
  %s = "prim.sin"(%p) : (tensor<1000xbf16>) -> tensor<1000xbf16>
  %c = "prim.cos"(%s) : (tensor<1000xbf16>) -> tensor<1000xbf16>
  %e = "prim.exp"(%c) : (tensor<1000xbf16>) -> tensor<1000xbf16>
  return %e : tensor<1000xbf16>
}

// -----

// An f32 tanh must stay f32-accurate: no `afn`.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: math.tanh %{{.*}} fastmath<contract> : tensor<256xf32>
func.func @tanh_f32(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %u = "prim.tanh"(%x) : (tensor<1000xf32>) -> tensor<1000xf32>
  return %u : tensor<1000xf32>
}
