// A declaration without a body (issue 22, row 1): a located error at parsing.
func.func private @f(%a: tensor<8xf32>) -> tensor<8xf32>
