func.func @main(%x: tensor<256x512xf16>, %w: tensor<512x512xf16>) -> tensor<256x512xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<256x512xf16>, tensor<512x512xf16>) -> tensor<256x512xf16>
  return %y : tensor<256x512xf16>
}
