// LayerNorm over the last dimension with bf16 weight and bias, as
// torch.nn.functional.layer_norm(x, (N,), w, b, eps=1e-5).
// Run: tt-opt --decompose --fuse --splitk examples/layer_norm_bf16.mlir | tt-translate --ptx
func.func @layer_norm(%x: tensor<8192x8192xbf16>, %w: tensor<8192xbf16>,
                      %b: tensor<8192xbf16>) -> tensor<8192x8192xbf16> {
  %y = "prim.layer_norm"(%x, %w, %b) {eps = 1.0e-5 : f32}
      : (tensor<8192x8192xbf16>, tensor<8192xbf16>, tensor<8192xbf16>) -> tensor<8192x8192xbf16>
  return %y : tensor<8192x8192xbf16>
}
