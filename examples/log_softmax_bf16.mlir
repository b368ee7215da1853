// Log-softmax over the rows of a bf16 matrix, as torch.log_softmax(x, dim=-1).
// Run: tt-opt --decompose --fuse --splitk examples/log_softmax_bf16.mlir | tt-translate --ptx
func.func @log_softmax(%x: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %y = "prim.log_softmax"(%x) {dim = -1 : i64} : (tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  return %y : tensor<8192x8192xbf16>
}
