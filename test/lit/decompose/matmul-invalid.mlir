// RUN: tt-opt %s --split-input-file --verify-diagnostics --decompose
// Without the verifier the diagnostics print as file:line:col and the exit status is 1.
// RUN: not tt-opt %s --split-input-file --decompose 2>&1 | FileCheck %s --check-prefix=DIAG
// prim.matmul's shapes are torch.matmul's, checked by the prim verifier when the program is
// parsed (runtime/rules.c), before --decompose rewrites the batch dims.

// DIAG: matmul-invalid.mlir:[[@LINE+3]]:8: error: matmul of #0 (shape 2x3x5x70) and #1 (shape 2x3x64x33): the first has 70 columns but the second 64 rows
func.func @mismatched_k(%a: tensor<2x3x5x70xf16>, %b: tensor<2x3x64x33xf16>) -> tensor<2x3x5x33xf16> {
  // expected-error@+1 {{matmul of #0 (shape 2x3x5x70) and #1 (shape 2x3x64x33): the first has 70 columns but the second 64 rows}}
  %0 = "prim.matmul"(%a, %b) : (tensor<2x3x5x70xf16>, tensor<2x3x64x33xf16>) -> tensor<2x3x5x33xf16>
  return %0 : tensor<2x3x5x33xf16>
}

// -----

// DIAG: matmul-invalid.mlir:[[@LINE+3]]:8: error: matmul of #0 (shape 7x100) and #1 (shape 3x7x65x100): the first has 100 columns but the second 65 rows
func.func @mismatched_k_weight(%a: tensor<7x100xbf16>, %b: tensor<3x7x65x100xbf16>) -> tensor<3x7x7x100xbf16> {
  // expected-error@+1 {{the first has 100 columns but the second 65 rows}}
  %0 = "prim.matmul"(%a, %b) : (tensor<7x100xbf16>, tensor<3x7x65x100xbf16>) -> tensor<3x7x7x100xbf16>
  return %0 : tensor<3x7x7x100xbf16>
}

// -----

// DIAG: matmul-invalid.mlir:[[@LINE+3]]:8: error: matmul of #0 (shape 2x4x5x16) and #1 (shape 3x16x8): the batch sizes 4 and 3 differ (and neither is 1)
func.func @batch_mismatch(%a: tensor<2x4x5x16xf16>, %b: tensor<3x16x8xf16>) -> tensor<2x4x5x8xf16> {
  // expected-error@+1 {{matmul of #0 (shape 2x4x5x16) and #1 (shape 3x16x8): the batch sizes 4 and 3 differ (and neither is 1)}}
  %0 = "prim.matmul"(%a, %b) : (tensor<2x4x5x16xf16>, tensor<3x16x8xf16>) -> tensor<2x4x5x8xf16>
  return %0 : tensor<2x4x5x8xf16>
}

// -----

// DIAG: matmul-invalid.mlir:[[@LINE+3]]:8: error: matmul of #0 (shape 2x1x5x16) and #1 (shape 3x16x8) has shape 2x3x5x8, but the result has shape 2x1x5x8
func.func @broadcast_result(%a: tensor<2x1x5x16xf16>, %b: tensor<3x16x8xf16>) -> tensor<2x1x5x8xf16> {
  // expected-error@+1 {{matmul of #0 (shape 2x1x5x16) and #1 (shape 3x16x8) has shape 2x3x5x8, but the result has shape 2x1x5x8}}
  %0 = "prim.matmul"(%a, %b) : (tensor<2x1x5x16xf16>, tensor<3x16x8xf16>) -> tensor<2x1x5x8xf16>
  return %0 : tensor<2x1x5x8xf16>
}

// -----

// DIAG: matmul-invalid.mlir:[[@LINE+3]]:8: error: matmul of #0 (shape 5x16) and #1 (shape 16) has shape 5, but the result has shape 5x1
func.func @vector_result(%a: tensor<5x16xf16>, %b: tensor<16xf16>) -> tensor<5x1xf16> {
  // expected-error@+1 {{has shape 5, but the result has shape 5x1}}
  %0 = "prim.matmul"(%a, %b) : (tensor<5x16xf16>, tensor<16xf16>) -> tensor<5x1xf16>
  return %0 : tensor<5x1xf16>
}

// -----

// A dynamic batch must be the leading batch dim of both operands, the others equal: here
// b's heads broadcast (grouped-query attention), which needs a materialized batch.
// DIAG: matmul-invalid.mlir:[[@LINE+3]]:8: error: decompose: matmul: a dynamic dimension is supported
func.func @dynamic_broadcast_batch(%a: tensor<?x8x16x64xf16>, %b: tensor<?x1x64x32xf16>) -> tensor<?x8x16x32xf16> {
  // expected-error@+1 {{decompose: matmul: a dynamic dimension is supported in a's rows or batch dims against a b without batch dims (a weight), or as the leading batch dim of both operands, only}}
  %0 = "prim.matmul"(%a, %b) : (tensor<?x8x16x64xf16>, tensor<?x1x64x32xf16>) -> tensor<?x8x16x32xf16>
  return %0 : tensor<?x8x16x32xf16>
}
