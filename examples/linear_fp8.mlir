// An fp8 linear layer at an LLM decode shape, as torch._scaled_mm runs it:
// y = (x @ w^T) * sx * sw in f16, x [16, 8192] and w [8192, 8192] in E4M3 with per-tensor
// f32 scales. --decompose turns prim.scaled_mm into an f32 matmul and two scale products;
// --fuse makes them one dot group; on sm_90a TMA copies the fp8 tiles into swizzled
// shared-memory rings and fp8 wgmma reads them in place (its time against cuBLAS fp8:
// bench/README.md's current GEMM table); other targets widen them to f16 in registers
// for mma.sync. Walked through in docs/worked-example-gemm.md.
// Run: tt-opt --decompose --fuse --splitk examples/linear_fp8.mlir | tt-translate --ptx -o linear_fp8.ptx
func.func @linear_fp8(%x: tensor<16x8192xf8E4M3FN>, %w: tensor<8192x8192xf8E4M3FN>,
                      %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<16x8192xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>}
      : (tensor<8192x8192xf8E4M3FN>) -> tensor<8192x8192xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw)
      : (tensor<16x8192xf8E4M3FN>, tensor<8192x8192xf8E4M3FN>, tensor<f32>, tensor<f32>)
      -> tensor<16x8192xf16>
  return %y : tensor<16x8192xf16>
}
