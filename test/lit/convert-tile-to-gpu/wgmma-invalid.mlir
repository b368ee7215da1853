// RUN: tt-opt %s --split-input-file --verify-diagnostics --convert-tile-to-gpu='mma=wgmma'
// RUN: not tt-opt %s --split-input-file --convert-tile-to-gpu='mma=wgmma' 2>&1 | FileCheck %s

// hopper.wgmma_wait on the wgmma lowering: a wait for a negative number of groups in flight.
func.func @wgmma_wait_negative() attributes {tile.kernel, tile.num_warps = 4 : i32} {
  // CHECK: {{^}}{{.*}}wgmma-invalid.mlir:[[@LINE+2]]:3: error: 'hopper.wgmma_wait' needs pending, an integer from 0 to 7{{$}}
  // expected-error@+1 {{'hopper.wgmma_wait' needs pending, an integer from 0 to 7}}
  "hopper.wgmma_wait"() {pending = -1 : i32} : () -> ()
  return
}

// -----

// A recorded form that does not fit a dot in a K loop: the loop's accumulator (lowered
// before the dot) takes mma.sync's layout and the dot reports (a fuzzer's find: wgmma on
// 2 warps divided by zero warpgroups).
func.func @dot_form_loop(%pa: !tile.ptr<f16>, %pb: !tile.ptr<f16>) attributes {tile.kernel, tile.num_warps = 2 : i32} {
  %z = arith.constant dense<0.0> : tensor<16x64xf32>
  %o1 = "tile.range"() {start = 0 : i32, end = 1024 : i32} : () -> tensor<1024xi32>
  %o2 = "tile.range"() {start = 0 : i32, end = 4096 : i32} : () -> tensor<4096xi32>
  %m1 = arith.constant dense<true> : tensor<1024xi1>
  %m2 = arith.constant dense<true> : tensor<4096xi1>
  %f1 = arith.constant dense<0.0> : tensor<1024xf16>
  %f2 = arith.constant dense<0.0> : tensor<4096xf16>
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c256 = arith.constant 256 : i32
  %k = scf.for %i = %c0 to %c256 step %c64 iter_args(%acc = %z) -> (tensor<16x64xf32>) : i32 {
    %la = "tile.load"(%pa, %o1, %m1, %f1) : (!tile.ptr<f16>, tensor<1024xi32>, tensor<1024xi1>, tensor<1024xf16>) -> tensor<1024xf16>
    %a = tensor.expand_shape %la [[0, 1]] output_shape [16, 64] : tensor<1024xf16> into tensor<16x64xf16>
    %lb = "tile.load"(%pb, %o2, %m2, %f2) : (!tile.ptr<f16>, tensor<4096xi32>, tensor<4096xi1>, tensor<4096xf16>) -> tensor<4096xf16>
    %b = tensor.expand_shape %lb [[0, 1]] output_shape [64, 64] : tensor<4096xf16> into tensor<64x64xf16>
    // CHECK: {{^}}{{.*}}wgmma-invalid.mlir:[[@LINE+2]]:10: error: convert-tile-to-gpu: tile.dot's mma = "wgmma" does not fit this 16x64x64 dot on 2 warps{{.*}}
    // expected-error@+1 {{convert-tile-to-gpu: tile.dot's mma = "wgmma" does not fit this 16x64x64 dot on 2 warps with its operands where they are (--tile and --pipeline record the form that fits)}}
    %d = "tile.dot"(%a, %b, %acc) {mma = "wgmma"} : (tensor<16x64xf16>, tensor<64x64xf16>, tensor<16x64xf32>) -> tensor<16x64xf32>
    scf.yield %d : tensor<16x64xf32>
  }
  return
}
