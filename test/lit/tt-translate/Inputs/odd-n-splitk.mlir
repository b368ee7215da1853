// x [64, 4096] @ w[3001, 4096]^T, f16: rows of 3001 (6002 bytes), split-K 4 (atomic adds).
func.func @main(%x: tensor<64x4096xf16>, %w: tensor<3001x4096xf16> {tt.invariant}) -> tensor<64x3001xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<64x4096xf16>, tensor<3001x4096xf16>) -> tensor<64x3001xf16>
  return %y : tensor<64x3001xf16>
}
