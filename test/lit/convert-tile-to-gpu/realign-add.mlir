// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --splitk --tile --convert-tile-to-gpu='sm=90' | FileCheck %s

// Step 1c for split-K's adds of rows of 3001 f16 (off 16-byte alignment): after the
// shuffles, a group at an aligned start that is all on is one vector red; the rest sit
// under one branch. There, with the output's extent known (--splitk's tile.extent, 64 x
// 3001 = 192064 elements), the lanes the mask has off become -0.0 (eight selects), and
// every window that ends within the extent is one 16-byte red: realigned, a group at an
// aligned start but not all on, head, tail (four); only what is left near the end goes
// element by element (red of the f16x2 word).
// CHECK-LABEL: gpu.func @fused_0_kernel
// CHECK: gpu.shuffle  down
// CHECK: scf.if
// CHECK: red.global.add.noftz.v4.f16x2
// CHECK: } else {
// CHECK: scf.if
// CHECK-COUNT-8: arith.select %{{.*}}, %{{.*}}, %c-32768_i16 : i16
// CHECK: red.global.add.noftz.v4.f16x2
// CHECK: arith.constant 192064 : i32
// CHECK-COUNT-3: red.global.add.noftz.v4.f16x2
// CHECK-NOT: red.global.add.noftz.v4.f16x2
// CHECK: red.global.add.noftz.f16x2 [$0], $1;
func.func @odd_n(%x: tensor<64x4096xf16>, %w: tensor<3001x4096xf16>) -> tensor<64x3001xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<64x4096xf16>, tensor<3001x4096xf16>) -> tensor<64x3001xf16>
  return %y : tensor<64x3001xf16>
}

// -----

// A dynamic M: no extent, so no lane becomes -0.0; the head's and tail's 16-byte reds
// only where the windows are known to lie in the tensor (three vector reds past the
// as-is one).
// CHECK-LABEL: gpu.func @fused_0_kernel
// CHECK: gpu.shuffle  down
// CHECK: red.global.add.noftz.v4.f16x2
// CHECK: } else {
// CHECK-NOT: %c-32768_i16 : i16
// CHECK-COUNT-3: red.global.add.noftz.v4.f16x2
// CHECK-NOT: red.global.add.noftz.v4.f16x2
// CHECK: red.global.add.noftz.f16x2 [$0], $1;
// CHECK: gpu.return
func.func @dyn(%x: tensor<?x4096xf16>, %w: tensor<3001x4096xf16>) -> tensor<?x3001xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<?x4096xf16>, tensor<3001x4096xf16>) -> tensor<?x3001xf16>
  return %y : tensor<?x3001xf16>
}
