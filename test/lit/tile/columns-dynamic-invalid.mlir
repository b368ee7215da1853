// RUN: tt-opt %s --split-input-file --verify-diagnostics --decompose --fuse --tile
// Reductions over a dynamic dim that tt refuses, each at its op.

// R from an input of the reduced operand's shape only: here the operand is a reshape
// ([?, 4, 64] as [?, 64]), whose rows no input's leading dim gives.
func.func @reshaped(%a: tensor<?x4x64xf32>) -> tensor<64xf32> {
  %r = "prim.reshape"(%a) : (tensor<?x4x64xf32>) -> tensor<?x64xf32>
  // expected-error@+1 {{tile: a column reduction over a dynamic dimension needs an input of its operand's shape (whose leading dim gives the rows)}}
  %s = "prim.sum"(%r) {dims = array<i64: 0>, keepdim = false} : (tensor<?x64xf32>) -> tensor<64xf32>
  return %s : tensor<64xf32>
}

// -----

// mean divides by the reduced count, a size known at run time only.
func.func @mean(%x: tensor<?x64xf32>) -> tensor<64xf32> {
  // expected-error@+1 {{decompose: mean over a dynamic dimension is not supported yet}}
  %t = "prim.mean"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<?x64xf32>) -> tensor<64xf32>
  return %t : tensor<64xf32>
}

// -----

// argmax over the dynamic dim: transposed last, a row of dynamic length.
func.func @argmax(%x: tensor<?x64xf32>) -> tensor<64xi64> {
  // expected-error@+1 {{tile: only the leading dimension may be dynamic}}
  %t = "prim.argmax"(%x) {dim = 0 : i64} : (tensor<?x64xf32>) -> tensor<64xi64>
  return %t : tensor<64xi64>
}
