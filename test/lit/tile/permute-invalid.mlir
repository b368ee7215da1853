// RUN: tt-opt %s --split-input-file --verify-diagnostics --tile

// A permute fusion without a transpose that moves the last dim (written by hand: --fuse
// never makes one).
// expected-error@+1 {{tile: a permute fusion must contain a transpose that moves the last dim}}
func.func private @fused_0(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {prim.fusion = "permute"} {
  %n = "prim.neg"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}

// -----

// Two of them.
func.func private @fused_0(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {prim.fusion = "permute"} {
  %t = "prim.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  // expected-error@+1 {{tile: a permute fusion holds one transpose that moves the last dim}}
  %u = "prim.transpose"(%t) {permutation = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  return %u : tensor<4x8xf32>
}

// -----

// A result that is not one element per transposed element.
// expected-error@+1 {{tile: a permute fusion's result must have one element per element of its transpose (32), not 64}}
func.func private @fused_0(%x: tensor<4x8xf32>) -> tensor<2x8x4xf32> attributes {prim.fusion = "permute"} {
  %t = "prim.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %b = "prim.broadcast_in_dim"(%t) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<8x4xf32>) -> tensor<2x8x4xf32>
  return %b : tensor<2x8x4xf32>
}

// -----

// A dynamic batch dim: permute kernels need static shapes.
func.func private @fused_0(%x: tensor<?x4x64xf32>) -> tensor<?x64x4xf32> attributes {prim.fusion = "permute"} {
  // expected-error@+1 {{tile: a permute kernel needs static shapes (dim 0 of the transpose's operand is dynamic)}}
  %t = "prim.transpose"(%x) {permutation = array<i64: 0, 2, 1>} : (tensor<?x4x64xf32>) -> tensor<?x64x4xf32>
  return %t : tensor<?x64x4xf32>
}
