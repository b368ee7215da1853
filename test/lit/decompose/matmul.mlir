// RUN: tt-opt %s --split-input-file --decompose='align-k=0' --mlir-print-debuginfo=false | FileCheck %s
// RUN: tt-opt %s --split-input-file --decompose='align-k=0' --fuse --tile --mlir-print-debuginfo=false | FileCheck %s --check-prefix=TILE
// prim.matmul with torch.matmul's shapes: --decompose rewrites every form but [M, K] x
// [K, N] and [B, M, K] x [B, K, N] into those (reshapes; broadcast_in_dim where a batch
// dim broadcasts); a transpose of the last two dims stays the matmul's operand (read in
// place by the dot kernel) through a reshape of its input. Every case tiles.
// TILE-NOT: error

// 4-D on both sides: one batched [6, 5, 70] x [6, 70, 33] product.
// CHECK-LABEL: func.func @mm4d
// CHECK-NEXT: %[[A:.*]] = "prim.reshape"(%arg0) : (tensor<2x3x5x70xf16>) -> tensor<6x5x70xf16>
// CHECK-NEXT: %[[B:.*]] = "prim.reshape"(%arg1) : (tensor<2x3x70x33xf16>) -> tensor<6x70x33xf16>
// CHECK-NEXT: %[[P:.*]] = "prim.matmul"(%[[A]], %[[B]]) : (tensor<6x5x70xf16>, tensor<6x70x33xf16>) -> tensor<6x5x33xf16>
// CHECK-NEXT: %[[Y:.*]] = "prim.reshape"(%[[P]]) : (tensor<6x5x33xf16>) -> tensor<2x3x5x33xf16>
// CHECK-NEXT: return %[[Y]]
// TILE-LABEL: func.func @mm4d
func.func @mm4d(%a: tensor<2x3x5x70xf16>, %b: tensor<2x3x70x33xf16>) -> tensor<2x3x5x33xf16> {
  %0 = "prim.matmul"(%a, %b) : (tensor<2x3x5x70xf16>, tensor<2x3x70x33xf16>) -> tensor<2x3x5x33xf16>
  return %0 : tensor<2x3x5x33xf16>
}

// -----

// A 3-D activation times a 2-D weight: one 2-D GEMM of [21, 100] x [100, 65].
// CHECK-LABEL: func.func @mm3d2d
// CHECK-NEXT: %[[A:.*]] = "prim.reshape"(%arg0) : (tensor<3x7x100xbf16>) -> tensor<21x100xbf16>
// CHECK-NEXT: %[[P:.*]] = "prim.matmul"(%[[A]], %arg1) : (tensor<21x100xbf16>, tensor<100x65xbf16>) -> tensor<21x65xf32>
// CHECK-NEXT: %[[Y:.*]] = "prim.reshape"(%[[P]]) : (tensor<21x65xf32>) -> tensor<3x7x65xf32>
// CHECK-NEXT: return %[[Y]]
func.func @mm3d2d(%a: tensor<3x7x100xbf16>, %b: tensor<100x65xbf16>) -> tensor<3x7x65xf32> {
  %0 = "prim.matmul"(%a, %b) : (tensor<3x7x100xbf16>, tensor<100x65xbf16>) -> tensor<3x7x65xf32>
  return %0 : tensor<3x7x65xf32>
}

// -----

// A weight given as [N, K] and transposed (as linear's): the transpose moves to the 2-D
// form, the old one is erased.
// CHECK-LABEL: func.func @mm3d_weight_t
// CHECK-NEXT: %[[A:.*]] = "prim.reshape"(%arg0) : (tensor<4x3x64xf16>) -> tensor<12x64xf16>
// CHECK-NEXT: %[[W:.*]] = "prim.reshape"(%arg1) : (tensor<1x32x64xf16>) -> tensor<32x64xf16>
// CHECK-NEXT: %[[WT:.*]] = "prim.transpose"(%[[W]]) {permutation = array<i64: 1, 0>} : (tensor<32x64xf16>) -> tensor<64x32xf16>
// CHECK-NEXT: %[[P:.*]] = "prim.matmul"(%[[A]], %[[WT]]) : (tensor<12x64xf16>, tensor<64x32xf16>) -> tensor<12x32xf16>
// CHECK-NEXT: %[[Y:.*]] = "prim.reshape"(%[[P]])
// CHECK-NEXT: return %[[Y]]
func.func @mm3d_weight_t(%a: tensor<4x3x64xf16>, %w: tensor<1x32x64xf16>) -> tensor<4x3x32xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 0, 2, 1>} : (tensor<1x32x64xf16>) -> tensor<1x64x32xf16>
  %0 = "prim.matmul"(%a, %wt) : (tensor<4x3x64xf16>, tensor<1x64x32xf16>) -> tensor<4x3x32xf16>
  return %0 : tensor<4x3x32xf16>
}

// -----

// Attention's q @ k^T, k [B, H, S, D]: the reshape goes to k, the transpose of the 3-D
// form feeds the matmul, and --fuse puts it in the dot group (read in place).
// CHECK-LABEL: func.func @q_kT
// CHECK-NEXT: %[[Q:.*]] = "prim.reshape"(%arg0) : (tensor<2x4x17x64xf16>) -> tensor<8x17x64xf16>
// CHECK-NEXT: %[[K:.*]] = "prim.reshape"(%arg1) : (tensor<2x4x17x64xf16>) -> tensor<8x17x64xf16>
// CHECK-NEXT: %[[KT:.*]] = "prim.transpose"(%[[K]]) {permutation = array<i64: 0, 2, 1>} : (tensor<8x17x64xf16>) -> tensor<8x64x17xf16>
// CHECK-NEXT: %[[P:.*]] = "prim.matmul"(%[[Q]], %[[KT]]) : (tensor<8x17x64xf16>, tensor<8x64x17xf16>) -> tensor<8x17x17xf16>
// CHECK-NEXT: %[[Y:.*]] = "prim.reshape"(%[[P]]) : (tensor<8x17x17xf16>) -> tensor<2x4x17x17xf16>
// CHECK-NEXT: return %[[Y]]
// TILE-LABEL: func.func @q_kT
// TILE: tile.trans
func.func @q_kT(%q: tensor<2x4x17x64xf16>, %k: tensor<2x4x17x64xf16>) -> tensor<2x4x17x17xf16> {
  %kt = "prim.transpose"(%k) {permutation = array<i64: 0, 1, 3, 2>} : (tensor<2x4x17x64xf16>) -> tensor<2x4x64x17xf16>
  %0 = "prim.matmul"(%q, %kt) : (tensor<2x4x17x64xf16>, tensor<2x4x64x17xf16>) -> tensor<2x4x17x17xf16>
  return %0 : tensor<2x4x17x17xf16>
}

// -----

// A transpose with another use stays (and the matmul reads its own).
// CHECK-LABEL: func.func @kT_shared
// CHECK: %[[KT:.*]] = "prim.transpose"(%arg1) {permutation = array<i64: 0, 1, 3, 2>}
// CHECK: "prim.transpose"(%{{.*}}) {permutation = array<i64: 0, 2, 1>}
// CHECK: return %{{.*}}, %[[KT]]
func.func @kT_shared(%q: tensor<2x4x17x64xf16>, %k: tensor<2x4x17x64xf16>) -> (tensor<2x4x17x17xf16>, tensor<2x4x64x17xf16>) {
  %kt = "prim.transpose"(%k) {permutation = array<i64: 0, 1, 3, 2>} : (tensor<2x4x17x64xf16>) -> tensor<2x4x64x17xf16>
  %0 = "prim.matmul"(%q, %kt) : (tensor<2x4x17x64xf16>, tensor<2x4x64x17xf16>) -> tensor<2x4x17x17xf16>
  return %0, %kt : tensor<2x4x17x17xf16>, tensor<2x4x64x17xf16>
}

// -----

// A broadcast batch dim (1 against 3, and a missing one against 2): both operands are
// materialized to the batch [2, 3] first.
// CHECK-LABEL: func.func @broadcast_batch
// CHECK-NEXT: %[[A:.*]] = "prim.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 0, 1, 2, 3>} : (tensor<2x1x5x16xf16>) -> tensor<2x3x5x16xf16>
// CHECK-NEXT: %[[A3:.*]] = "prim.reshape"(%[[A]]) : (tensor<2x3x5x16xf16>) -> tensor<6x5x16xf16>
// CHECK-NEXT: %[[B:.*]] = "prim.broadcast_in_dim"(%arg1) {broadcast_dimensions = array<i64: 1, 2, 3>} : (tensor<3x16x8xf16>) -> tensor<2x3x16x8xf16>
// CHECK-NEXT: %[[B3:.*]] = "prim.reshape"(%[[B]]) : (tensor<2x3x16x8xf16>) -> tensor<6x16x8xf16>
// CHECK-NEXT: %[[P:.*]] = "prim.matmul"(%[[A3]], %[[B3]]) : (tensor<6x5x16xf16>, tensor<6x16x8xf16>) -> tensor<6x5x8xf16>
// CHECK-NEXT: "prim.reshape"(%[[P]]) : (tensor<6x5x8xf16>) -> tensor<2x3x5x8xf16>
func.func @broadcast_batch(%a: tensor<2x1x5x16xf16>, %b: tensor<3x16x8xf16>) -> tensor<2x3x5x8xf16> {
  %0 = "prim.matmul"(%a, %b) : (tensor<2x1x5x16xf16>, tensor<3x16x8xf16>) -> tensor<2x3x5x8xf16>
  return %0 : tensor<2x3x5x8xf16>
}

// -----

// A 2-D a against a batched b: a is broadcast along the batch.
// CHECK-LABEL: func.func @mm2d3d
// CHECK-NEXT: %[[A:.*]] = "prim.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<5x16xf16>) -> tensor<4x5x16xf16>
// CHECK-NEXT: %[[P:.*]] = "prim.matmul"(%[[A]], %arg1) : (tensor<4x5x16xf16>, tensor<4x16x8xf16>) -> tensor<4x5x8xf16>
// CHECK-NEXT: return %[[P]]
func.func @mm2d3d(%a: tensor<5x16xf16>, %b: tensor<4x16x8xf16>) -> tensor<4x5x8xf16> {
  %0 = "prim.matmul"(%a, %b) : (tensor<5x16xf16>, tensor<4x16x8xf16>) -> tensor<4x5x8xf16>
  return %0 : tensor<4x5x8xf16>
}

// -----

// 1-D operands: [K] as [1, K] (first) or [K, 1] (second), the 1 dropped from the result.
// CHECK-LABEL: func.func @vecmat
// CHECK-NEXT: %[[A:.*]] = "prim.reshape"(%arg0) : (tensor<16xbf16>) -> tensor<1x16xbf16>
// CHECK-NEXT: %[[P:.*]] = "prim.matmul"(%[[A]], %arg1) : (tensor<1x16xbf16>, tensor<16x8xbf16>) -> tensor<1x8xbf16>
// CHECK-NEXT: "prim.reshape"(%[[P]]) : (tensor<1x8xbf16>) -> tensor<8xbf16>
// CHECK-LABEL: func.func @matvec
// CHECK-NEXT: %[[B:.*]] = "prim.reshape"(%arg1) : (tensor<16xbf16>) -> tensor<16x1xbf16>
// CHECK-NEXT: %[[P:.*]] = "prim.matmul"(%arg0, %[[B]]) : (tensor<5x16xbf16>, tensor<16x1xbf16>) -> tensor<5x1xbf16>
// CHECK-NEXT: "prim.reshape"(%[[P]]) : (tensor<5x1xbf16>) -> tensor<5xbf16>
// CHECK-LABEL: func.func @dot
// CHECK: "prim.matmul"(%{{.*}}, %{{.*}}) : (tensor<1x16xbf16>, tensor<16x1xbf16>) -> tensor<1x1xbf16>
// CHECK-NEXT: "prim.reshape"(%{{.*}}) : (tensor<1x1xbf16>) -> tensor<bf16>
func.func @vecmat(%a: tensor<16xbf16>, %b: tensor<16x8xbf16>) -> tensor<8xbf16> {
  %0 = "prim.matmul"(%a, %b) : (tensor<16xbf16>, tensor<16x8xbf16>) -> tensor<8xbf16>
  return %0 : tensor<8xbf16>
}
func.func @matvec(%a: tensor<5x16xbf16>, %b: tensor<16xbf16>) -> tensor<5xbf16> {
  %0 = "prim.matmul"(%a, %b) : (tensor<5x16xbf16>, tensor<16xbf16>) -> tensor<5xbf16>
  return %0 : tensor<5xbf16>
}
func.func @dot(%a: tensor<16xbf16>, %b: tensor<16xbf16>) -> tensor<bf16> {
  %0 = "prim.matmul"(%a, %b) : (tensor<16xbf16>, tensor<16xbf16>) -> tensor<bf16>
  return %0 : tensor<bf16>
}

// -----

// The forms the dot kernels take stay as they are.
// CHECK-LABEL: func.func @kept
// CHECK-NEXT: "prim.matmul"(%arg0, %arg1) : (tensor<5x16xf16>, tensor<16x8xf16>) -> tensor<5x8xf16>
// CHECK-NEXT: "prim.matmul"(%arg2, %arg3) : (tensor<3x5x16xf16>, tensor<3x16x8xf16>) -> tensor<3x5x8xf16>
func.func @kept(%a: tensor<5x16xf16>, %b: tensor<16x8xf16>, %c: tensor<3x5x16xf16>, %d: tensor<3x16x8xf16>) -> (tensor<5x8xf16>, tensor<3x5x8xf16>) {
  %0 = "prim.matmul"(%a, %b) : (tensor<5x16xf16>, tensor<16x8xf16>) -> tensor<5x8xf16>
  %1 = "prim.matmul"(%c, %d) : (tensor<3x5x16xf16>, tensor<3x16x8xf16>) -> tensor<3x5x8xf16>
  return %0, %1 : tensor<5x8xf16>, tensor<3x5x8xf16>
}

// -----

// f32 operands: XLA's BF16_BF16_F32_X3, each operand split into bf16 hi and lo parts and
// three bf16 products summed in f32; a transposed weight is split before its transpose,
// which each product gets again, so every dot kernel reads it in place.
// CHECK-LABEL: func.func @mm_f32
// CHECK-NEXT: %[[AH:.*]] = "prim.convert"(%arg0) : (tensor<37x100xf32>) -> tensor<37x100xbf16>
// CHECK-NEXT: %[[AHF:.*]] = "prim.convert"(%[[AH]]) : (tensor<37x100xbf16>) -> tensor<37x100xf32>
// CHECK-NEXT: %[[AD:.*]] = "prim.sub"(%arg0, %[[AHF]])
// CHECK-NEXT: %[[AL:.*]] = "prim.convert"(%[[AD]]) : (tensor<37x100xf32>) -> tensor<37x100xbf16>
// CHECK-NEXT: %[[WH:.*]] = "prim.convert"(%arg1) : (tensor<65x100xf32>) -> tensor<65x100xbf16>
// CHECK: %[[WL:.*]] = "prim.convert"({{.*}}) : (tensor<65x100xf32>) -> tensor<65x100xbf16>
// CHECK: %[[T1:.*]] = "prim.transpose"(%[[WH]])
// CHECK-NEXT: %[[P1:.*]] = "prim.matmul"(%[[AH]], %[[T1]]) : (tensor<37x100xbf16>, tensor<100x65xbf16>) -> tensor<37x65xf32>
// CHECK: %[[T2:.*]] = "prim.transpose"(%[[WL]])
// CHECK-NEXT: %[[P2:.*]] = "prim.matmul"(%[[AH]], %[[T2]])
// CHECK-NEXT: %[[S:.*]] = "prim.add"(%[[P1]], %[[P2]])
// CHECK: %[[T3:.*]] = "prim.transpose"(%[[WH]])
// CHECK-NEXT: %[[P3:.*]] = "prim.matmul"(%[[AL]], %[[T3]])
// CHECK-NEXT: %[[Y:.*]] = "prim.add"(%[[S]], %[[P3]])
// CHECK-NEXT: return %[[Y]]
// CHECK-NOT: prim.transpose
// TILE-LABEL: func.func @mm_f32
func.func @mm_f32(%a: tensor<37x100xf32>, %w: tensor<65x100xf32>) -> tensor<37x65xf32> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<65x100xf32>) -> tensor<100x65xf32>
  %y = "prim.matmul"(%a, %wt) : (tensor<37x100xf32>, tensor<100x65xf32>) -> tensor<37x65xf32>
  return %y : tensor<37x65xf32>
}

// -----

// PyTorch's decomposition of q @ k.transpose(-1, -2) on [B, H, S, D]: a reshape of the
// transpose into a bmm. The reshape only regroups the batch dims, so the transpose moves
// behind it and the dot kernel reads K^T in place (no permute kernel); a dynamic batch
// works the same (the batch of both 3-D operands).
// CHECK-LABEL: func.func @scores_view
// CHECK-NEXT: %[[Q:.*]] = "prim.reshape"(%arg0) : (tensor<?x8x128x64xf16>) -> tensor<?x128x64xf16>
// CHECK-NEXT: %[[K:.*]] = "prim.reshape"(%arg1) : (tensor<?x8x128x64xf16>) -> tensor<?x128x64xf16>
// CHECK-NEXT: %[[KT:.*]] = "prim.transpose"(%[[K]]) {permutation = array<i64: 0, 2, 1>} : (tensor<?x128x64xf16>) -> tensor<?x64x128xf16>
// CHECK-NEXT: %[[S:.*]] = "prim.matmul"(%[[Q]], %[[KT]]) : (tensor<?x128x64xf16>, tensor<?x64x128xf16>) -> tensor<?x128x128xf16>
// CHECK-NEXT: return %[[S]]
// TILE-NOT: prim.fusion = "permute"
// TILE: prim.fusion = "dot"
// TILE-NOT: prim.fusion = "permute"
// TILE-LABEL: func.func @scores_view
func.func @scores_view(%q: tensor<?x8x128x64xf16>, %k: tensor<?x8x128x64xf16>) -> tensor<?x128x128xf16> {
  %kt = "prim.transpose"(%k) {permutation = array<i64: 0, 1, 3, 2>} : (tensor<?x8x128x64xf16>) -> tensor<?x8x64x128xf16>
  %qr = "prim.reshape"(%q) : (tensor<?x8x128x64xf16>) -> tensor<?x128x64xf16>
  %kr = "prim.reshape"(%kt) : (tensor<?x8x64x128xf16>) -> tensor<?x64x128xf16>
  %s = "prim.matmul"(%qr, %kr) : (tensor<?x128x64xf16>, tensor<?x64x128xf16>) -> tensor<?x128x128xf16>
  return %s : tensor<?x128x128xf16>
}
