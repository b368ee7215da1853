// y = tanh(x * w): x [?, 1000] (a batch of any size), w [1000] broadcast over the rows.
// The program examples/runtime-c/main.c runs on its own buffers, at two batch sizes.
func.func @scale_tanh(%x: tensor<?x1000xf32>, %w: tensor<1000xf32>) -> tensor<?x1000xf32> {
  %wb = "prim.broadcast_in_dim"(%w) {broadcast_dimensions = array<i64: 1>}
      : (tensor<1000xf32>) -> tensor<?x1000xf32>
  %p = "prim.mul"(%x, %wb) : (tensor<?x1000xf32>, tensor<?x1000xf32>) -> tensor<?x1000xf32>
  %y = "prim.tanh"(%p) : (tensor<?x1000xf32>) -> tensor<?x1000xf32>
  return %y : tensor<?x1000xf32>
}
