// A pre-norm transformer step that returns two tensors: the new residual stream
// h = x + r and rms_norm(h, (N,), w, eps=1e-6). One row kernel reads x and r once and
// stores both outputs (--fuse makes h an extra output of the norm's row group).
// Run: tt-opt --decompose --fuse --splitk examples/pre_norm_bf16.mlir | tt-translate --ptx
func.func @pre_norm(%x: tensor<8192x8192xbf16>, %r: tensor<8192x8192xbf16>,
                    %w: tensor<8192xbf16>) -> (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) {
  %h = "prim.add"(%x, %r) : (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  %y = "prim.rms_norm"(%h, %w) {eps = 1.0e-6 : f32}
      : (tensor<8192x8192xbf16>, tensor<8192xbf16>) -> tensor<8192x8192xbf16>
  return %h, %y : tensor<8192x8192xbf16>, tensor<8192x8192xbf16>
}
