// RUN: tt-opt %s --split-input-file --verify-diagnostics --decompose --fuse --tile=looped-arg=0

// Rows longer than the on-chip limit (32768) under looped-arg=0: a located error (the
// default, looped-arg=1, takes the looped form: argmax-looped.mlir).
func.func @longer(%x: tensor<2x40000xf32>) -> tensor<2xi64> {
  // expected-error@+1 {{tile: argmax/argmin over rows longer than 32768 elements is not supported under --tile=looped-arg=0 (1, the default, takes the looped form)}}
  %y = "prim.argmax"(%x) {dim = 1 : i64} : (tensor<2x40000xf32>) -> tensor<2xi64>
  return %y : tensor<2xi64>
}

// -----

// Rows past 2^24 elements: the looped form finds the column in f32, exact below 2^24.
func.func @long(%x: tensor<1x16777217xf32>) -> tensor<1xi64> {
  // expected-error@+1 {{tile: argmax/argmin over rows of more than 2^24 elements (16777217) is not supported: the column index is found in f32}}
  %y = "prim.argmax"(%x) {dim = 1 : i64} : (tensor<1x16777217xf32>) -> tensor<1xi64>
  return %y : tensor<1xi64>
}

// -----

// An i64 result that is no argmax (a convert to i64 has no lowering yet).
func.func @convert_i64(%x: tensor<8xf32>) -> tensor<8xi64> {
  // expected-error@+1 {{tile: 'prim.convert' on i64 elements is not supported by the elementwise lowering yet}}
  %y = "prim.convert"(%x) : (tensor<8xf32>) -> tensor<8xi64>
  return %y : tensor<8xi64>
}
