// Greedy decoding's last step: the index of the largest logit of each of 4 rows over a
// vocabulary of 152064 (Qwen2), as torch.argmax(logits, dim=-1). The rows are past the
// on-chip limit (32768): the looped form reads each row once, and few rows (4, under 3/8
// of the SMs) are split over the 8 blocks of a cluster, the max and its first index
// combined across it (bench/2026-11-27-h200-coverage.md: 4.7-5.1 us on an H200).
// Run: tt-opt --decompose --fuse --splitk examples/greedy_argmax_bf16.mlir | tt-translate --ptx
func.func @greedy(%logits: tensor<4x152064xbf16>) -> tensor<4xi64> {
  %ids = "prim.argmax"(%logits) {dim = -1 : i64} : (tensor<4x152064xbf16>) -> tensor<4xi64>
  return %ids : tensor<4xi64>
}
