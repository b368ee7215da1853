// RUN: tt-opt %s --verify-diagnostics --split-input-file --decompose --fuse --tile='block-k=64' --splitk='split-k=4 reduce=two-stage'
// RUN: not tt-opt %s --split-input-file --decompose --fuse --tile='block-k=64' --splitk='split-k=4 reduce=two-stage' 2>&1 | FileCheck %s --check-prefix=DIAG2

// reduce=two-stage stores the flattened accumulator where the result's tile.store puts the
// result: a kernel whose K loop result is not flattened and stored has neither.
func.func @nostore(%p0: !tile.ptr<f32>, %p1: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %a = arith.constant dense<1.0> : tensor<16x64xf16>
  %b = arith.constant dense<1.0> : tensor<64x64xf16>
  %z = arith.constant dense<0.0> : tensor<16x64xf32>
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c256 = arith.constant 256 : i32
  // DIAG2: {{^}}{{.*}}splitk/two-stage-invalid.mlir:[[@LINE+2]]:8: error: splitk: reduce=two-stage needs the accumulator flattened (tensor.collapse_shape) and stored by one tile.store after the K loop{{$}}
  // expected-error@+1 {{splitk: reduce=two-stage needs the accumulator flattened (tensor.collapse_shape) and stored by one tile.store after the K loop}}
  %k = scf.for %i = %c0 to %c256 step %c64 iter_args(%acc = %z) -> (tensor<16x64xf32>) : i32 {
    %d = "tile.dot"(%a, %b, %acc) {mma = "wgmma"} : (tensor<16x64xf16>, tensor<64x64xf16>, tensor<16x64xf32>) -> tensor<16x64xf32>
    scf.yield %d : tensor<16x64xf32>
  }
  return
}
func.func private @fused(%x: tensor<16x64xf32>) -> tensor<16x64xf32> attributes {prim.fusion = "dot", tile.launch = {args = [], grid = ["1", "1", "1"], kernel = @nostore}} {
  return %x : tensor<16x64xf32>
}

// -----

// The workspace is addressed with i32 offsets: S x numel(result) must stay below 2^31.
func.func @huge(%x: tensor<65536x512xf16>, %w: tensor<8192x512xf16>) -> tensor<65536x8192xf16> {
  // DIAG2: {{^}}{{.*}}splitk/two-stage-invalid.mlir:[[@LINE+2]]:8: error: splitk: reduce=two-stage needs a workspace of 4 x 536870912 f32, more than i32 offsets reach; use a smaller split-k{{$}}
  // expected-error@+1 {{splitk: reduce=two-stage needs a workspace of 4 x 536870912 f32, more than i32 offsets reach; use a smaller split-k}}
  %y = "prim.linear"(%x, %w) : (tensor<65536x512xf16>, tensor<8192x512xf16>) -> tensor<65536x8192xf16>
  return %y : tensor<65536x8192xf16>
}

// -----

// The f32 workspace is sized when compiling: a result with a dynamic dim (a dynamic batch
// here) cannot take an explicit two-stage split.
func.func @dynamic_batch(%a: tensor<?x16x1024xf16>, %b: tensor<?x1024x64xf16>) -> tensor<?x16x64xf16> {
  // expected-error@+1 {{splitk: reduce=two-stage needs a result of static shape (its f32 workspace is sized when compiling); this one has a dynamic dimension}}
  %c = "prim.matmul"(%a, %b) : (tensor<?x16x1024xf16>, tensor<?x1024x64xf16>) -> tensor<?x16x64xf16>
  return %c : tensor<?x16x64xf16>
}
