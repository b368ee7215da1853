func.func @main(%x: tensor<3x4100xf8E4M3FN>, %w: tensor<1000x4100xf8E5M2>, %sx: tensor<f32>, %sw: tensor<f32>, %b: tensor<1000xbf16>) -> tensor<3x1000xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<1000x4100xf8E5M2>) -> tensor<4100x1000xf8E5M2>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw, %b) : (tensor<3x4100xf8E4M3FN>, tensor<4100x1000xf8E5M2>, tensor<f32>, tensor<f32>, tensor<1000xbf16>) -> tensor<3x1000xbf16>
  return %y : tensor<3x1000xbf16>
}
