// RMSNorm over the last dimension with a bf16 weight, as
// torch.nn.functional.rms_norm(x, (N,), w, eps=1e-6).
// Run: tt-opt --decompose --fuse --splitk examples/rms_norm_bf16.mlir | tt-translate --ptx
func.func @rms_norm(%x: tensor<8192x8192xbf16>, %w: tensor<8192xbf16>) -> tensor<8192x8192xbf16> {
  %y = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32}
      : (tensor<8192x8192xbf16>, tensor<8192xbf16>) -> tensor<8192x8192xbf16>
  return %y : tensor<8192x8192xbf16>
}
