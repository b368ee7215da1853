func.func @main(%x: tensor<16x4096xf16>, %w: tensor<16x4096xf16>) -> tensor<16x4096xf16> {
  %y = "prim.matmul"(%x, %w) : (tensor<16x4096xf16>, tensor<16x4096xf16>) -> tensor<16x4096xf16>
  return %y : tensor<16x4096xf16>
}
