// A transpose that feeds no matmul: a permute kernel (8192x8192 bf16, 64x64 tiles).
func.func @f(%x: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %t = "prim.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  return %t : tensor<8192x8192xbf16>
}
