func.func @q_kT(%q: tensor<2x4x17x64xf16>, %k: tensor<2x4x17x64xf16>) -> tensor<2x4x17x17xf16> {
  %kt = "prim.transpose"(%k) {permutation = array<i64: 0, 1, 3, 2>} : (tensor<2x4x17x64xf16>) -> tensor<2x4x64x17xf16>
  %0 = "prim.matmul"(%q, %kt) : (tensor<2x4x17x64xf16>, tensor<2x4x64x17xf16>) -> tensor<2x4x17x17xf16>
  return %0 : tensor<2x4x17x17xf16>
}
