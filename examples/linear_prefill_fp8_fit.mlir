// An fp8 linear layer of 257 rows (a prompt one token past a multiple of 128): y = (x @
// w^T) * sx * sw in f16, x [257, 4096] and w [6144, 4096] (Llama-3-8B's fused q, k, v
// projection) in E4M3 with per-tensor f32 scales, as torch._scaled_mm runs it. 128-row tiles
// would leave a third tile row of one row and a second wave; --tile's prefill model fits
// the tile rows to M instead: 2 tile rows of 144, 96 programs of 144 x 128, one wave, on
// wgmma.m64n144k32 (docs/worked-example-gemm.md, step 7).
// Run: tt-opt --decompose --fuse --splitk examples/linear_prefill_fp8_fit.mlir | tt-translate --ptx -o linear_prefill_fp8_fit.ptx
func.func @linear_prefill_fp8_fit(%x: tensor<257x4096xf8E4M3FN>, %w: tensor<6144x4096xf8E4M3FN> {tt.invariant},
                                  %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<257x6144xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>}
      : (tensor<6144x4096xf8E4M3FN>) -> tensor<4096x6144xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw)
      : (tensor<257x4096xf8E4M3FN>, tensor<4096x6144xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<257x6144xf16>
  return %y : tensor<257x6144xf16>
}
