// RUN: tt-opt %s --verify-diagnostics --pipeline='stage-in=tma'

// The descriptors go to the tile.launch of the fused function that launches the kernel;
// a kernel no fused function launches has none.
func.func @kernel(%pa: !tile.ptr<f16>, %pb: !tile.ptr<f16>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %z = arith.constant dense<0.0> : tensor<16x64xf32>
  %o1 = arith.constant dense<0> : tensor<1024xi32>
  %o2 = arith.constant dense<0> : tensor<4096xi32>
  %m1 = arith.constant dense<true> : tensor<1024xi1>
  %m2 = arith.constant dense<true> : tensor<4096xi1>
  %f1 = arith.constant dense<0.0> : tensor<1024xf16>
  %f2 = arith.constant dense<0.0> : tensor<4096xf16>
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c256 = arith.constant 256 : i32
  // expected-error@+1 {{pipeline: stage-in=tma needs the kernel launched by a fused function (its tile.launch gets the TMA descriptors)}}
  %k = scf.for %i = %c0 to %c256 step %c64 iter_args(%acc = %z) -> (tensor<16x64xf32>) : i32 {
    %la = "tile.load"(%pa, %o1, %m1, %f1) {tile.box = array<i64: 16, 256>} : (!tile.ptr<f16>, tensor<1024xi32>, tensor<1024xi1>, tensor<1024xf16>) -> tensor<1024xf16>
    %a = tensor.expand_shape %la [[0, 1]] output_shape [16, 64] : tensor<1024xf16> into tensor<16x64xf16>
    %lb = "tile.load"(%pb, %o2, %m2, %f2) {tile.box = array<i64: 256, 64>} : (!tile.ptr<f16>, tensor<4096xi32>, tensor<4096xi1>, tensor<4096xf16>) -> tensor<4096xf16>
    %b = tensor.expand_shape %lb [[0, 1]] output_shape [64, 64] : tensor<4096xf16> into tensor<64x64xf16>
    %d = "tile.dot"(%a, %b, %acc) {mma = "wgmma"} : (tensor<16x64xf16>, tensor<64x64xf16>, tensor<16x64xf32>) -> tensor<16x64xf32>
    scf.yield %d : tensor<16x64xf32>
  }
  return
}
