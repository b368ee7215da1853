// A decode linear layer with a dynamic batch: y [?, 8192] = x [?, 8192] @ w^T (f16).
func.func @lin(%x: tensor<?x8192xf16>, %w: tensor<8192x8192xf16>) -> tensor<?x8192xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<8192x8192xf16>) -> tensor<8192x8192xf16>
  %y = "prim.matmul"(%x, %wt) : (tensor<?x8192xf16>, tensor<8192x8192xf16>) -> tensor<?x8192xf16>
  return %y : tensor<?x8192xf16>
}
