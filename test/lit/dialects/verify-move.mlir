// RUN: tt-opt %s --split-input-file --verify-diagnostics
// prim.slice and prim.concat: the data movement rules. prim.slice's rules (runtime/rules.c, checkSlice; issue 21, item 4): one start, stop and
// step entry per operand dim, step >= 1, 0 <= start < stop <= size, the result's shape
// ceil((stop - start) / step) per dim, the operand's dtype; attributes as array<i64>.
// One case per rule; the last chunk verifies.

func.func @slice_rank(%x: tensor<3x1000xf32>) -> tensor<3x500xf32> {
  // expected-error@+1 {{slice has 1 start entries but operand #0 has rank 2}}
  %0 = "prim.slice"(%x) {start = array<i64: 0>, stop = array<i64: 3, 1000>, step = array<i64: 1, 2>} : (tensor<3x1000xf32>) -> tensor<3x500xf32>
  return %0 : tensor<3x500xf32>
}

// -----

func.func @slice_step(%x: tensor<3x1000xf32>) -> tensor<3x500xf32> {
  // expected-error@+1 {{slice step[1]=0 must be at least 1}}
  %0 = "prim.slice"(%x) {start = array<i64: 0, 0>, stop = array<i64: 3, 1000>, step = array<i64: 1, 0>} : (tensor<3x1000xf32>) -> tensor<3x500xf32>
  return %0 : tensor<3x500xf32>
}

// -----

func.func @slice_stop(%x: tensor<3x1000xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{slice dim 1: start=999 stop=1001 must satisfy 0 <= start < stop <= 1000 (the operand's size)}}
  %0 = "prim.slice"(%x) {start = array<i64: 0, 999>, stop = array<i64: 3, 1001>, step = array<i64: 1, 1>} : (tensor<3x1000xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @slice_empty(%x: tensor<3x1000xf32>) -> tensor<1x1000xf32> {
  // expected-error@+1 {{slice dim 0: start=2 stop=2 must satisfy 0 <= start < stop <= 3 (the operand's size)}}
  %0 = "prim.slice"(%x) {start = array<i64: 2, 0>, stop = array<i64: 2, 1000>, step = array<i64: 1, 1>} : (tensor<3x1000xf32>) -> tensor<1x1000xf32>
  return %0 : tensor<1x1000xf32>
}

// -----

func.func @slice_negative(%x: tensor<3x1000xf32>) -> tensor<1x1000xf32> {
  // expected-error@+1 {{slice dim 0: start=-1 stop=3 must satisfy}}
  %0 = "prim.slice"(%x) {start = array<i64: -1, 0>, stop = array<i64: 3, 1000>, step = array<i64: 1, 1>} : (tensor<3x1000xf32>) -> tensor<1x1000xf32>
  return %0 : tensor<1x1000xf32>
}

// -----

func.func @slice_result(%x: tensor<3x1000xf32>) -> tensor<3x333xf32> {
  // expected-error@+1 {{slice start=0,0 stop=3,1000 step=1,3 of #0 (shape 3x1000) has shape 3x334, but the result has shape 3x333}}
  %0 = "prim.slice"(%x) {start = array<i64: 0, 0>, stop = array<i64: 3, 1000>, step = array<i64: 1, 3>} : (tensor<3x1000xf32>) -> tensor<3x333xf32>
  return %0 : tensor<3x333xf32>
}

// -----

func.func @slice_dtype(%x: tensor<3x1000xf32>) -> tensor<3x1000xf16> {
  // expected-error@+1 {{'slice' operand #0 has dtype f32 but the result has dtype f16}}
  %0 = "prim.slice"(%x) {start = array<i64: 0, 0>, stop = array<i64: 3, 1000>, step = array<i64: 1, 1>} : (tensor<3x1000xf32>) -> tensor<3x1000xf16>
  return %0 : tensor<3x1000xf16>
}

// -----

func.func @slice_attr(%x: tensor<3x1000xf32>) -> tensor<3x1000xf32> {
  // expected-error@+1 {{'prim.slice' needs 'step' as an array<i64: ...>}}
  %0 = "prim.slice"(%x) {start = array<i64: 0, 0>, stop = array<i64: 3, 1000>, step = array<i32: 1, 1>} : (tensor<3x1000xf32>) -> tensor<3x1000xf32>
  return %0 : tensor<3x1000xf32>
}

// -----

// Verifies: PyTorch's x[1:3, 2::3] of 3x1000 (ceil(998 / 3) = 333 columns), a dynamic
// leading dim (its stop is not checked against the size).
func.func @slice_ok(%x: tensor<3x1000xf32>, %y: tensor<?x8xf32>) -> (tensor<2x333xf32>, tensor<2x8xf32>) {
  %0 = "prim.slice"(%x) {start = array<i64: 1, 2>, stop = array<i64: 3, 1000>, step = array<i64: 1, 3>} : (tensor<3x1000xf32>) -> tensor<2x333xf32>
  %1 = "prim.slice"(%y) {start = array<i64: 0, 0>, stop = array<i64: 2, 8>, step = array<i64: 1, 1>} : (tensor<?x8xf32>) -> tensor<2x8xf32>
  return %0, %1 : tensor<2x333xf32>, tensor<2x8xf32>
}

// -----

// prim.concat (torch.cat of two tensors): dim below the rank, one rank, the operands
// differ only in dim, the result has their sum there, one dtype.
func.func @concat_dim(%a: tensor<3x4xf32>, %b: tensor<3x5xf32>) -> tensor<3x9xf32> {
  // expected-error@+1 {{concat dim=2 but operand #0 has rank 2}}
  %0 = "prim.concat"(%a, %b) {dim = 2 : i64} : (tensor<3x4xf32>, tensor<3x5xf32>) -> tensor<3x9xf32>
  return %0 : tensor<3x9xf32>
}

// -----

func.func @concat_rank(%a: tensor<3x4xf32>, %b: tensor<3x4x1xf32>) -> tensor<3x8xf32> {
  // expected-error@+1 {{concat dim=1 of #0 (shape 3x4) and #1 (shape 3x4x1): the operands must have one rank}}
  %0 = "prim.concat"(%a, %b) {dim = 1 : i64} : (tensor<3x4xf32>, tensor<3x4x1xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

func.func @concat_other_dim(%a: tensor<3x4xf32>, %b: tensor<2x5xf32>) -> tensor<3x9xf32> {
  // expected-error@+1 {{concat dim=1 of #0 (shape 3x4) and #1 (shape 2x5): the operands differ in dim 0 (only dim 1 may)}}
  %0 = "prim.concat"(%a, %b) {dim = 1 : i64} : (tensor<3x4xf32>, tensor<2x5xf32>) -> tensor<3x9xf32>
  return %0 : tensor<3x9xf32>
}

// -----

func.func @concat_result(%a: tensor<2x5xf32>, %b: tensor<7x5xf32>) -> tensor<8x5xf32> {
  // expected-error@+1 {{concat dim=0 of #0 (shape 2x5) and #1 (shape 7x5) has shape 9x5, but the result has shape 8x5}}
  %0 = "prim.concat"(%a, %b) {dim = 0 : i64} : (tensor<2x5xf32>, tensor<7x5xf32>) -> tensor<8x5xf32>
  return %0 : tensor<8x5xf32>
}

// -----

func.func @concat_dtype(%a: tensor<2x5xf32>, %b: tensor<7x5xf16>) -> tensor<9x5xf32> {
  // expected-error@+1 {{'concat' operand #1 has dtype f16 but the result has dtype f32}}
  %0 = "prim.concat"(%a, %b) {dim = 0 : i64} : (tensor<2x5xf32>, tensor<7x5xf16>) -> tensor<9x5xf32>
  return %0 : tensor<9x5xf32>
}

// -----

func.func @concat_attr(%a: tensor<2x5xf32>, %b: tensor<7x5xf32>) -> tensor<9x5xf32> {
  // expected-error@+1 {{expected base attribute 'builtin.integer' but got 'builtin.dense_array'}}
  %0 = "prim.concat"(%a, %b) {dim = array<i64: 0>} : (tensor<2x5xf32>, tensor<7x5xf32>) -> tensor<9x5xf32>
  return %0 : tensor<9x5xf32>
}

// -----

// Verifies: torch.cat([a, b], 1) of 3x1000 and 3x7.
func.func @concat_ok(%a: tensor<3x1000xf32>, %b: tensor<3x7xf32>) -> tensor<3x1007xf32> {
  %0 = "prim.concat"(%a, %b) {dim = 1 : i64} : (tensor<3x1000xf32>, tensor<3x7xf32>) -> tensor<3x1007xf32>
  return %0 : tensor<3x1007xf32>
}
