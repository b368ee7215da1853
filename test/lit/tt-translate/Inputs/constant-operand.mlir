// A linear layer whose weight is a constant (prim.full), read through a transpose.
func.func @weight_full_t(%a: tensor<37x64xbf16>) -> tensor<37x48xbf16> {
  %w = "prim.full"() {value = -0.25 : f32} : () -> tensor<48x64xbf16>
  %t = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<48x64xbf16>) -> tensor<64x48xbf16>
  %y = "prim.matmul"(%a, %t) : (tensor<37x64xbf16>, tensor<64x48xbf16>) -> tensor<37x48xbf16>
  return %y : tensor<37x48xbf16>
}
