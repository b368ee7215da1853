// docs/metadata.md, two-stage split-K example: y = x @ w^T in f32 (metadata.test).
func.func @mm(%x: tensor<16x8192xbf16>, %w: tensor<8192x8192xbf16>) -> tensor<16x8192xf32> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  %y = "prim.matmul"(%x, %wt) : (tensor<16x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<16x8192xf32>
  return %y : tensor<16x8192xf32>
}
