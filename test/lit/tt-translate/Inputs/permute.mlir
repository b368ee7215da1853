// x.permute(0, 3, 1, 2) of 2x3x1000x7 f16, then exp: one permute kernel with an epilogue.
func.func @f(%x: tensor<2x3x1000x7xf16>) -> tensor<2x7x3x1000xf16> {
  %t = "prim.transpose"(%x) {permutation = array<i64: 0, 3, 1, 2>} : (tensor<2x3x1000x7xf16>) -> tensor<2x7x3x1000xf16>
  %e = "prim.exp"(%t) : (tensor<2x7x3x1000xf16>) -> tensor<2x7x3x1000xf16>
  return %e : tensor<2x7x3x1000xf16>
}
