// A longer chain: a residual add, then RMSNorm, as rms_norm(x + r, (N,), w, eps=1e-6).
// Run: tt-opt --decompose --fuse --splitk examples/residual_rms_norm_bf16.mlir | tt-translate --ptx
func.func @residual_rms_norm(%x: tensor<8192x8192xbf16>, %r: tensor<8192x8192xbf16>,
                             %w: tensor<8192xbf16>) -> tensor<8192x8192xbf16> {
  %h = "prim.add"(%x, %r) : (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  %y = "prim.rms_norm"(%h, %w) {eps = 1.0e-6 : f32}
      : (tensor<8192x8192xbf16>, tensor<8192xbf16>) -> tensor<8192x8192xbf16>
  return %y : tensor<8192x8192xbf16>
}
