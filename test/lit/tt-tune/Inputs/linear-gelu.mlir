func.func @main(%x: tensor<16x4096xf16>, %w: tensor<4096x4096xf16>) -> tensor<16x4096xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<4096x4096xf16>) -> tensor<4096x4096xf16>
  %y = "prim.matmul"(%x, %wt) : (tensor<16x4096xf16>, tensor<4096x4096xf16>) -> tensor<16x4096xf16>
  %g = "prim.tanh"(%y) : (tensor<16x4096xf16>) -> tensor<16x4096xf16>
  return %g : tensor<16x4096xf16>
}
