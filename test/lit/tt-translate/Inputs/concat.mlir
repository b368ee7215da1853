func.func @cat(%a: tensor<2x5xbf16>, %b: tensor<7x5xbf16>) -> tensor<9x5xbf16> {
  %c = "prim.concat"(%a, %b) {dim = 0 : i64} : (tensor<2x5xbf16>, tensor<7x5xbf16>) -> tensor<9x5xbf16>
  return %c : tensor<9x5xbf16>
}
