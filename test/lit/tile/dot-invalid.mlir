// RUN: tt-opt %s --split-input-file --verify-diagnostics --tile
// RUN: not tt-opt %s --split-input-file --tile 2>&1 | FileCheck %s --check-prefix=DIAG
// DIAG: dot-invalid.mlir:8:8: error: tile: matmul operands must both be f16, both bf16 or both fp8 (f8E4M3FN or f8E5M2) (got f32 and f32)

// Tensor cores take f16, bf16 or fp8 operands (an f32 matmul has no dot kernel yet).
func.func private @fused_0(%a: tensor<16x64xf32>, %b: tensor<64x32xf32>) -> tensor<16x32xf32> attributes {prim.fusion = "dot"} {
  // expected-error@+1 {{tile: matmul operands must both be f16, both bf16 or both fp8 (f8E4M3FN or f8E5M2) (got f32 and f32)}}
  %c = "prim.matmul"(%a, %b) : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
  return %c : tensor<16x32xf32>
}

// -----

// fp8 goes with fp8 only (f16 x fp8 is not a tensor-core form tt has).
func.func private @fused_0(%a: tensor<16x64xf16>, %b: tensor<64x32xf8E4M3FN>) -> tensor<16x32xf32> attributes {prim.fusion = "dot"} {
  // expected-error@+1 {{tile: matmul operands must both be f16, both bf16 or both fp8 (f8E4M3FN or f8E5M2) (got f16 and f8e4m3)}}
  %c = "prim.matmul"(%a, %b) : (tensor<16x64xf16>, tensor<64x32xf8E4M3FN>) -> tensor<16x32xf32>
  return %c : tensor<16x32xf32>
}

// -----

// Batches must agree: the prim verifier stops a mismatched (or 4-D) matmul before --tile.
func.func private @fused_0(%a: tensor<2x16x64xf16>, %b: tensor<3x64x32xf16>) -> tensor<2x16x32xf16> attributes {prim.fusion = "dot"} {
  // expected-error@+1 {{matmul of #0 (shape 2x16x64) and #1 (shape 3x64x32): the batch sizes 2 and 3 differ}}
  %c = "prim.matmul"(%a, %b) : (tensor<2x16x64xf16>, tensor<3x64x32xf16>) -> tensor<2x16x32xf16>
  return %c : tensor<2x16x32xf16>
}

// -----

// A transposed operand is read in place only when its last two dimensions swap.
func.func private @fused_0(%a: tensor<2x16x64xf16>, %w: tensor<64x2x32xf16>) -> tensor<2x16x32xf16> attributes {prim.fusion = "dot"} {
  // expected-error@+1 {{tile: a transposed matmul operand must swap its last two dimensions (permutation [1, 0], or [0, 2, 1] batched)}}
  %b = "prim.transpose"(%w) {permutation = array<i64: 1, 0, 2>} : (tensor<64x2x32xf16>) -> tensor<2x64x32xf16>
  %c = "prim.matmul"(%a, %b) : (tensor<2x16x64xf16>, tensor<2x64x32xf16>) -> tensor<2x16x32xf16>
  return %c : tensor<2x16x32xf16>
}

// -----

// A dot kernel loads its operands from memory: one computed inside the group cannot be.
func.func private @fused_0(%a: tensor<16x64xf16>, %b: tensor<64x32xf16>) -> tensor<16x32xf16> attributes {prim.fusion = "dot"} {
  %e = "prim.exp"(%a) : (tensor<16x64xf16>) -> tensor<16x64xf16>
  // expected-error@+1 {{tile: the operands of a matmul must be inputs of its group (or the transpose of one)}}
  %c = "prim.matmul"(%e, %b) : (tensor<16x64xf16>, tensor<64x32xf16>) -> tensor<16x32xf16>
  return %c : tensor<16x32xf16>
}

// -----

// A pad of A is read in place only as a K pad (ttPrimIsKPad): by 0, at the end of the
// last dim. A pad by 1.0 would need a kernel of its own.
func.func private @fused_0(%a: tensor<16x1000xf16>, %b: tensor<1024x32xf16>) -> tensor<16x32xf16> attributes {prim.fusion = "dot"} {
  %p = "prim.pad"(%a) {low = array<i64: 0, 0>, high = array<i64: 0, 24>, value = 1.0 : f64} : (tensor<16x1000xf16>) -> tensor<16x1024xf16>
  // expected-error@+1 {{tile: the operands of a matmul must be inputs of its group (or the transpose of one); a may also be a pad by 0 at the end of its last dim alone}}
  %c = "prim.matmul"(%p, %b) : (tensor<16x1024xf16>, tensor<1024x32xf16>) -> tensor<16x32xf16>
  return %c : tensor<16x32xf16>
}

// -----

// expected-error@+1 {{tile: a dot group must hold a prim.matmul}}
func.func private @fused_0(%a: tensor<16x64xf16>) -> tensor<16x64xf16> attributes {prim.fusion = "dot"} {
  %e = "prim.exp"(%a) : (tensor<16x64xf16>) -> tensor<16x64xf16>
  return %e : tensor<16x64xf16>
}

// -----

// expected-error@+1 {{tile: a fused function must return one tensor}}
func.func private @fused_0(%a: tensor<16x64xf16>, %b: tensor<64x32xf16>) attributes {prim.fusion = "dot"} {
  return
}

// -----

// Only M (the rows of a 2-D a) or the batch of both 3-D operands may be dynamic in a dot
// kernel (test/lit/tile/dot-dynamic-batch.mlir has the batch).
func.func private @fused_0(%a: tensor<16x?xf16>, %b: tensor<?x32xf16>) -> tensor<16x32xf16> attributes {prim.fusion = "dot"} {
  // expected-error@+1 {{tile: a dot kernel takes a dynamic M (the rows of a 2-D [M, K] operand a) or a dynamic batch (the leading dim of both 3-D operands); the other dims must be static}}
  %y = "prim.matmul"(%a, %b) : (tensor<16x?xf16>, tensor<?x32xf16>) -> tensor<16x32xf16>
  return %y : tensor<16x32xf16>
}

// -----

// A dynamic batch of a with a static one of b.
func.func private @fused_0(%a: tensor<?x16x64xf16>, %b: tensor<3x64x32xf16>) -> tensor<?x16x32xf16> attributes {prim.fusion = "dot"} {
  // expected-error@+1 {{tile: a dot kernel takes a dynamic M (the rows of a 2-D [M, K] operand a) or a dynamic batch (the leading dim of both 3-D operands); the other dims must be static}}
  %y = "prim.matmul"(%a, %b) : (tensor<?x16x64xf16>, tensor<3x64x32xf16>) -> tensor<?x16x32xf16>
  return %y : tensor<?x16x32xf16>
}

// -----

func.func private @fused_0(%a: tensor<16x?xf16>, %b: tensor<64x32xf16>) -> tensor<16x32xf16> attributes {prim.fusion = "dot"} {
  // expected-error@+1 {{tile: a dot kernel takes a dynamic M (the rows of a 2-D [M, K] operand a) or a dynamic batch (the leading dim of both 3-D operands); the other dims must be static}}
  %y = "prim.matmul"(%a, %b) : (tensor<16x?xf16>, tensor<64x32xf16>) -> tensor<16x32xf16>
  return %y : tensor<16x32xf16>
}

// -----

// A dynamic M's bucket (tile.when) lies inside one of 1-16, 17-32, ..., 513-1024, 1025 on
// (--tile's bucket-split may cut one in two): 1-20 crosses from one into the next (the two
// cover every M once, as the tile verifier asks).
// expected-error@+1 {{tile: tile.when [1, 20] is not a bucket of M (inside one of 1-16, 17-32, ..., 513-1024, 1025 on)}}
func.func private @fused_0(%a: tensor<?x64xf16>, %b: tensor<64x32xf16>) -> tensor<?x32xf16> attributes {prim.fusion = "dot", tile.when = array<i64: 1, 20>} {
  %y = "prim.matmul"(%a, %b) : (tensor<?x64xf16>, tensor<64x32xf16>) -> tensor<?x32xf16>
  return %y : tensor<?x32xf16>
}
func.func private @fused_0_m21up(%a: tensor<?x64xf16>, %b: tensor<64x32xf16>) -> tensor<?x32xf16> attributes {prim.fusion = "dot", tile.variant_of = @fused_0, tile.when = array<i64: 21, 0>} {
  %y = "prim.matmul"(%a, %b) : (tensor<?x64xf16>, tensor<64x32xf16>) -> tensor<?x32xf16>
  return %y : tensor<?x32xf16>
}
