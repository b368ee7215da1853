// An fp8 linear layer whose K (4100) is no multiple of 16: x [16, 4100] and w [6144, 4100]
// in E4M3, rows of 4100 bytes that TMA cannot stride (its global strides are multiples of
// 16 bytes). --decompose pads both operands with zeros to 128-byte rows (4224: one cache
// line a TMA box row); the weight is `tt.invariant`, so its pad runs once (a launch marked
// `once`), and x's pad is read in place: each program of the dot kernel copies its K
// range of x once into shared memory laid out as TMA slots (--pipeline's resident form,
// cp.async of 4-byte pieces), then fp8 wgmma reads it beside the weight's TMA ring. Walked
// through in docs/worked-example-gemm.md, section 8; timed in
// bench/2026-11-29-h200-fp8-k-pad.md and bench/2026-11-30-h200-resident.md.
// Run: tt-opt --decompose --fuse --splitk examples/linear_fp8_odd_k.mlir | tt-translate --ptx -o linear_fp8_odd_k.ptx
func.func @linear_fp8_odd_k(%x: tensor<16x4100xf8E4M3FN>,
                            %w: tensor<6144x4100xf8E4M3FN> {tt.invariant},
                            %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<16x6144xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>}
      : (tensor<6144x4100xf8E4M3FN>) -> tensor<4100x6144xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw)
      : (tensor<16x4100xf8E4M3FN>, tensor<4100x6144xf8E4M3FN>, tensor<f32>, tensor<f32>)
      -> tensor<16x6144xbf16>
  return %y : tensor<16x6144xbf16>
}
