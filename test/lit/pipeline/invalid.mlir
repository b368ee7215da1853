// RUN: not tt-opt %s --pipeline 2>&1 | FileCheck %s
// RUN: not tt-opt %s --pipeline='stage-in=nowhere' 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: error: option 'stage-in' of pass 'pipeline' is 'nowhere'; expected one of: registers, shared, tma, auto

// The pass pipelines the loads of the K loop; a K loop without tile.load has none to move.
// CHECK: invalid.mlir:[[# @LINE + 6]]:8: error: pipeline: the K loop must load its tiles with tile.load from offsets computed without loops or branches (at most 8 loads, 256 ops)
func.func @kernel() attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %a = arith.constant dense<1.0> : tensor<16x64xf16>
  %b = arith.constant dense<1.0> : tensor<64x64xf16>
  %z = arith.constant dense<0.0> : tensor<16x64xf32>
  %c0 = arith.constant 0 : i32
  %k = scf.for %i = %c0 to %c0 step %c0 iter_args(%acc = %z) -> (tensor<16x64xf32>) : i32 {
    %d = "tile.dot"(%a, %b, %acc) {mma = "wgmma"} : (tensor<16x64xf16>, tensor<64x64xf16>, tensor<16x64xf32>) -> tensor<16x64xf32>
    scf.yield %d : tensor<16x64xf32>
  }
  return
}
