func.func @mid(%x: tensor<2x3x1000xbf16>, %b: tensor<1000xbf16>) -> tensor<2x1x1000xbf16> {
  %s = "prim.sum"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<2x3x1000xbf16>) -> tensor<2x1x1000xbf16>
  %bb = "prim.broadcast_in_dim"(%b) {broadcast_dimensions = array<i64: 2>} : (tensor<1000xbf16>) -> tensor<2x1x1000xbf16>
  %y = "prim.add"(%s, %bb) : (tensor<2x1x1000xbf16>, tensor<2x1x1000xbf16>) -> tensor<2x1x1000xbf16>
  return %y : tensor<2x1x1000xbf16>
}
