// RUN: tt-opt %s --split-input-file --verify-diagnostics --tile
// Fused functions with several results that --tile refuses, each with a located error.

// expected-error@+1 {{tile: result 1 of an elementwise fusion has another number of elements than result 0}}
func.func private @fused_0(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<4xf32>) attributes {prim.fusion = "elementwise"} {
  %e = "prim.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %s = "prim.slice"(%e) {start = array<i64: 0>, stop = array<i64: 4>, step = array<i64: 1>} : (tensor<8xf32>) -> tensor<4xf32>
  return %e, %s : tensor<8xf32>, tensor<4xf32>
}

// -----

// expected-error@+1 {{tile: result 1 of a row fusion is neither full rows nor one value per row}}
func.func private @fused_0(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>) attributes {prim.fusion = "row"} {
  %s = "prim.sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  %b = "prim.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x8xf32>
  %d = "prim.div"(%x, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = "prim.slice"(%x) {start = array<i64: 0, 0>, stop = array<i64: 1, 8>, step = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %r = "prim.reshape"(%c) : (tensor<1x8xf32>) -> tensor<8xf32>
  return %d, %r : tensor<4x8xf32>, tensor<8xf32>
}

// -----

// expected-error@+1 {{tile: result 1 of a fused function with several results must be a value computed in it, and no other result}}
func.func private @fused_0(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) attributes {prim.fusion = "elementwise"} {
  %e = "prim.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %e, %e : tensor<8xf32>, tensor<8xf32>
}

// -----

// expected-error@+1 {{tile: a dot or column fusion must return one tensor (several outputs: elementwise and row fusions only)}}
func.func private @fused_0(%a: tensor<16x64xf16>, %b: tensor<64x32xf16>) -> (tensor<16x32xf16>, tensor<16x32xf16>) attributes {prim.fusion = "dot"} {
  %c = "prim.matmul"(%a, %b) : (tensor<16x64xf16>, tensor<64x32xf16>) -> tensor<16x32xf16>
  %d = "prim.neg"(%c) : (tensor<16x32xf16>) -> tensor<16x32xf16>
  return %c, %d : tensor<16x32xf16>, tensor<16x32xf16>
}

// -----

// expected-error@+1 {{tile: a dot or column fusion must return one tensor (several outputs: elementwise and row fusions only)}}
func.func private @fused_0(%x: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<8xf32>) attributes {prim.fusion = "column"} {
  %s = "prim.sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<4x8xf32>) -> tensor<8xf32>
  %n = "prim.neg"(%s) : (tensor<8xf32>) -> tensor<8xf32>
  return %s, %n : tensor<8xf32>, tensor<8xf32>
}
