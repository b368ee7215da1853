// A rotary embedding step (two outputs), f32 [B=2, S=5, H=3, D=8]: test/lit/tt-translate/multi-output.test.
func.func @rotary(%x: tensor<2x5x3x8xf32>, %cos: tensor<5x4xf32>, %sin: tensor<5x4xf32>) -> (tensor<2x5x3x4xf32>, tensor<2x5x3x4xf32>) {
  %x1 = "prim.slice"(%x) {start = array<i64: 0, 0, 0, 0>, stop = array<i64: 2, 5, 3, 4>, step = array<i64: 1, 1, 1, 1>} : (tensor<2x5x3x8xf32>) -> tensor<2x5x3x4xf32>
  %x2 = "prim.slice"(%x) {start = array<i64: 0, 0, 0, 4>, stop = array<i64: 2, 5, 3, 8>, step = array<i64: 1, 1, 1, 1>} : (tensor<2x5x3x8xf32>) -> tensor<2x5x3x4xf32>
  %c = "prim.broadcast_in_dim"(%cos) {broadcast_dimensions = array<i64: 1, 3>} : (tensor<5x4xf32>) -> tensor<2x5x3x4xf32>
  %s = "prim.broadcast_in_dim"(%sin) {broadcast_dimensions = array<i64: 1, 3>} : (tensor<5x4xf32>) -> tensor<2x5x3x4xf32>
  %a = "prim.mul"(%x1, %c) : (tensor<2x5x3x4xf32>, tensor<2x5x3x4xf32>) -> tensor<2x5x3x4xf32>
  %b = "prim.mul"(%x2, %s) : (tensor<2x5x3x4xf32>, tensor<2x5x3x4xf32>) -> tensor<2x5x3x4xf32>
  %o1 = "prim.sub"(%a, %b) : (tensor<2x5x3x4xf32>, tensor<2x5x3x4xf32>) -> tensor<2x5x3x4xf32>
  %d = "prim.mul"(%x2, %c) : (tensor<2x5x3x4xf32>, tensor<2x5x3x4xf32>) -> tensor<2x5x3x4xf32>
  %e = "prim.mul"(%x1, %s) : (tensor<2x5x3x4xf32>, tensor<2x5x3x4xf32>) -> tensor<2x5x3x4xf32>
  %o2 = "prim.add"(%d, %e) : (tensor<2x5x3x4xf32>, tensor<2x5x3x4xf32>) -> tensor<2x5x3x4xf32>
  return %o1, %o2 : tensor<2x5x3x4xf32>, tensor<2x5x3x4xf32>
}
