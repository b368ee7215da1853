// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --splitk=cluster=1 | FileCheck %s
// Split-K from the shape for 64-row tiles whose tiles fill at most half the SMs: up to two
// programs an SM (their 3-stage rings fit half an SM's shared memory), past one wave only
// with slices of more than two K steps on average (passes/splitk.c, residentPrograms,
// deepSlicesPastWave; bench/2026-11-26-h100-splitk-resident.md).

// 56 tiles, 28 K steps of 128: 4 slices of 7 steps (224 programs, two an SM).
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: grid = ["56", "4", "1"]
func.func @f16_3584(%x: tensor<64x3584xf16>, %w: tensor<3584x3584xf16>) -> tensor<64x3584xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<64x3584xf16>, tensor<3584x3584xf16>) -> tensor<64x3584xf16>
  return %y : tensor<64x3584xf16>
}

// -----

// 16 tiles, 32 K steps of 128: 16 slices would be 2 steps each, so 8 (one wave).
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: grid = ["16", "8", "1"]
func.func @f16_1024(%x: tensor<64x4096xf16>, %w: tensor<1024x4096xf16>) -> tensor<64x1024xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<64x4096xf16>, tensor<1024x4096xf16>) -> tensor<64x1024xf16>
  return %y : tensor<64x1024xf16>
}

// -----

// 16 tiles, 64 K steps: 16 slices of 4 steps pass one wave.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: grid = ["16", "16", "1"]
func.func @f16_1024_deep(%x: tensor<64x8192xf16>, %w: tensor<1024x8192xf16>) -> tensor<64x1024xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<64x8192xf16>, tensor<1024x8192xf16>) -> tensor<64x1024xf16>
  return %y : tensor<64x1024xf16>
}

// -----

// 80 tiles (more than half the SMs): one wave, no split.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: grid = ["80", "1", "1"]
func.func @f16_5120(%x: tensor<64x5120xf16>, %w: tensor<5120x5120xf16>) -> tensor<64x5120xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<64x5120xf16>, tensor<5120x5120xf16>) -> tensor<64x5120xf16>
  return %y : tensor<64x5120xf16>
}

// -----

// 16-row tiles keep one wave: 56 tiles, split 2.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: grid = ["56", "2", "1"]
func.func @f16_3584_m16(%x: tensor<16x3584xf16>, %w: tensor<3584x3584xf16>) -> tensor<16x3584xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x3584xf16>, tensor<3584x3584xf16>) -> tensor<16x3584xf16>
  return %y : tensor<16x3584xf16>
}
