// torch.argmin(x, dim=0) of 3x1000 f32 into i32: a permute kernel, then rows of 3.
func.func @f(%x: tensor<3x1000xf32>) -> tensor<1000xi32> {
  %y = "prim.argmin"(%x) {dim = 0 : i64} : (tensor<3x1000xf32>) -> tensor<1000xi32>
  return %y : tensor<1000xi32>
}
