// RUN: tt-opt %s --verify-diagnostics --split-input-file --decompose --fuse --tile='block-k=64' --splitk='split-k=4 reduce=last-slice'
// RUN: not tt-opt %s --split-input-file --decompose --fuse --tile='block-k=64' --splitk='split-k=4 reduce=last-slice' 2>&1 | FileCheck %s --check-prefix=DIAG

// reduce=last-slice's workspace holds S + 1 slices (the last: the counters), addressed
// with i32 offsets: (S + 1) x numel(result) must stay below 2^31.
func.func @huge(%x: tensor<65536x512xf16>, %w: tensor<8192x512xf16>) -> tensor<65536x8192xf16> {
  // DIAG: {{^}}{{.*}}splitk/last-slice-invalid.mlir:[[@LINE+2]]:8: error: splitk: reduce=last-slice needs a workspace of 5 x 536870912 f32, more than i32 offsets reach; use a smaller split-k{{$}}
  // expected-error@+1 {{splitk: reduce=last-slice needs a workspace of 5 x 536870912 f32, more than i32 offsets reach; use a smaller split-k}}
  %y = "prim.linear"(%x, %w) : (tensor<65536x512xf16>, tensor<8192x512xf16>) -> tensor<65536x8192xf16>
  return %y : tensor<65536x8192xf16>
}

// -----

// The workspace is sized when compiling: a result with a dynamic dim cannot take it.
func.func @dynamic_batch(%a: tensor<?x16x1024xf16>, %b: tensor<?x1024x64xf16>) -> tensor<?x16x64xf16> {
  // expected-error@+1 {{splitk: reduce=last-slice needs a result of static shape (its f32 workspace is sized when compiling); this one has a dynamic dimension}}
  %c = "prim.matmul"(%a, %b) : (tensor<?x16x1024xf16>, tensor<?x1024x64xf16>) -> tensor<?x16x64xf16>
  return %c : tensor<?x16x64xf16>
}

// -----

// The epilogue moves under the last slice's scf.if: the K loop's result must feed only
// its flattening, and the kernel must return right after the store.
func.func @two_uses(%p0: !tile.ptr<f32>, %p1: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %a = arith.constant dense<1.0> : tensor<16x64xf16>
  %b = arith.constant dense<1.0> : tensor<64x64xf16>
  %z = arith.constant dense<0.0> : tensor<16x64xf32>
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c256 = arith.constant 256 : i32
  // DIAG: {{^}}{{.*}}splitk/last-slice-invalid.mlir:[[@LINE+2]]:8: error: splitk: reduce=last-slice needs the K loop's result used by its flattening alone and the kernel to return right after the store{{$}}
  // expected-error@+1 {{splitk: reduce=last-slice needs the K loop's result used by its flattening alone and the kernel to return right after the store}}
  %k = scf.for %i = %c0 to %c256 step %c64 iter_args(%acc = %z) -> (tensor<16x64xf32>) : i32 {
    %d = "tile.dot"(%a, %b, %acc) {mma = "wgmma"} : (tensor<16x64xf16>, tensor<64x64xf16>, tensor<16x64xf32>) -> tensor<16x64xf32>
    scf.yield %d : tensor<16x64xf32>
  }
  %f = tensor.collapse_shape %k [[0, 1]] : tensor<16x64xf32> into tensor<1024xf32>
  %g = tensor.collapse_shape %k [[0, 1]] : tensor<16x64xf32> into tensor<1024xf32>
  %o = "tile.range"() {start = 0 : i32, end = 1024 : i32} : () -> tensor<1024xi32>
  %m = arith.constant dense<true> : tensor<1024xi1>
  "tile.store"(%p1, %o, %f, %m) : (!tile.ptr<f32>, tensor<1024xi32>, tensor<1024xf32>, tensor<1024xi1>) -> ()
  "tile.store"(%p0, %o, %g, %m) : (!tile.ptr<f32>, tensor<1024xi32>, tensor<1024xf32>, tensor<1024xi1>) -> ()
  return
}
func.func private @fused(%x: tensor<16x64xf32>) -> tensor<16x64xf32> attributes {prim.fusion = "dot", tile.launch = {args = [], grid = ["1", "1", "1"], kernel = @two_uses}} {
  return %x : tensor<16x64xf32>
}
