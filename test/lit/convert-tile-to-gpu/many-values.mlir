// RUN: tt-opt %s --convert-tile-to-gpu | FileCheck %s

// Regression: a table of lowered values that grows (here past 64 entries) while the
// lowering of a load holds entries of it must keep them valid (ASan found a use after free).
// CHECK: gpu.func @k
// CHECK: llvm.load
// CHECK: gpu.return
func.func @k(%p: !tile.ptr<f32>, %a: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %o = "tile.splat"(%a) : (i32) -> tensor<32xi32>
  %m = arith.constant dense<true> : tensor<32xi1>
  %z = arith.constant dense<0.0> : tensor<32xf32>
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c6 = arith.constant 6 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %c9 = arith.constant 9 : i32
  %c10 = arith.constant 10 : i32
  %c11 = arith.constant 11 : i32
  %c12 = arith.constant 12 : i32
  %c13 = arith.constant 13 : i32
  %c14 = arith.constant 14 : i32
  %c15 = arith.constant 15 : i32
  %c16 = arith.constant 16 : i32
  %c17 = arith.constant 17 : i32
  %c18 = arith.constant 18 : i32
  %c19 = arith.constant 19 : i32
  %c20 = arith.constant 20 : i32
  %c21 = arith.constant 21 : i32
  %c22 = arith.constant 22 : i32
  %c23 = arith.constant 23 : i32
  %c24 = arith.constant 24 : i32
  %c25 = arith.constant 25 : i32
  %c26 = arith.constant 26 : i32
  %c27 = arith.constant 27 : i32
  %c28 = arith.constant 28 : i32
  %c29 = arith.constant 29 : i32
  %c30 = arith.constant 30 : i32
  %c31 = arith.constant 31 : i32
  %c32 = arith.constant 32 : i32
  %c33 = arith.constant 33 : i32
  %c34 = arith.constant 34 : i32
  %c35 = arith.constant 35 : i32
  %c36 = arith.constant 36 : i32
  %c37 = arith.constant 37 : i32
  %c38 = arith.constant 38 : i32
  %c39 = arith.constant 39 : i32
  %c40 = arith.constant 40 : i32
  %c41 = arith.constant 41 : i32
  %c42 = arith.constant 42 : i32
  %c43 = arith.constant 43 : i32
  %c44 = arith.constant 44 : i32
  %c45 = arith.constant 45 : i32
  %c46 = arith.constant 46 : i32
  %c47 = arith.constant 47 : i32
  %c48 = arith.constant 48 : i32
  %c49 = arith.constant 49 : i32
  %c50 = arith.constant 50 : i32
  %c51 = arith.constant 51 : i32
  %c52 = arith.constant 52 : i32
  %c53 = arith.constant 53 : i32
  %c54 = arith.constant 54 : i32
  %c55 = arith.constant 55 : i32
  %c56 = arith.constant 56 : i32
  %c57 = arith.constant 57 : i32
  %c58 = arith.constant 58 : i32
  %c59 = arith.constant 59 : i32
  %v = "tile.load"(%p, %o, %m, %z) : (!tile.ptr<f32>, tensor<32xi32>, tensor<32xi1>, tensor<32xf32>) -> tensor<32xf32>
  return
}
