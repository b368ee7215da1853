// An fp8 linear layer of 128 rows (a batch of 128 decode tokens, or a short prefill):
// y = (x @ w^T) * sx * sw in bf16, x [128, 4096] and w [4096, 4096] (Llama-2-7B's q, k, v
// and o projections) in E4M3 with per-tensor f32 scales, as torch._scaled_mm runs it. On
// sm_90a the two 64-row tiles of each 64-column strip make one wave of 128 programs, and
// --pipeline gives each a producer warp that issues the TMA copies while four consumer
// warps run fp8 wgmma (docs/worked-example-gemm.md, step 5).
// Run: tt-opt --decompose --fuse --splitk examples/linear_fp8_m128.mlir | tt-translate --ptx -o linear_fp8_m128.ptx
func.func @linear_fp8_m128(%x: tensor<128x4096xf8E4M3FN>, %w: tensor<4096x4096xf8E4M3FN> {tt.invariant},
                           %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<128x4096xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>}
      : (tensor<4096x4096xf8E4M3FN>) -> tensor<4096x4096xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw)
      : (tensor<128x4096xf8E4M3FN>, tensor<4096x4096xf8E4M3FN>, tensor<f32>, tensor<f32>)
      -> tensor<128x4096xbf16>
  return %y : tensor<128x4096xbf16>
}
