func.func @main(%x: tensor<256x1024xf16>, %w: tensor<1024x1024xf16> {tt.invariant}) -> tensor<256x1024xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<256x1024xf16>, tensor<1024x1024xf16>) -> tensor<256x1024xf16>
  return %y : tensor<256x1024xf16>
}
