// RUN: tt-opt %s --split-input-file --verify-diagnostics
// prim.slice, prim.concat, prim.index_select, prim.gather, prim.iota and prim.pad: the data
// movement rules (runtime/rules.c). prim.slice's rules (runtime/rules.c, checkSlice; issue 21, item 4): one start, stop and
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

// -----

// prim.index_select (torch.index_select): dim below the operand's rank, an i32 or i64
// index of rank 1, the result the operand with dim resized to the index's length, the
// operand's dtype.
func.func @index_select_dim(%x: tensor<1000x64xf32>, %i: tensor<3xi32>) -> tensor<3x64xf32> {
  // expected-error@+1 {{index_select dim=2 but operand #0 has rank 2}}
  %0 = "prim.index_select"(%x, %i) {dim = 2 : i64} : (tensor<1000x64xf32>, tensor<3xi32>) -> tensor<3x64xf32>
  return %0 : tensor<3x64xf32>
}

// -----

func.func @index_select_index_dtype(%x: tensor<1000x64xf32>, %i: tensor<3xf32>) -> tensor<3x64xf32> {
  // expected-error@+1 {{index_select index #1 must be i32 or i64, not f32}}
  %0 = "prim.index_select"(%x, %i) {dim = 0 : i64} : (tensor<1000x64xf32>, tensor<3xf32>) -> tensor<3x64xf32>
  return %0 : tensor<3x64xf32>
}

// -----

func.func @index_select_index_rank(%x: tensor<1000x64xf32>, %i: tensor<3x1xi64>) -> tensor<3x64xf32> {
  // expected-error@+1 {{index_select dim=0 of #0 (shape 1000x64) and #1 (shape 3x1): the index must have rank 1}}
  %0 = "prim.index_select"(%x, %i) {dim = 0 : i64} : (tensor<1000x64xf32>, tensor<3x1xi64>) -> tensor<3x64xf32>
  return %0 : tensor<3x64xf32>
}

// -----

func.func @index_select_result(%x: tensor<1000x64xf32>, %i: tensor<3xi64>) -> tensor<3x65xf32> {
  // expected-error@+1 {{index_select dim=0 of #0 (shape 1000x64) and #1 (shape 3) has shape 3x64, but the result has shape 3x65}}
  %0 = "prim.index_select"(%x, %i) {dim = 0 : i64} : (tensor<1000x64xf32>, tensor<3xi64>) -> tensor<3x65xf32>
  return %0 : tensor<3x65xf32>
}

// -----

func.func @index_select_dtype(%x: tensor<1000x64xf32>, %i: tensor<3xi64>) -> tensor<3x64xf16> {
  // expected-error@+1 {{'index_select' operand #0 has dtype f32 but the result has dtype f16}}
  %0 = "prim.index_select"(%x, %i) {dim = 0 : i64} : (tensor<1000x64xf32>, tensor<3xi64>) -> tensor<3x64xf16>
  return %0 : tensor<3x64xf16>
}

// -----

// prim.gather (torch.gather): an index of the operand's rank, no larger than it outside dim;
// the result has the index's shape.
func.func @gather_index_rank(%x: tensor<3x1000x7xf32>, %i: tensor<3x37xi64>) -> tensor<3x37xf32> {
  // expected-error@+1 {{gather dim=1 of #0 (shape 3x1000x7) and #1 (shape 3x37): the index must have rank 3 (the operand's)}}
  %0 = "prim.gather"(%x, %i) {dim = 1 : i64} : (tensor<3x1000x7xf32>, tensor<3x37xi64>) -> tensor<3x37xf32>
  return %0 : tensor<3x37xf32>
}

// -----

func.func @gather_index_size(%x: tensor<3x1000x7xf32>, %i: tensor<3x37x8xi64>) -> tensor<3x37x8xf32> {
  // expected-error@+1 {{gather dim=1 of #0 (shape 3x1000x7) and #1 (shape 3x37x8): the index has 8 elements in dim 2, more than the operand's 7}}
  %0 = "prim.gather"(%x, %i) {dim = 1 : i64} : (tensor<3x1000x7xf32>, tensor<3x37x8xi64>) -> tensor<3x37x8xf32>
  return %0 : tensor<3x37x8xf32>
}

// -----

func.func @gather_result(%x: tensor<3x1000x7xf32>, %i: tensor<3x37x7xi64>) -> tensor<3x38x7xf32> {
  // expected-error@+1 {{gather dim=1 of #0 (shape 3x1000x7) and #1 (shape 3x37x7) has shape 3x37x7, but the result has shape 3x38x7}}
  %0 = "prim.gather"(%x, %i) {dim = 1 : i64} : (tensor<3x1000x7xf32>, tensor<3x37x7xi64>) -> tensor<3x38x7xf32>
  return %0 : tensor<3x38x7xf32>
}

// -----

// prim.iota: dimension below the result's rank.
func.func @iota_dimension() -> tensor<3x4xf32> {
  // expected-error@+1 {{iota dimension=2 but the result has rank 2}}
  %0 = "prim.iota"() {dimension = 2 : i64} : () -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// prim.pad: one low and high entry per dim, each >= 0 (negative widths crop in PyTorch:
// rejected), the result low + size + high per dim, value a float.
func.func @pad_negative(%x: tensor<3x4xf32>) -> tensor<3x6xf32> {
  // expected-error@+1 {{pad low[1]=-1 must be at least 0 (negative widths crop: use slice)}}
  %0 = "prim.pad"(%x) {low = array<i64: 0, -1>, high = array<i64: 0, 3>, value = 0.0 : f64} : (tensor<3x4xf32>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// -----

func.func @pad_entries(%x: tensor<3x4xf32>) -> tensor<3x6xf32> {
  // expected-error@+1 {{pad has 1 low entries but operand #0 has rank 2}}
  %0 = "prim.pad"(%x) {low = array<i64: 1>, high = array<i64: 0, 3>, value = 0.0 : f64} : (tensor<3x4xf32>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// -----

func.func @pad_result(%x: tensor<3x4xf32>) -> tensor<3x6xf32> {
  // expected-error@+1 {{pad low=0,1 high=0,2 value=0 of #0 (shape 3x4) has shape 3x7, but the result has shape 3x6}}
  %0 = "prim.pad"(%x) {low = array<i64: 0, 1>, high = array<i64: 0, 2>, value = 0.0 : f64} : (tensor<3x4xf32>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// -----

func.func @pad_value(%x: tensor<3x4xf32>) -> tensor<3x7xf32> {
  // expected-error@+1 {{expected base attribute 'builtin.float' but got 'builtin.integer'}}
  %0 = "prim.pad"(%x) {low = array<i64: 0, 1>, high = array<i64: 0, 2>, value = 0 : i64} : (tensor<3x4xf32>) -> tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}

// -----

// Verifies: an embedding lookup (i32 and i64 indices), an index_select in a middle dim, a
// gather along dim 1, a float iota and a pad.
func.func @move_ok(%t: tensor<1000x4097xf32>, %i: tensor<37xi32>, %j: tensor<3xi64>, %x: tensor<3x1000x7xf32>, %g: tensor<3x37x7xi64>, %y: tensor<3x4xbf16>) -> (tensor<37x4097xf32>, tensor<3x3x7xf32>, tensor<3x37x7xf32>, tensor<3x4xbf16>, tensor<4x9xbf16>) {
  %0 = "prim.index_select"(%t, %i) {dim = 0 : i64} : (tensor<1000x4097xf32>, tensor<37xi32>) -> tensor<37x4097xf32>
  %1 = "prim.index_select"(%x, %j) {dim = 1 : i64} : (tensor<3x1000x7xf32>, tensor<3xi64>) -> tensor<3x3x7xf32>
  %2 = "prim.gather"(%x, %g) {dim = 1 : i64} : (tensor<3x1000x7xf32>, tensor<3x37x7xi64>) -> tensor<3x37x7xf32>
  %3 = "prim.iota"() {dimension = 1 : i64} : () -> tensor<3x4xbf16>
  %4 = "prim.pad"(%y) {low = array<i64: 1, 2>, high = array<i64: 0, 3>, value = -1.5 : f64} : (tensor<3x4xbf16>) -> tensor<4x9xbf16>
  return %0, %1, %2, %3, %4 : tensor<37x4097xf32>, tensor<3x3x7xf32>, tensor<3x37x7xf32>, tensor<3x4xbf16>, tensor<4x9xbf16>
}
