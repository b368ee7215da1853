// RUN: tt-opt %s --split-input-file --verify-diagnostics
// prim.argmax and prim.argmin: the rules (runtime/rules.c, checkArgReduction and the index
// dtype rule; lib/prim-verify.c reads dim and keepdim). One case per rule; the last chunk
// verifies.

// The result is an index: i64 (PyTorch's dtype) or i32.
func.func @a(%x: tensor<3x1000xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{argmax result must be i64 (or i32), not f32}}
  %0 = "prim.argmax"(%x) {dim = 1 : i64} : (tensor<3x1000xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// The operand is a float tensor.
func.func @b(%x: tensor<3x1000xi32>) -> tensor<3xi64> {
  // expected-error@+1 {{argmax operand #0 must be a float tensor, not i32}}
  %0 = "prim.argmax"(%x) {dim = 1 : i64} : (tensor<3x1000xi32>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// dim is one of the operand's dims (negative ones count from the end).
func.func @c(%x: tensor<3x1000xf32>) -> tensor<3xi64> {
  // expected-error@+1 {{argmin dim[0]=2 but the operand #0 has rank 2}}
  %0 = "prim.argmin"(%x) {dim = 2 : i64} : (tensor<3x1000xf32>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// dim is an integer attribute.
func.func @d(%x: tensor<3x1000xf32>) -> tensor<3xi64> {
  // expected-error@+1 {{'prim.argmax' dim must be an integer (or absent: every dim)}}
  %0 = "prim.argmax"(%x) {dim = array<i64: 1>} : (tensor<3x1000xf32>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// keepdim is a bool.
func.func @e(%x: tensor<3x1000xf32>) -> tensor<3xi64> {
  // expected-error@+1 {{'prim.argmax' keepdim must be a bool (true or false)}}
  %0 = "prim.argmax"(%x) {dim = 1 : i64, keepdim = 1 : i64} : (tensor<3x1000xf32>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// The result is the operand without dim.
func.func @f(%x: tensor<3x1000xf32>) -> tensor<1000xi64> {
  // expected-error@+1 {{argmax dim=1 keepdim=0 of #0 (shape 3x1000) has shape 3, but the result has shape 1000}}
  %0 = "prim.argmax"(%x) {dim = 1 : i64} : (tensor<3x1000xf32>) -> tensor<1000xi64>
  return %0 : tensor<1000xi64>
}

// -----

// keepdim keeps dim with size 1.
func.func @g(%x: tensor<3x1000xf32>) -> tensor<3xi64> {
  // expected-error@+1 {{argmax dim=-1 keepdim=1 of #0 (shape 3x1000) has shape 3x1, but the result has shape 3}}
  %0 = "prim.argmax"(%x) {dim = -1 : i64, keepdim = true} : (tensor<3x1000xf32>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// No dim: every dim (torch.argmax's dim=None), a scalar result.
func.func @h(%x: tensor<3x1000xf32>) -> tensor<3xi64> {
  // expected-error@+1 {{argmin dim= keepdim=0 of #0 (shape 3x1000) has shape scalar, but the result has shape 3}}
  %0 = "prim.argmin"(%x) : (tensor<3x1000xf32>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// Valid: the last dim, a middle dim with keepdim, every dim, an i32 result.
func.func @ok(%x: tensor<2x3x1000xbf16>) -> (tensor<2x3xi64>, tensor<2x1x1000xi64>, tensor<i64>, tensor<2x3xi32>) {
  %0 = "prim.argmax"(%x) {dim = 2 : i64} : (tensor<2x3x1000xbf16>) -> tensor<2x3xi64>
  %1 = "prim.argmin"(%x) {dim = 1 : i64, keepdim = true} : (tensor<2x3x1000xbf16>) -> tensor<2x1x1000xi64>
  %2 = "prim.argmax"(%x) : (tensor<2x3x1000xbf16>) -> tensor<i64>
  %3 = "prim.argmin"(%x) {dim = -1 : i64} : (tensor<2x3x1000xbf16>) -> tensor<2x3xi32>
  return %0, %1, %2, %3 : tensor<2x3xi64>, tensor<2x1x1000xi64>, tensor<i64>, tensor<2x3xi32>
}
