// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse='hoist=0' | FileCheck %s --check-prefix=OFF
// --fuse's step 6 (hoist.c): a call that reads weights alone (`tt.invariant` arguments, or
// results of such calls) and returns nothing to the caller is marked `tt.invariant`, and
// the launch metadata marks its launches `once` (format 9): the runtime runs them at the
// first run only (test/lit/tt-translate/once.mlir: the metadata).

// K = 4100 (8-byte rows): --decompose pads x and the weight to K = 4160; the weight's
// pad reads the weight alone and runs once; x's is read in place by the dot kernel (each
// program copies its K range to shared memory once: --pipeline's resident form).
// CHECK-LABEL: func.func @main
// CHECK-NEXT: call @fused_0(%arg1) {tt.invariant} : (tensor<1000x4100xf16>)
// CHECK-NEXT: call @fused_1(%arg0, 
// CHECK-NOT: tt.invariant
// CHECK: return
// OFF-NOT: call {{.*}}tt.invariant
func.func @main(%x: tensor<7x4100xf16>, %w: tensor<1000x4100xf16> {tt.invariant}) -> tensor<7x1000xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<7x4100xf16>, tensor<1000x4100xf16>) -> tensor<7x1000xf16>
  return %y : tensor<7x1000xf16>
}

// -----

// A chain: exp(w), stored once (a matmul reads it), then its row sums: both read weights
// alone and run once; the product with x and its epilogue read an activation and run
// each time.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[E:.*]] = call @fused_{{[0-9]+}}(%arg1) {tt.invariant}
// CHECK-NEXT: %[[S:.*]] = call @fused_{{[0-9]+}}(%[[E]]) {tt.invariant}
// CHECK-NEXT: call @fused_{{[0-9]+}}({{.*}}%arg0{{.*}}) :
func.func @chain(%x: tensor<8x32xf16>, %w: tensor<64x32xf16> {tt.invariant}) -> tensor<8x64xf16> {
  %e = "prim.exp"(%w) : (tensor<64x32xf16>) -> tensor<64x32xf16>
  %s = "prim.sum"(%e) {dims = array<i64: 1>, keepdim = false} : (tensor<64x32xf16>) -> tensor<64xf16>
  %et = "prim.transpose"(%e) {permutation = array<i64: 1, 0>} : (tensor<64x32xf16>) -> tensor<32x64xf16>
  %p = "prim.matmul"(%x, %et) : (tensor<8x32xf16>, tensor<32x64xf16>) -> tensor<8x64xf16>
  %b = "prim.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64: 1>} : (tensor<64xf16>) -> tensor<8x64xf16>
  %y = "prim.add"(%p, %b) : (tensor<8x64xf16>, tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

// A weight-only value that is also a result of the program is written at every run (the
// caller's output buffer may change), and so is everything that reads an activation.
// CHECK-LABEL: func.func @returned
// CHECK-NOT: call {{.*}}tt.invariant
// CHECK: return
func.func @returned(%x: tensor<64x32xf32>, %w: tensor<64x32xf32> {tt.invariant}) -> (tensor<64xf32>, tensor<64x32xf32>) {
  %s = "prim.sum"(%w) {dims = array<i64: 1>, keepdim = false} : (tensor<64x32xf32>) -> tensor<64xf32>
  %y = "prim.add"(%x, %w) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  return %s, %y : tensor<64xf32>, tensor<64x32xf32>
}
