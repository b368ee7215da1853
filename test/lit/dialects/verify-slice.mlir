// RUN: tt-opt %s --split-input-file --verify-diagnostics
// prim.slice's rules (runtime/rules.c, checkSlice; issue 21, item 4): one start, stop and
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
