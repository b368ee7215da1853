// An f16 linear layer at a prefill shape: y = x @ w^T, x [700, 8192] (700 prompt tokens)
// and w [2048, 8192] (Llama-3.2-1B's down projection). Past 128 rows --tile's step 0 weighs
// several tiles by a model of the busiest SM's work over the tile's measured rate and takes
// 128 x 96 on 8 warps: 132 programs, one an SM, where 128 x 128 would make 96
// (docs/worked-example-gemm.md, step 7).
// Run: tt-opt --decompose --fuse --splitk examples/linear_prefill_f16.mlir | tt-translate --ptx -o linear_prefill_f16.ptx
func.func @linear_prefill_f16(%x: tensor<700x8192xf16>, %w: tensor<2048x8192xf16> {tt.invariant})
    -> tensor<700x2048xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<700x8192xf16>, tensor<2048x8192xf16>) -> tensor<700x2048xf16>
  return %y : tensor<700x2048xf16>
}
