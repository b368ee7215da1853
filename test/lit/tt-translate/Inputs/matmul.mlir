// A small f16 matmul (one dot kernel).
func.func @m(%a: tensor<16x64xf16>, %b: tensor<64x32xf16>) -> tensor<16x32xf16> {
  %c = "prim.matmul"(%a, %b) : (tensor<16x64xf16>, tensor<64x32xf16>) -> tensor<16x32xf16>
  return %c : tensor<16x32xf16>
}
