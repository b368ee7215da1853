func.func @colsum(%x: tensor<3x1000xf32>) -> tensor<1000xf32> {
  %s = "prim.sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<3x1000xf32>) -> tensor<1000xf32>
  return %s : tensor<1000xf32>
}
