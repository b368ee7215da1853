func.func @mm4d(%a: tensor<2x3x5x70xf16>, %b: tensor<2x3x70x33xf16>) -> tensor<2x3x5x33xf16> {
  %0 = "prim.matmul"(%a, %b) : (tensor<2x3x5x70xf16>, tensor<2x3x70x33xf16>) -> tensor<2x3x5x33xf16>
  return %0 : tensor<2x3x5x33xf16>
}
