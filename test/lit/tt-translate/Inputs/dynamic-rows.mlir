// rms_norm over rows of a dynamic batch: x [?, 4096] bf16, one row kernel for any M.
func.func @rms(%x: tensor<?x4096xbf16>, %w: tensor<4096xbf16>) -> tensor<?x4096xbf16> {
  %y = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32} : (tensor<?x4096xbf16>, tensor<4096xbf16>) -> tensor<?x4096xbf16>
  return %y : tensor<?x4096xbf16>
}
