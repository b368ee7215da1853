// RUN: tt-opt %s --split-input-file --verify-diagnostics --decompose
// Without the verifier the diagnostics print as file:line:col and the exit status is 1.
// RUN: not tt-opt %s --split-input-file --decompose 2>&1 | FileCheck %s --check-prefix=DIAG

func.func @gelu_approximate(%x: tensor<8xf32>) -> tensor<8xf32> {
  // DIAG: {{^}}{{.*}}decompose/invalid.mlir:[[@LINE+2]]:8: error: decompose: gelu: approximate = "fast" is not supported ("none" or "tanh"){{$}}
  // expected-error@+1 {{decompose: gelu: approximate = "fast" is not supported ("none" or "tanh")}}
  %y = "prim.gelu"(%x) {approximate = "fast"} : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

func.func @softmax_dim(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error@+1 {{decompose: softmax: dim 2 is out of range for a tensor of rank 2 (expected -2 to 1)}}
  %y = "prim.softmax"(%x) {dim = 2 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

func.func @log_softmax_negative_dim(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error@+1 {{decompose: log_softmax: dim -3 is out of range for a tensor of rank 2 (expected -2 to 1)}}
  %y = "prim.log_softmax"(%x) {dim = -3 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

func.func @softmax_rank0(%x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{decompose: softmax: x must have rank 1 or more}}
  %y = "prim.softmax"(%x) {dim = 0 : i64} : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @layer_norm_weight(%x: tensor<2x8xf32>, %w: tensor<4xf32>) -> tensor<2x8xf32> {
  // expected-error@+1 {{decompose: layer_norm: weight must be 1-D of size 8 (the last dimension of x), got tensor<4xf32>}}
  %y = "prim.layer_norm"(%x, %w, %w) {eps = 1.0e-5 : f32} : (tensor<2x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

func.func @layer_norm_weight_2d(%x: tensor<2x8xf32>, %w: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error@+1 {{decompose: layer_norm: weight must be 1-D of size 8 (the last dimension of x), got tensor<2x8xf32>}}
  %y = "prim.layer_norm"(%x, %w, %w) {eps = 1.0e-5 : f32} : (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

func.func @layer_norm_rank0(%x: tensor<f32>, %w: tensor<1xf32>) -> tensor<f32> {
  // expected-error@+1 {{decompose: layer_norm: x must have rank 1 or more}}
  %y = "prim.layer_norm"(%x, %w, %w) {eps = 1.0e-5 : f32} : (tensor<f32>, tensor<1xf32>, tensor<1xf32>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @rms_norm_weight(%x: tensor<2x8xbf16>, %w: tensor<16xbf16>) -> tensor<2x8xbf16> {
  // expected-error@+1 {{decompose: rms_norm: weight must be 1-D of size 8 (the last dimension of x), got tensor<16xbf16>}}
  %y = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32} : (tensor<2x8xbf16>, tensor<16xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

func.func @rms_norm_weight_dtype(%x: tensor<2x8xf32>, %w: tensor<8xi32>) -> tensor<2x8xf32> {
  // expected-error@+1 {{decompose: rms_norm: weight has dtype i32; f32, f16, bf16 or f64 is supported}}
  %y = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32} : (tensor<2x8xf32>, tensor<8xi32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

func.func @silu_i32(%x: tensor<8xi32>) -> tensor<8xi32> {
  // expected-error@+1 {{decompose: silu: the input has dtype i32; f32, f16, bf16 or f64 is supported}}
  %y = "prim.silu"(%x) : (tensor<8xi32>) -> tensor<8xi32>
  return %y : tensor<8xi32>
}

// -----

func.func @sigmoid_dynamic(%x: tensor<4x?xf32>) -> tensor<4x?xf32> {
  // expected-error@+1 {{decompose: sigmoid: only the leading dimension may be dynamic (x has a dynamic dimension 1)}}
  %y = "prim.sigmoid"(%x) : (tensor<4x?xf32>) -> tensor<4x?xf32>
  return %y : tensor<4x?xf32>
}

// -----

func.func @swiglu_rank9(%a: tensor<1x1x1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x1x1x2xf32> {
  // expected-error@+1 {{decompose: swiglu: a has rank 9; at most 8 is supported}}
  %y = "prim.swiglu"(%a, %a) : (tensor<1x1x1x1x1x1x1x1x2xf32>, tensor<1x1x1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x1x1x2xf32>
  return %y : tensor<1x1x1x1x1x1x1x1x2xf32>
}

// -----

func.func @linear_k(%x: tensor<6x8xf32>, %w: tensor<4x6xf32>) -> tensor<6x4xf32> {
  // expected-error@+1 {{decompose: linear: weight must be 2-D [N, K] with K = 8 (the last dimension of x), got tensor<4x6xf32>}}
  %y = "prim.linear"(%x, %w) : (tensor<6x8xf32>, tensor<4x6xf32>) -> tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}

// -----

func.func @linear_dtype(%x: tensor<6x8xbf16>, %w: tensor<4x8xf16>) -> tensor<6x4xbf16> {
  // expected-error@+1 {{decompose: linear: weight has dtype f16 but x has bf16}}
  %y = "prim.linear"(%x, %w) : (tensor<6x8xbf16>, tensor<4x8xf16>) -> tensor<6x4xbf16>
  return %y : tensor<6x4xbf16>
}

// -----

func.func @linear_bias(%x: tensor<6x8xf32>, %w: tensor<4x8xf32>, %b: tensor<6xf32>) -> tensor<6x4xf32> {
  // expected-error@+1 {{decompose: linear: bias must be 1-D of size 4 (the last dimension of x), got tensor<6xf32>}}
  %y = "prim.linear"(%x, %w, %b) : (tensor<6x8xf32>, tensor<4x8xf32>, tensor<6xf32>) -> tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}

// -----

func.func @linear_result(%x: tensor<6x8xbf16>, %w: tensor<4x8xbf16>) -> tensor<6x4xf32> {
  // expected-error@+1 {{decompose: linear: the result has type tensor<6x4xf32>; expected tensor<6x4xbf16>}}
  %y = "prim.linear"(%x, %w) : (tensor<6x8xbf16>, tensor<4x8xbf16>) -> tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}

// -----

// Every unsupported op of a function is reported in one run; the good ones are rewritten.
func.func @two_errors(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) {
  // DIAG: {{^}}{{.*}}decompose/invalid.mlir:[[@LINE+2]]:8: error: decompose: softmax: dim 5
  // expected-error@+1 {{decompose: softmax: dim 5 is out of range}}
  %a = "prim.softmax"(%x) {dim = 5 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %b = "prim.silu"(%x) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // DIAG: {{^}}{{.*}}decompose/invalid.mlir:[[@LINE+2]]:8: error: decompose: gelu: approximate = "erf"
  // expected-error@+1 {{decompose: gelu: approximate = "erf" is not supported}}
  %c = "prim.gelu"(%x) {approximate = "erf"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %a, %b, %c : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>
}

// -----

// prim.scaled_mm takes fp8 operands only (f16 goes through prim.matmul or prim.linear).
func.func @scaled_mm_f16(%a: tensor<2x8xf16>, %b: tensor<8x4xf16>, %s: tensor<f32>) -> tensor<2x4xf16> {
  // expected-error@+1 {{decompose: scaled_mm: a and b must be fp8 (f8E4M3FN or f8E5M2), got f16 and f16}}
  %y = "prim.scaled_mm"(%a, %b, %s, %s) : (tensor<2x8xf16>, tensor<8x4xf16>, tensor<f32>, tensor<f32>) -> tensor<2x4xf16>
  return %y : tensor<2x4xf16>
}

// -----

// Scales are per tensor: rank 0, f32.
func.func @scaled_mm_row_scale(%a: tensor<2x8xf8E4M3FN>, %b: tensor<8x4xf8E4M3FN>, %sa: tensor<2xf32>, %s: tensor<f32>) -> tensor<2x4xf16> {
  // expected-error@+1 {{decompose: scaled_mm: scale_a must be tensor<f32> (per-tensor), got tensor<2xf32>}}
  %y = "prim.scaled_mm"(%a, %b, %sa, %s) : (tensor<2x8xf8E4M3FN>, tensor<8x4xf8E4M3FN>, tensor<2xf32>, tensor<f32>) -> tensor<2x4xf16>
  return %y : tensor<2x4xf16>
}

// -----

// K must agree, and the output is [M, N] of f32, f16 or bf16 (no fp8 outputs yet).
func.func @scaled_mm_shape(%a: tensor<2x8xf8E4M3FN>, %b: tensor<16x4xf8E4M3FN>, %s: tensor<f32>) -> tensor<2x4xf16> {
  // expected-error@+1 {{decompose: scaled_mm: needs a [M, K], b [K, N] and a result [M, N] of f32, f16 or bf16; got tensor<2x8xf8E4M3FN>, tensor<16x4xf8E4M3FN> -> tensor<2x4xf16>}}
  %y = "prim.scaled_mm"(%a, %b, %s, %s) : (tensor<2x8xf8E4M3FN>, tensor<16x4xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<2x4xf16>
  return %y : tensor<2x4xf16>
}

// -----

func.func @scaled_mm_fp8_out(%a: tensor<2x8xf8E4M3FN>, %b: tensor<8x4xf8E4M3FN>, %s: tensor<f32>) -> tensor<2x4xf8E4M3FN> {
  // expected-error@+1 {{decompose: scaled_mm: needs a [M, K], b [K, N] and a result [M, N] of f32, f16 or bf16; got tensor<2x8xf8E4M3FN>, tensor<8x4xf8E4M3FN> -> tensor<2x4xf8E4M3FN>}}
  %y = "prim.scaled_mm"(%a, %b, %s, %s) : (tensor<2x8xf8E4M3FN>, tensor<8x4xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<2x4xf8E4M3FN>
  return %y : tensor<2x4xf8E4M3FN>
}
