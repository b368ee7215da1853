// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile | FileCheck %s

// 1 + tanh(v) (either order; GELU's tanh form, from prim.gelu or written out) is computed as
// 2 / (1 + 2^(-2 log2(e) v)), the same value: no cancellation where tanh(v) nears -1, and
// an exp2 and a division instead of a tanh and an add (emit.c, onePlusTanhOf). No tanh is
// left in the kernel.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: math.tanh
// CHECK: %[[M:.*]] = arith.mulf %{{.*}}, %cst{{.*}} fastmath<contract,afn> : tensor<1024xf32>
// CHECK: %[[E:.*]] = math.exp2 %[[M]] fastmath<contract,afn> : tensor<1024xf32>
// CHECK: %[[D:.*]] = arith.addf %{{.*}}, %[[E]] fastmath<contract,afn> : tensor<1024xf32>
// CHECK: arith.divf %{{.*}}, %[[D]] fastmath<contract,afn> : tensor<1024xf32>
// CHECK-NOT: math.tanh
// CHECK: "tile.store"
func.func @gelu(%x: tensor<1000xbf16>) -> tensor<1000xbf16> {
  %y = "prim.gelu"(%x) {approximate = "tanh"} : (tensor<1000xbf16>) -> tensor<1000xbf16>
  return %y : tensor<1000xbf16>
}

// -----

// tanh(v) + 1, written out.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: math.tanh
// CHECK: math.exp2
// CHECK: arith.divf
func.func @written(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %one = "prim.full"() {value = 1.0 : f32} : () -> tensor<1000xf32>
  %t = "prim.tanh"(%x) : (tensor<1000xf32>) -> tensor<1000xf32>
  %y = "prim.add"(%t, %one) : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>
  return %y : tensor<1000xf32>
}

// -----

// Not for 2 + tanh(v), nor a tanh used alone.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: math.tanh
// CHECK-NOT: math.exp2
func.func @two(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %two = "prim.full"() {value = 2.0 : f32} : () -> tensor<1000xf32>
  %t = "prim.tanh"(%x) : (tensor<1000xf32>) -> tensor<1000xf32>
  %y = "prim.add"(%two, %t) : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>
  return %y : tensor<1000xf32>
}
