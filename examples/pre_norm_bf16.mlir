// A pre-norm transformer step that returns two tensors: the new residual stream
// h = x + r and rms_norm(h, (N,), w, eps=1e-6). A fused kernel has one output, so tt emits
// two kernels (the add, then the norm reading h back); `tt-run --graph` replays the pair
// as a CUDA graph and reports the launch gap.
// Run: tt-opt --decompose --fuse --splitk examples/pre_norm_bf16.mlir | tt-translate --ptx
func.func @pre_norm(%x: tensor<8192x8192xbf16>, %r: tensor<8192x8192xbf16>,
                    %w: tensor<8192xbf16>) -> (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) {
  %h = "prim.add"(%x, %r) : (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  %y = "prim.rms_norm"(%h, %w) {eps = 1.0e-6 : f32}
      : (tensor<8192x8192xbf16>, tensor<8192xbf16>) -> tensor<8192x8192xbf16>
  return %h, %y : tensor<8192x8192xbf16>, tensor<8192x8192xbf16>
}
