// Softmax over the rows of a bf16 matrix, as torch.softmax(x, dim=-1).
// Run: tt-opt --decompose --fuse --splitk examples/softmax_bf16.mlir | tt-translate --ptx
func.func @softmax(%x: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %y = "prim.softmax"(%x) {dim = -1 : i64} : (tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  return %y : tensor<8192x8192xbf16>
}
