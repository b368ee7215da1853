// RUN: tt-opt %s --split-input-file --verify-diagnostics --fuse --tile
// Without the verifier the diagnostics print as file:line:col, the exit status is 1 and no
// chunk crashes.
// RUN: not tt-opt %s --split-input-file --fuse --tile 2>&1 | FileCheck %s --check-prefix=DIAG

// An i32 result is stored (argmax's), but an i32 input is not loaded.
func.func @i32(%x: tensor<8xi32>) -> tensor<8xi32> {
  // expected-error@+1 {{tile: an input of dtype i32 is not supported by the elementwise lowering (f32, f16, bf16, f8E4M3FN, f8E5M2; i32 and i64 results of argmax/argmin)}}
  %y = "prim.neg"(%x) : (tensor<8xi32>) -> tensor<8xi32>
  return %y : tensor<8xi32>
}

// -----

func.func @dynamic(%x: tensor<4x?xf32>) -> tensor<4x?xf32> {
  // expected-error@+1 {{tile: only the leading dimension may be dynamic (the result has a dynamic dimension 1)}}
  %y = "prim.neg"(%x) : (tensor<4x?xf32>) -> tensor<4x?xf32>
  return %y : tensor<4x?xf32>
}

// -----

// --fuse outlines a lone constant; only splat constants become a tile.
func.func @non_splat_constant() -> tensor<4xf32> {
  // DIAG: {{^}}{{.*}}tile/invalid.mlir:[[@LINE+2]]:8: error: tile: only splat constants can be tiled yet{{$}}
  // expected-error@+1 {{tile: only splat constants can be tiled yet}}
  %c = "prim.constant"() {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// An integer to float convert has no lowering yet.
func.func @convert_from_i32() -> tensor<8xf32> {
  %c = "prim.full"() {value = 1 : i32} : () -> tensor<8xi32>
  // expected-error@+1 {{tile: 'prim.convert' on f32 elements is not supported by the elementwise lowering yet}}
  %y = "prim.convert"(%c) : (tensor<8xi32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

func.func @too_many_elements(%x: tensor<2147483648xf32>) -> tensor<2147483648xf32> {
  // expected-error@+1 {{tile: the result has 2^31 or more elements (kernels index in i32)}}
  %y = "prim.neg"(%x) : (tensor<2147483648xf32>) -> tensor<2147483648xf32>
  return %y : tensor<2147483648xf32>
}

// -----

// An unknown direction (and a compare that is not i1) stops at the prim verifier, before
// --tile's own check of the direction.
func.func private @fused_0(%x: tensor<8xf32>) -> tensor<8xf32> attributes {prim.fusion = "elementwise"} {
  // expected-error@+1 {{'prim.compare' direction must be one of "lt", "le", "gt", "ge", "eq", "ne"}}
  %y = "prim.compare"(%x, %x) {direction = "gte"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// A composite op that --fuse would never put in an elementwise group.
func.func private @fused_0(%x: tensor<8xf32>) -> tensor<8xf32> attributes {prim.fusion = "elementwise"} {
  // expected-error@+1 {{tile: 'prim.softmax' cannot be part of an elementwise kernel}}
  %y = "prim.softmax"(%x) {dim = 0 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// expected-error@+1 {{tile: result 0 of a fused function with several results must be a value computed in it, and no other result}}
func.func private @fused_0(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) attributes {prim.fusion = "elementwise"} {
  %y = "prim.neg"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %x, %y : tensor<8xf32>, tensor<8xf32>
}

// -----

// expected-error@+1 {{prim.fusion must be "elementwise", "row", "column", "permute" or "dot"}}
func.func private @fused_0(%x: tensor<8xf32>) -> tensor<8xf32> attributes {prim.fusion = "reduction"} {
  return %x : tensor<8xf32>
}

// -----

// A bodiless function stops at parsing (issue 22, rows 1-2), before any pass.
// expected-error@+1 {{function @fused_0 has no body: a tt program defines every function it declares}}
func.func private @fused_0(%x: tensor<8xf32>) -> tensor<8xf32> attributes {prim.fusion = "elementwise"}

// -----

// expected-error@+1 {{tile: the result must be a ranked tensor}}
func.func private @fused_0(%x: f32) -> f32 attributes {prim.fusion = "elementwise"} {
  return %x : f32
}

// -----

func.func private @fused_0(%x: tensor<8xf32>) -> tensor<8xf32> attributes {prim.fusion = "elementwise"} {
  // expected-error@+1 {{tile: 'arith.negf' cannot be part of an elementwise kernel}}
  %y = arith.negf %x : tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

func.func @rank9(%x: tensor<1x1x1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x1x1x2xf32> {
  // (the prim verifier's limit, before --tile's)
  // expected-error@+1 {{'prim.neg' operand #0 has rank 9; at most 8 is supported}}
  %y = "prim.neg"(%x) : (tensor<1x1x1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x1x1x2xf32>
  return %y : tensor<1x1x1x1x1x1x1x1x2xf32>
}

// -----

// 2^64 elements: the count must not wrap around to 0.
func.func @huge(%x: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  // expected-error@+1 {{tile: the result has 2^31 or more elements (kernels index in i32)}}
  %y = "prim.neg"(%x) : (tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32>
  return %y : tensor<4294967296x4294967296xf32>
}

// -----

// An error inside an operand stops the op that uses it (no op is built on a missing value).
func.func @nested(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{tile: only splat constants can be tiled yet}}
  %c = "prim.constant"() {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %y = "prim.add"(%x, %c) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// A reduction in an elementwise fusion (written by hand; --fuse makes row fusions).
func.func private @fused_0(%x: tensor<4x8xf32>) -> tensor<4xf32> attributes {prim.fusion = "elementwise"} {
  // expected-error@+1 {{tile: 'prim.sum' is only supported over the last dimension of f32, f16 or bf16 rows in a row kernel}}
  %s = "prim.sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// expected-error@+1 {{tile: a row fusion must contain a reduction over the last dimension}}
func.func private @fused_0(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {prim.fusion = "row"} {
  %y = "prim.neg"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// An integer iota is supported in a kernel only under a convert to a float.
func.func @iota_index(%x: tensor<8x4xf32>) -> tensor<3x4xf32> {
  // expected-error@+1 {{tile: 'prim.iota' of i32 elements is not supported in kernels (f32, f16, bf16): make a float iota, or convert this one to a float}}
  %i = "prim.iota"() {dimension = 0 : i64} : () -> tensor<3xi32>
  %y = "prim.index_select"(%x, %i) {dim = 0 : i64} : (tensor<8x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// -----

// An integer input is loaded only as the index of index_select or gather.
func.func @index_math(%x: tensor<8x4xf32>, %i: tensor<3xi32>) -> tensor<3x4xf32> {
  %j = "prim.add"(%i, %i) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  // expected-error@+1 {{tile: an input of dtype i32 is not supported by the elementwise lowering (f32, f16, bf16, f8E4M3FN, f8E5M2; i32 and i64 results of argmax/argmin)}}
  %y = "prim.index_select"(%x, %j) {dim = 0 : i64} : (tensor<8x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// -----

// A dynamic leading dim is fine for data movement (the offsets use the static strides),
// but not an index into it or padding of it: the bound is only known at run time.
func.func @index_dynamic(%x: tensor<?x4xf32>, %i: tensor<3xi32>) -> tensor<3x4xf32> {
  // expected-error@+1 {{tile: 'prim.index_select' along a dynamic dimension is not supported yet}}
  %y = "prim.index_select"(%x, %i) {dim = 0 : i64} : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// -----

func.func @pad_dynamic(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error@+1 {{tile: 'prim.pad' padding a dynamic dimension is not supported yet}}
  %y = "prim.pad"(%x) {low = array<i64: 1, 0>, high = array<i64: 0, 0>, value = 0.0 : f64} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}

// -----

// A reduction along a 1-D dynamic tensor: the row's length is known at run time only (row
// kernels take a static row; before, the kernel read nothing: its masks compared with -1).
func.func @dynamic_row(%x: tensor<?xf32>) -> tensor<f32> {
  // expected-error@+1 {{tile: a reduction along a dynamic dimension that is the last (a 1-D tensor<?>: the row's length known at run time only) is not supported yet}}
  %s = "prim.sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<?xf32>) -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// A dynamic dim broadcast to a static size: 1 (broadcast) or the size itself, known at run
// time only (before, the kernel read the operand as the result's size, and the metadata
// dropped the `?`).
func.func @dynamic_into_static(%x: tensor<?x3xf32>) -> tensor<5x3xf32> {
  // expected-error@+1 {{tile: broadcast_in_dim of a dynamic dimension to a static size is not supported}}
  %y = "prim.broadcast_in_dim"(%x) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<?x3xf32>) -> tensor<5x3xf32>
  return %y : tensor<5x3xf32>
}

