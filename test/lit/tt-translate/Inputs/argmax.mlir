// torch.argmax(x, dim=-1) of 5x4097 bf16: a row kernel storing i64 indices.
func.func @f(%x: tensor<5x4097xbf16>) -> tensor<5xi64> {
  %y = "prim.argmax"(%x) {dim = -1 : i64} : (tensor<5x4097xbf16>) -> tensor<5xi64>
  return %y : tensor<5xi64>
}
