// A program with an op tt does not know.
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = "prim.frobnicate"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}
