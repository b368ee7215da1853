// RUN: tt-opt %s --split-input-file --verify-diagnostics --decompose
// Without the verifier the diagnostics print as file:line:col and the exit status is 1.
// RUN: not tt-opt %s --split-input-file --decompose 2>&1 | FileCheck %s --check-prefix=DIAG
// The errors of mean, var, std, relu and clamp: each at the composite's location, the op
// left in place.

func.func @mean_dim_range(%x: tensor<5x7xf32>) -> tensor<5xf32> {
  // DIAG: {{^}}{{.*}}decompose/composites-invalid.mlir:[[@LINE+2]]:8: error: decompose: mean: dim 2 is out of range or repeated for a tensor of rank 2 (expected -2 to 1, each once){{$}}
  // expected-error@+1 {{decompose: mean: dim 2 is out of range or repeated for a tensor of rank 2 (expected -2 to 1, each once)}}
  %y = "prim.mean"(%x) {dims = array<i64: 2>} : (tensor<5x7xf32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}

// -----

func.func @mean_dim_repeated(%x: tensor<5x7xf32>) -> tensor<5xf32> {
  // expected-error@+1 {{decompose: mean: dim -1 is out of range or repeated for a tensor of rank 2 (expected -2 to 1, each once)}}
  %y = "prim.mean"(%x) {dims = array<i64: 1, -1>} : (tensor<5x7xf32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}

// -----

func.func @mean_dims_type(%x: tensor<5x7xf32>) -> tensor<5xf32> {
  // expected-error@+1 {{decompose: mean: dims must be an array<i64: ...>}}
  %y = "prim.mean"(%x) {dims = array<i32: 1>} : (tensor<5x7xf32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}

// -----

func.func @mean_keepdim_type(%x: tensor<5x7xf32>) -> tensor<5xf32> {
  // expected-error@+1 {{decompose: mean: keepdim must be a bool (true or false)}}
  %y = "prim.mean"(%x) {dims = array<i64: 1>, keepdim = 1 : i64} : (tensor<5x7xf32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}

// -----

// keepdim is false when absent: a result that keeps the dim is an error.
func.func @mean_result_keepdim(%x: tensor<5x7xf32>) -> tensor<5x1xf32> {
  // expected-error@+1 {{decompose: mean: the result has type tensor<5x1xf32>; expected tensor<5xf32>}}
  %y = "prim.mean"(%x) {dims = array<i64: 1>} : (tensor<5x7xf32>) -> tensor<5x1xf32>
  return %y : tensor<5x1xf32>
}

// -----

func.func @mean_result_dtype(%x: tensor<5x7xbf16>) -> tensor<5xf32> {
  // expected-error@+1 {{decompose: mean: the result has type tensor<5xf32>; expected tensor<5xbf16>}}
  %y = "prim.mean"(%x) {dims = array<i64: 1>} : (tensor<5x7xbf16>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}

// -----

func.func @mean_int(%x: tensor<5x7xi32>) -> tensor<5xi32> {
  // expected-error@+1 {{decompose: mean: the input has dtype i32; f32, f16, bf16 or f64 is supported}}
  %y = "prim.mean"(%x) {dims = array<i64: 1>} : (tensor<5x7xi32>) -> tensor<5xi32>
  return %y : tensor<5xi32>
}

// -----

func.func @var_correction_type(%x: tensor<5x7xf32>) -> tensor<5xf32> {
  // expected-error@+1 {{decompose: var: correction must be an integer attribute}}
  %y = "prim.var"(%x) {dims = array<i64: 1>, correction = 1.0 : f32} : (tensor<5x7xf32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}

// -----

func.func @std_dim_range(%x: tensor<5x7xf32>) -> tensor<7xf32> {
  // expected-error@+1 {{decompose: std: dim -3 is out of range or repeated for a tensor of rank 2 (expected -2 to 1, each once)}}
  %y = "prim.std"(%x) {dims = array<i64: -3>} : (tensor<5x7xf32>) -> tensor<7xf32>
  return %y : tensor<7xf32>
}

// -----

func.func @std_result_shape(%x: tensor<5x7xf32>) -> tensor<5xf32> {
  // expected-error@+1 {{decompose: std: the result has type tensor<5xf32>; expected tensor<7xf32>}}
  %y = "prim.std"(%x) {dims = array<i64: 0>, correction = 0 : i64} : (tensor<5x7xf32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}

// -----

func.func @var_dynamic(%x: tensor<?x7xf32>) -> tensor<7xf32> {
  // expected-error@+1 {{decompose: var over a dynamic dimension is not supported yet}}
  %y = "prim.var"(%x) {dims = array<i64: 0>} : (tensor<?x7xf32>) -> tensor<7xf32>
  return %y : tensor<7xf32>
}

// -----

func.func @clamp_no_bounds(%x: tensor<8xf32>) -> tensor<8xf32> {
  // DIAG: {{^}}{{.*}}decompose/composites-invalid.mlir:[[@LINE+2]]:8: error: decompose: clamp: needs min or max (or both){{$}}
  // expected-error@+1 {{decompose: clamp: needs min or max (or both)}}
  %y = "prim.clamp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

func.func @clamp_min_type(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{decompose: clamp: min must be a float attribute}}
  %y = "prim.clamp"(%x) {min = "zero"} : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

func.func @clamp_max_type(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{decompose: clamp: max must be a float attribute}}
  %y = "prim.clamp"(%x) {min = 0.0 : f32, max = true} : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

func.func @relu_int(%x: tensor<8xi8>) -> tensor<8xi8> {
  // expected-error@+1 {{decompose: relu: the input has dtype i8; f32, f16, bf16 or f64 is supported}}
  %y = "prim.relu"(%x) : (tensor<8xi8>) -> tensor<8xi8>
  return %y : tensor<8xi8>
}
