// RUN: tt-opt %s --split-input-file --decompose --fuse --tile --convert-tile-to-gpu | FileCheck %s

// A bf16 tanh (`afn`) lowers to the exp2/rcp formula on MUFU's ftz intrinsics, lane by lane.
// CHECK-LABEL: gpu.func @fused_0_kernel
// CHECK-NOT: math.tanh
// CHECK: math.absf %{{.*}} : vector<8xf32>
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.f"(%{{.*}}) : (f32) -> f32
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: math.copysign
// CHECK: gpu.return
func.func @tanh_bf16(%x: tensor<1000xbf16>) -> tensor<1000xbf16> {
  %y = "prim.tanh"(%x) : (tensor<1000xbf16>) -> tensor<1000xbf16>
  return %y : tensor<1000xbf16>
}

// -----

// An f32 tanh keeps math.tanh (libdevice's tanhf, accurate to f32).
// CHECK-LABEL: gpu.func @fused_0_kernel
// CHECK: math.tanh %{{.*}} fastmath<contract> : vector<4xf32>
// CHECK-NOT: llvm.call_intrinsic
func.func @tanh_f32(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %y = "prim.tanh"(%x) : (tensor<1000xf32>) -> tensor<1000xf32>
  return %y : tensor<1000xf32>
}

// -----

// With `afn`, an exp2 is MUFU's ex2.approx.ftz and a division of tiles a multiply by
// rcp.approx.ftz: GELU's 1 + tanh(v), which --tile computes as 2 / (1 + 2^(-2 log2(e) v))
// (test/lit/tile/one-plus-tanh.mlir), and a sigmoid's 1 / (1 + e^-x).
// CHECK-LABEL: gpu.func @fused_0_kernel
// CHECK-NOT: math.tanh
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.f"(%{{.*}}) : (f32) -> f32
// CHECK-NOT: arith.divf
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract,afn> : vector<8xf32>
// CHECK: gpu.return
func.func @gelu_tanh_bf16(%x: tensor<1000xbf16>) -> tensor<1000xbf16> {
  %y = "prim.gelu"(%x) {approximate = "tanh"} : (tensor<1000xbf16>) -> tensor<1000xbf16>
  return %y : tensor<1000xbf16>
}

// -----

// In f32 (no `afn`) they stay math.exp2 and arith.divf (LLVM's exact forms).
// CHECK-LABEL: gpu.func @fused_0_kernel
// CHECK: math.exp2 %{{.*}} fastmath<contract> : vector<4xf32>
// CHECK: arith.divf %{{.*}} fastmath<contract> : vector<4xf32>
// CHECK-NOT: llvm.call_intrinsic
func.func @gelu_tanh_f32(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %y = "prim.gelu"(%x) {approximate = "tanh"} : (tensor<1000xf32>) -> tensor<1000xf32>
  return %y : tensor<1000xf32>
}
