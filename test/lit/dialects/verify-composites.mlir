// RUN: tt-opt %s --split-input-file --verify-diagnostics
// RUN: not tt-opt %s --fuse -o %t.out 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: not test -e %t.out
// Composite ops (softmax, layer_norm, linear, mean, gelu, ...) are checked when the program
// is parsed, by their --decompose rule run on a copy (ttDecomposeCheck): no pass needs to
// run for an ill-formed composite to be a located error, exit 1 and no output.
// DIAG: verify-composites.mlir:11:8: error: decompose: softmax: dim 2 is out of range

func.func @softmax_dim(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{decompose: softmax: dim 2 is out of range for a tensor of rank 2 (expected -2 to 1)}}
  %y = "prim.softmax"(%x) {dim = 2 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @linear_k(%x: tensor<4x8xf16>, %w: tensor<16x9xf16>) -> tensor<4x16xf16> {
  // expected-error@+1 {{decompose: linear: weight must be 2-D [N, K] with K = 8 (the last dimension of x), got tensor<16x9xf16>}}
  %y = "prim.linear"(%x, %w) : (tensor<4x8xf16>, tensor<16x9xf16>) -> tensor<4x16xf16>
  return %y : tensor<4x16xf16>
}

// -----

func.func @mean_twice(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{decompose: mean: dim 1 is out of range or repeated for a tensor of rank 2 (expected -2 to 1, each once)}}
  %y = "prim.mean"(%x) {dims = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @gelu_mode(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{decompose: gelu: approximate = "fast" is not supported ("none" or "tanh")}}
  %y = "prim.gelu"(%x) {approximate = "fast"} : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}
