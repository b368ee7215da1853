// Reductions have no lowering yet.
func.func @f(%x: tensor<8xf32>) -> tensor<f32> {
  %s = "prim.sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<8xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
