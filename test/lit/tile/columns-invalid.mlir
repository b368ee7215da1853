// RUN: tt-opt %s --split-input-file --verify-diagnostics --tile='block-size=32 num-warps=4'

// A block smaller than the program's threads.
// expected-error@+1 {{tile: a block of 32 elements is smaller than 32 * num-warps (128 threads)}}
func.func private @fused_0(%x: tensor<4x8xf32>) -> tensor<8xf32> attributes {prim.fusion = "column"} {
  %s = "prim.sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<4x8xf32>) -> tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

// A column fusion whose result is not one value per column (written by hand: --fuse
// never makes one).
// expected-error@+1 {{tile: a column fusion's result must have one element per reduced column (8), not 32}}
func.func private @fused_0(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {prim.fusion = "column"} {
  %s = "prim.sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<4x8xf32>) -> tensor<8xf32>
  %b = "prim.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64: 1>} : (tensor<8xf32>) -> tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}
