// docs/metadata.md, first example: y = x * a, a per-column scale (metadata.test).
func.func @scale(%x: tensor<8192x8192xbf16>, %a: tensor<8192xbf16>) -> tensor<8192x8192xbf16> {
  %ab = "prim.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 1>} : (tensor<8192xbf16>) -> tensor<8192x8192xbf16>
  %y = "prim.mul"(%x, %ab) : (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  return %y : tensor<8192x8192xbf16>
}
