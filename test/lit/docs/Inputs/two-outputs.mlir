// docs/metadata.md, third example: two outputs of one kernel (metadata.test).
func.func @two(%x: tensor<1000xf32>) -> (tensor<1000xf32>, tensor<1000xf32>) {
  %e = "prim.exp"(%x) : (tensor<1000xf32>) -> tensor<1000xf32>
  %a = "prim.neg"(%e) : (tensor<1000xf32>) -> tensor<1000xf32>
  %b = "prim.tanh"(%e) : (tensor<1000xf32>) -> tensor<1000xf32>
  return %a, %b : tensor<1000xf32>, tensor<1000xf32>
}
