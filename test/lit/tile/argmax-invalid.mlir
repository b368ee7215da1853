// RUN: tt-opt %s --split-input-file --verify-diagnostics --decompose --fuse --tile

// Rows longer than the on-chip limit (32768) are not computed yet: a located error.
func.func @long(%x: tensor<2x40000xf32>) -> tensor<2xi64> {
  // expected-error@+1 {{tile: argmax/argmin over rows longer than the block (32768 elements) is not supported yet}}
  %y = "prim.argmax"(%x) {dim = 1 : i64} : (tensor<2x40000xf32>) -> tensor<2xi64>
  return %y : tensor<2xi64>
}

// -----

// An i64 result that is no argmax (a convert to i64 has no lowering yet).
func.func @convert_i64(%x: tensor<8xf32>) -> tensor<8xi64> {
  // expected-error@+1 {{tile: 'prim.convert' on i64 elements is not supported by the elementwise lowering yet}}
  %y = "prim.convert"(%x) : (tensor<8xf32>) -> tensor<8xi64>
  return %y : tensor<8xi64>
}
