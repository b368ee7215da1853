func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = "prim.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
