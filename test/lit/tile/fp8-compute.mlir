// RUN: tt-opt %s --split-input-file --decompose --fuse --tile --mlir-print-debuginfo=false | FileCheck %s
// fp8 in kernels that compute (tile/kernel.c step 1): f16, bf16 and fp8 compute in f32, an
// fp8 input widened at its load and a result rounded at its store (tileRoundTo); a
// convert to fp8 rounds there (truncf, then extf to go on in f32), and a result that is
// that convert's value is stored as the truncf made it, not rounded twice.

// Quantize: (x * scale).to(float8_e4m3fn).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: %[[X:.*]] = "tile.load"(%arg0, {{.*}}) -> tensor<1024xf16>
// CHECK: %[[W:.*]] = arith.extf %[[X]] : tensor<1024xf16> to tensor<1024xf32>
// CHECK: %[[M:.*]] = arith.mulf %[[W]], {{.*}} : tensor<1024xf32>
// CHECK: %[[Q:.*]] = arith.truncf %[[M]] : tensor<1024xf32> to tensor<1024xf8E4M3FN>
// CHECK: "tile.store"(%arg2, {{.*}}, %[[Q]], {{.*}}) : (!tile.ptr<f8E4M3FN>
func.func @quant(%x: tensor<3x1000xf16>, %s: tensor<f32>) -> tensor<3x1000xf8E4M3FN> {
  %a = "prim.convert"(%x) : (tensor<3x1000xf16>) -> tensor<3x1000xf32>
  %b = "prim.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<3x1000xf32>
  %c = "prim.mul"(%a, %b) : (tensor<3x1000xf32>, tensor<3x1000xf32>) -> tensor<3x1000xf32>
  %y = "prim.convert"(%c) : (tensor<3x1000xf32>) -> tensor<3x1000xf8E4M3FN>
  return %y : tensor<3x1000xf8E4M3FN>
}

// -----

// Dequantize and a fake-quant round trip: an fp8 input widened to f32 at its load; an
// fp8 value inside the kernel (f16 -> e5m2 -> f16) is a truncf-extf pair (then f16's,
// exact).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: %[[Q:.*]] = "tile.load"(%arg0, {{.*}}) -> tensor<1024xf8E5M2>
// CHECK: arith.extf %[[Q]] : tensor<1024xf8E5M2> to tensor<1024xf32>
// CHECK: %[[R:.*]] = arith.truncf %{{.*}} : tensor<1024xf32> to tensor<1024xf8E5M2>
// CHECK: %[[E:.*]] = arith.extf %[[R]] : tensor<1024xf8E5M2> to tensor<1024xf32>
// CHECK: arith.truncf %[[E]] : tensor<1024xf32> to tensor<1024xf16>
// CHECK: arith.addf
// CHECK: arith.truncf %{{.*}} : tensor<1024xf32> to tensor<1024xf16>
func.func @dequant(%q: tensor<7x100xf8E5M2>, %x: tensor<7x100xf16>) -> tensor<7x100xf16> {
  %a = "prim.convert"(%q) : (tensor<7x100xf8E5M2>) -> tensor<7x100xf16>
  %r = "prim.convert"(%x) : (tensor<7x100xf16>) -> tensor<7x100xf8E5M2>
  %b = "prim.convert"(%r) : (tensor<7x100xf8E5M2>) -> tensor<7x100xf16>
  %y = "prim.add"(%a, %b) : (tensor<7x100xf16>, tensor<7x100xf16>) -> tensor<7x100xf16>
  return %y : tensor<7x100xf16>
}

// -----

// A row kernel: rms_norm's result quantized at its store.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: arith.truncf %{{.*}} : tensor<{{[0-9]+}}xf32> to tensor<{{[0-9]+}}xf8E4M3FN>
// CHECK: "tile.store"({{.*}}) : (!tile.ptr<f8E4M3FN>
func.func @norm_quant(%x: tensor<3x1000xbf16>, %w: tensor<1000xbf16>) -> tensor<3x1000xf8E4M3FN> {
  %n = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32} : (tensor<3x1000xbf16>, tensor<1000xbf16>) -> tensor<3x1000xbf16>
  %y = "prim.convert"(%n) : (tensor<3x1000xbf16>) -> tensor<3x1000xf8E4M3FN>
  return %y : tensor<3x1000xf8E4M3FN>
}

// -----

// A kernel that only moves fp8 (a pad) keeps it fp8, bit for bit: no extf, no truncf.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: arith.extf
// CHECK-NOT: arith.truncf
// CHECK: "tile.store"({{.*}}) : (!tile.ptr<f8E4M3FN>
func.func @pad(%x: tensor<7x100xf8E4M3FN>) -> tensor<7x128xf8E4M3FN> {
  %p = "prim.pad"(%x) {low = array<i64: 0, 0>, high = array<i64: 0, 28>, value = 0.0 : f64} : (tensor<7x100xf8E4M3FN>) -> tensor<7x128xf8E4M3FN>
  return %p : tensor<7x128xf8E4M3FN>
}
