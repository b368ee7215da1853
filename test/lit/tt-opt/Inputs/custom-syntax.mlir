func.func @main(%x: tensor<3xf16>) -> tensor<3xf16> {
  %y = prim.neg %x : tensor<3xf16>
  return %y : tensor<3xf16>
}
