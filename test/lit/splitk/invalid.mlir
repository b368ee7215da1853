// RUN: tt-opt %s --verify-diagnostics --splitk='split-k=4'

func.func @matmul(%a: tensor<16x64xf16>, %b: tensor<64x32xf16>) -> tensor<16x32xf16> {
  // expected-error@+1 {{splitk: split-k=4 for matmul kernels is not implemented yet}}
  %c = "prim.matmul"(%a, %b) : (tensor<16x64xf16>, tensor<64x32xf16>) -> tensor<16x32xf16>
  return %c : tensor<16x32xf16>
}
