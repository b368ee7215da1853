// A transpose that feeds no matmul has no kernel yet.
func.func @f(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %t = "prim.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}
