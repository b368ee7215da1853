// argmax over rows of 64 with a dynamic number of rows: the result is sized by the input.
func.func @f(%x: tensor<?x64xf32>) -> tensor<?xi64> {
  %t = "prim.argmax"(%x) {dim = 1 : i64} : (tensor<?x64xf32>) -> tensor<?xi64>
  return %t : tensor<?xi64>
}
