func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = "mydialect.scale"(%x) {by = 2.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
