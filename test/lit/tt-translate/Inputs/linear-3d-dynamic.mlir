func.func @main(%x: tensor<?x3x512xf16>, %w: tensor<256x512xf16>) -> tensor<?x3x256xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<?x3x512xf16>, tensor<256x512xf16>) -> tensor<?x3x256xf16>
  return %y : tensor<?x3x256xf16>
}
