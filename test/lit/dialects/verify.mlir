// RUN: tt-opt %s --split-input-file --verify-diagnostics
// The prim verifier (dialects/prim/verify.c): every rule of runtime/rules.c, the reference
// interpreter's own, checked when the program is parsed, before any pass. One case per rule;
// operands are named #0, #1, #2 in the messages. The last chunks verify.

// Elementwise ops: every operand has the result's shape.
func.func @convert_shape(%x: tensor<8xf32>) -> tensor<4xf16> {
  // expected-error@+1 {{'convert' operand #0 has shape 8 but the result has shape 4}}
  %0 = "prim.convert"(%x) : (tensor<8xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @where_shape(%c: tensor<4xi1>, %x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'where' operand #0 has shape 4 but the result has shape 8}}
  %0 = "prim.where"(%c, %x, %x) : (tensor<4xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @compare_shape(%x: tensor<8xf32>) -> tensor<4xi1> {
  // expected-error@+1 {{'compare' operand #0 has shape 8 but the result has shape 4}}
  %0 = "prim.compare"(%x, %x) {direction = "lt"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// Dtypes: compare gives i1; where's condition is i1; shape ops and reductions keep the dtype.
func.func @compare_dtype(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{compare result must be i1, not f32}}
  %0 = "prim.compare"(%x, %x) {direction = "lt"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @compare_direction(%x: tensor<8xf32>) -> tensor<8xi1> {
  // expected-error@+1 {{'prim.compare' direction must be one of "lt", "le", "gt", "ge", "eq", "ne"}}
  %0 = "prim.compare"(%x, %x) {direction = "gte"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  return %0 : tensor<8xi1>
}

// -----

func.func @where_condition(%c: tensor<8xf32>, %x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{where condition #0 must be i1, not f32}}
  %0 = "prim.where"(%c, %x, %x) : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @broadcast_dtype(%x: tensor<8xf32>) -> tensor<4x8xf16> {
  // expected-error@+1 {{'broadcast_in_dim' operand #0 has dtype f32 but the result has dtype f16}}
  %0 = "prim.broadcast_in_dim"(%x) {broadcast_dimensions = array<i64: 1>} : (tensor<8xf32>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

func.func @reshape_dtype(%x: tensor<8xf32>) -> tensor<2x4xbf16> {
  // expected-error@+1 {{'reshape' operand #0 has dtype f32 but the result has dtype bf16}}
  %0 = "prim.reshape"(%x) : (tensor<8xf32>) -> tensor<2x4xbf16>
  return %0 : tensor<2x4xbf16>
}

// -----

func.func @transpose_dtype(%x: tensor<2x4xf32>) -> tensor<4x2xf16> {
  // expected-error@+1 {{'transpose' operand #0 has dtype f32 but the result has dtype f16}}
  %0 = "prim.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<2x4xf32>) -> tensor<4x2xf16>
  return %0 : tensor<4x2xf16>
}

// -----

func.func @sum_dtype(%x: tensor<2x4xf16>) -> tensor<2xf32> {
  // expected-error@+1 {{'sum' operand #0 has dtype f16 but the result has dtype f32}}
  %0 = "prim.sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<2x4xf16>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Element types: those the metadata and the reference know.
func.func @element_type(%x: tensor<8xi16>) -> tensor<8xi16> {
  // expected-error@+1 {{'prim.neg' operand #0 has an element type that prim does not take (f64, f32, f16, bf16, f8E4M3FN, f8E5M2, i1, i8, i32, i64)}}
  %0 = "prim.neg"(%x) : (tensor<8xi16>) -> tensor<8xi16>
  return %0 : tensor<8xi16>
}

// -----

// Ranks up to 8 (tt's limit).
func.func @rank9(%x: tensor<1x1x1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x1x1x2xf32> {
  // expected-error@+1 {{'prim.neg' operand #0 has rank 9; at most 8 is supported}}
  %0 = "prim.neg"(%x) : (tensor<1x1x1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x1x1x2xf32>
  return %0 : tensor<1x1x1x1x1x1x1x1x2xf32>
}

// -----

// Every dimension is at least 1 (the reference's tensors have no empty dimension): of
// every op's operands and result, and of every function's arguments and results.
// expected-error@+1 {{function @zero_size argument #0 has shape 0x8 (dimensions must be at least 1)}}
func.func @zero_size(%x: tensor<0x8xf32>) -> tensor<0x8xf32> {
  // expected-error@+1 {{'exp' result has shape 0x8 (dimensions must be at least 1)}}
  %0 = "prim.exp"(%x) : (tensor<0x8xf32>) -> tensor<0x8xf32>
  return %0 : tensor<0x8xf32>
}

// -----

// An argument no op reads (tt-run would refuse the program's metadata).
// expected-error@+1 {{function @unused_empty argument #1 has shape 0x4 (dimensions must be at least 1)}}
func.func @unused_empty(%x: tensor<2xf32>, %e: tensor<0x4xf32>) -> tensor<2xf32> {
  %0 = "prim.exp"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A full's or a pad's value is one of the result's dtype: an integer in range for an
// integer dtype, within the finite range for a float (the kernel would store inf where the
// reference kept 1e300).
func.func @full_fraction() -> tensor<4xi32> {
  // expected-error@+1 {{'constant' value 2.5 does not fit i32 (an integer dtype takes an integer in its range)}}
  %c = "prim.full"() {value = 2.5 : f32} : () -> tensor<4xi32>
  return %c : tensor<4xi32>
}

// -----

func.func @full_range() -> tensor<4xi32> {
  // expected-error@+1 {{'constant' value 4294967296 does not fit i32}}
  %c = "prim.full"() {value = 4294967296 : i64} : () -> tensor<4xi32>
  return %c : tensor<4xi32>
}

// -----

func.func @full_i1() -> tensor<4xi1> {
  // expected-error@+1 {{'constant' value 2 does not fit i1 (an integer dtype takes an integer in its range)}}
  %c = "prim.full"() {value = 2.0 : f32} : () -> tensor<4xi1>
  return %c : tensor<4xi1>
}

// -----

// f8E4M3FN has no infinity and no value past 448.
func.func @full_fp8(%x: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  // expected-error@+1 {{'constant' value 480 does not fit f8e4m3 (past its largest finite value)}}
  %c = "prim.full"() {value = 480.0 : f32} : () -> tensor<4xf8E4M3FN>
  return %c : tensor<4xf8E4M3FN>
}

// -----

// The edges fit: f16's largest finite value, i8's least, an infinity in bf16.
func.func @full_edges() -> (tensor<4xf16>, tensor<4xi8>, tensor<4xbf16>) {
  %a = "prim.full"() {value = 65504.0 : f32} : () -> tensor<4xf16>
  %b = "prim.full"() {value = -128 : i64} : () -> tensor<4xi8>
  %c = "prim.full"() {value = 0xFF800000 : f32} : () -> tensor<4xbf16>
  return %a, %b, %c : tensor<4xf16>, tensor<4xi8>, tensor<4xbf16>
}

// -----

func.func @pad_past_f16(%x: tensor<4xf16>) -> tensor<5xf16> {
  // expected-error@+1 {{'pad' value 65536 does not fit f16 (past its largest finite value)}}
  %y = "prim.pad"(%x) {low = array<i64: 1>, high = array<i64: 0>, value = 65536.0 : f32} : (tensor<4xf16>) -> tensor<5xf16>
  return %y : tensor<5xf16>
}

// -----

// The composites too (before, a mean over 0 rows reached the column kernel's loop split and
// divided by zero in tt-translate): operands first, then the result.
// expected-error@+1 {{function @zero_rows_mean argument #0 has shape 0x1000 (dimensions must be at least 1)}}
func.func @zero_rows_mean(%x: tensor<0x1000xf32>) -> tensor<1000xf32> {
  // expected-error@+1 {{'mean' operand #0 has shape 0x1000 (dimensions must be at least 1)}}
  %0 = "prim.mean"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<0x1000xf32>) -> tensor<1000xf32>
  return %0 : tensor<1000xf32>
}

// -----

// expected-error@+1 {{function @zero_n_linear argument #1 has shape 0x64 (dimensions must be at least 1)}}
func.func @zero_n_linear(%x: tensor<?x64xf16>, %w: tensor<0x64xf16>) -> tensor<?x0xf16> {
  // expected-error@+1 {{'linear' operand #1 has shape 0x64 (dimensions must be at least 1)}}
  %0 = "prim.linear"(%x, %w) : (tensor<?x64xf16>, tensor<0x64xf16>) -> tensor<?x0xf16>
  return %0 : tensor<?x0xf16>
}

// -----

// expected-error@+1 {{function @zero_result_linear result #0 has shape 3x0 (dimensions must be at least 1)}}
func.func @zero_result_linear(%x: tensor<3x64xf16>, %w: tensor<5x64xf16>) -> tensor<3x0xf16> {
  // expected-error@+1 {{'linear' result has shape 3x0 (dimensions must be at least 1)}}
  %0 = "prim.linear"(%x, %w) : (tensor<3x64xf16>, tensor<5x64xf16>) -> tensor<3x0xf16>
  return %0 : tensor<3x0xf16>
}

// -----

// broadcast_in_dim: one entry per operand dim, each a result dim, none twice; an operand
// dim of size 1 broadcasts, any other has the size of its result dim.
func.func @broadcast_count(%x: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{broadcast_in_dim has 2 broadcast_dimensions but operand #0 has rank 1}}
  %0 = "prim.broadcast_in_dim"(%x) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @broadcast_range(%x: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{broadcast_in_dim broadcast_dimensions[0]=2 but the result has rank 2}}
  %0 = "prim.broadcast_in_dim"(%x) {broadcast_dimensions = array<i64: 2>} : (tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @broadcast_negative(%x: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{broadcast_in_dim broadcast_dimensions[0]=-1 but the result has rank 2}}
  %0 = "prim.broadcast_in_dim"(%x) {broadcast_dimensions = array<i64: -1>} : (tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @broadcast_duplicate(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error@+1 {{broadcast_in_dim names result dim 1 twice}}
  %0 = "prim.broadcast_in_dim"(%x) {broadcast_dimensions = array<i64: 1, 1>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @broadcast_size(%x: tensor<999xf32>) -> tensor<4x1000xf32> {
  // expected-error@+1 {{broadcast_in_dim operand dim 0 has size 999, but result dim 1 has size 1000 (sizes must match or the operand's be 1)}}
  %0 = "prim.broadcast_in_dim"(%x) {broadcast_dimensions = array<i64: 1>} : (tensor<999xf32>) -> tensor<4x1000xf32>
  return %0 : tensor<4x1000xf32>
}

// -----

func.func @broadcast_wrong_dim(%x: tensor<1000xf32>) -> tensor<1000x8xf32> {
  // expected-error@+1 {{broadcast_in_dim operand dim 0 has size 1000, but result dim 1 has size 8 (sizes must match or the operand's be 1)}}
  %0 = "prim.broadcast_in_dim"(%x) {broadcast_dimensions = array<i64: 1>} : (tensor<1000xf32>) -> tensor<1000x8xf32>
  return %0 : tensor<1000x8xf32>
}

// -----

func.func @broadcast_attribute(%x: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'prim.broadcast_in_dim' needs 'broadcast_dimensions' as an array<i64: ...>}}
  %0 = "prim.broadcast_in_dim"(%x) {broadcast_dimensions = array<i32: 1>} : (tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// reshape keeps the number of elements.
func.func @reshape_numel(%x: tensor<2x3xf32>) -> tensor<7xf32> {
  // expected-error@+1 {{reshape of 6 elements into the result of 7 elements}}
  %0 = "prim.reshape"(%x) : (tensor<2x3xf32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

// transpose: a permutation of the operand's dims; result dim i is operand dim perm[i].
func.func @transpose_count(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{transpose has 3 permutation entries but operand #0 has rank 2}}
  %0 = "prim.transpose"(%x) {permutation = array<i64: 1, 0, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_range(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{transpose permutation[0]=2 but the operand #0 has rank 2}}
  %0 = "prim.transpose"(%x) {permutation = array<i64: 2, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_duplicate(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{transpose names operand dim 0 twice}}
  %0 = "prim.transpose"(%x) {permutation = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_shape(%x: tensor<2x3x4xf32>) -> tensor<2x4x3xf32> {
  // expected-error@+1 {{transpose permutation=2,0,1 of #0 (shape 2x3x4) has shape 4x2x3, but the result has shape 2x4x3}}
  %0 = "prim.transpose"(%x) {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

// Reductions: at least one dim, each in [-rank, rank) (negative from the end), none twice;
// the result drops the reduced dims (keepdim false or absent, as in PyTorch) or keeps them
// as 1.
func.func @reduce_empty(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{sum needs at least one dimension in dims=}}
  %0 = "prim.sum"(%x) {dims = array<i64>, keepdim = false} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @reduce_range(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{amax dims[0]=2 but the operand #0 has rank 2}}
  %0 = "prim.amax"(%x) {dims = array<i64: 2>, keepdim = false} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_negative_range(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{amin dims[0]=-3 but the operand #0 has rank 2}}
  %0 = "prim.amin"(%x) {dims = array<i64: -3>, keepdim = false} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_duplicate(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{sum names operand dim 1 twice}}
  %0 = "prim.sum"(%x) {dims = array<i64: 1, -1>, keepdim = false} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_shape(%x: tensor<2x3x4xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{sum dims=1 keepdim=1 of #0 (shape 2x3x4) has shape 2x1x4, but the result has shape 2x4}}
  %0 = "prim.sum"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @reduce_shape_nokeep(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  // expected-error@+1 {{sum dims=1 keepdim=0 of #0 (shape 2x3x4) has shape 2x4, but the result has shape 2x1x4}}
  %0 = "prim.sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  return %0 : tensor<2x1x4xf32>
}

// -----

func.func @reduce_keepdim_absent(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error@+1 {{sum dims=1 keepdim=0 of #0 (shape 2x3) has shape 2, but the result has shape 2x1}}
  %0 = "prim.sum"(%x) {dims = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @reduce_attribute(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'prim.sum' needs 'dims' as an array<i64: ...>}}
  %0 = "prim.sum"(%x) {dims = array<i32: 1>, keepdim = false} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_keepdim(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'prim.sum' keepdim must be a bool (true or false)}}
  %0 = "prim.sum"(%x) {dims = array<i64: 1>, keepdim = 2 : i64} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// matmul: torch.matmul's shapes, [..., M, K] x [..., K, N] -> [batch..., M, N], the batch
// dims broadcast, a 1-D operand read as [1, K] or [K, 1] (the reference's own rule, in
// tt-run, is [M,K] x [K,N] or [B,M,K] x [B,K,N]: test/lit/tt-run/errors.test).
func.func @matmul_rank(%a: tensor<f16>, %b: tensor<3xf16>) -> tensor<f16> {
  // expected-error@+1 {{matmul of #0 (shape scalar) and #1 (shape 3): the operands must have rank 1 or more}}
  %0 = "prim.matmul"(%a, %b) : (tensor<f16>, tensor<3xf16>) -> tensor<f16>
  return %0 : tensor<f16>
}

// -----

func.func @matmul_inner(%a: tensor<2x3xf16>, %b: tensor<4x2xf16>) -> tensor<2x2xf16> {
  // expected-error@+1 {{matmul of #0 (shape 2x3) and #1 (shape 4x2): the first has 3 columns but the second 4 rows}}
  %0 = "prim.matmul"(%a, %b) : (tensor<2x3xf16>, tensor<4x2xf16>) -> tensor<2x2xf16>
  return %0 : tensor<2x2xf16>
}

// -----

func.func @matmul_batch(%a: tensor<2x2x3xf16>, %b: tensor<3x3x2xf16>) -> tensor<2x2x2xf16> {
  // expected-error@+1 {{matmul of #0 (shape 2x2x3) and #1 (shape 3x3x2): the batch sizes 2 and 3 differ (and neither is 1)}}
  %0 = "prim.matmul"(%a, %b) : (tensor<2x2x3xf16>, tensor<3x3x2xf16>) -> tensor<2x2x2xf16>
  return %0 : tensor<2x2x2xf16>
}

// -----

func.func @matmul_shape(%a: tensor<2x3xf16>, %b: tensor<3x4xf16>) -> tensor<4x2xf32> {
  // expected-error@+1 {{matmul of #0 (shape 2x3) and #1 (shape 3x4) has shape 2x4, but the result has shape 4x2}}
  %0 = "prim.matmul"(%a, %b) : (tensor<2x3xf16>, tensor<3x4xf16>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// A dense constant has the result's type.
func.func @constant_type() -> tensor<4xf32> {
  // expected-error@+1 {{'prim.constant' value must have the result's type}}
  %0 = "prim.constant"() {value = dense<1.0> : tensor<8xf32>} : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Every bad op is reported, not only the first.
func.func @two(%x: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{reshape of 8 elements into the result of 7 elements}}
  %0 = "prim.reshape"(%x) : (tensor<8xf32>) -> tensor<7xf32>
  // expected-error@+1 {{'convert' operand #0 has shape 8 but the result has shape 4}}
  %1 = "prim.convert"(%x) : (tensor<8xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Well-formed: negative reduction dims count from the end, keepdim true keeps them as 1,
// a size-1 operand dim broadcasts, an op inside a fused function is checked too, and a
// dynamic dimension (`?`) matches any size.
func.func @good(%x: tensor<2x3xf32>, %r: tensor<1x3xf32>, %d: tensor<?x3xf32>, %w: tensor<3x2xf32>) -> tensor<2x1xf32> {
  %0 = "prim.sum"(%x) {dims = array<i64: -1>, keepdim = true} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %1 = "prim.broadcast_in_dim"(%r) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<1x3xf32>) -> tensor<2x3xf32>
  %2 = "prim.add"(%1, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = "prim.broadcast_in_dim"(%d) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<?x3xf32>) -> tensor<5x3xf32>
  %4 = "prim.reshape"(%d) : (tensor<?x3xf32>) -> tensor<?xf32>
  %5 = "prim.matmul"(%d, %w) : (tensor<?x3xf32>, tensor<3x2xf32>) -> tensor<?x2xf32>
  return %0 : tensor<2x1xf32>
}
