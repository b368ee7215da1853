func.func @linear(%x: tensor<16x4096xf16>, %w: tensor<4096x4096xf16> {tt.invariant}) -> tensor<16x4096xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x4096xf16>, tensor<4096x4096xf16>) -> tensor<16x4096xf16>
  return %y : tensor<16x4096xf16>
}
