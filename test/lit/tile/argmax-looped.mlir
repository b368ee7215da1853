// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile --splitk | tt-translate --ptx -o %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// RUN: tt-run --ref-only %t.ptx | FileCheck %s --check-prefix=REF
// REF: output %1 i64 64:

// Rows past 32768 (a vocabulary of 152064, greedy decoding; 64 rows, past the few-rows
// split of argmax-few.mlir) take the looped form: one pass
// over the row's chunks carrying each lane's best element and its column (a lane takes an
// element when it is its first, strictly greater, or NaN where its best is not); then the
// row's max over the lanes, and the least column among the lanes whose best is it or
// NaN, converted to i64.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: scf.for {{.*}} iter_args(%[[B:.*]] = %{{.*}}, %[[C:.*]] = %{{.*}}) -> (tensor<{{[0-9]+}}xf32>, tensor<{{[0-9]+}}xf32>)
// CHECK: "tile.load"
// CHECK: arith.cmpf oeq, %[[C]]
// CHECK: arith.cmpf ogt, %{{.*}}, %[[B]]
// CHECK: arith.cmpf uno
// CHECK: arith.cmpf ord, %[[B]], %[[B]]
// CHECK: arith.andi
// CHECK: arith.uitofp
// CHECK: arith.select
// CHECK: arith.select
// CHECK: scf.yield
// The partial last chunk (peel-last): a loop of its own, the best elements carried in.
// CHECK: scf.for %{{.*}} = %c131072_i32 to %c152064_i32{{.*}} iter_args(%{{.*}} = %{{.*}}#0, %{{.*}} = %{{.*}}#1)
// CHECK: arith.cmpi slt
// CHECK: scf.yield
// CHECK-NOT: scf.for
// CHECK: %[[M:.*]] = "tile.reduce"(%{{.*}}) {axis = 0 : i32, kind = "max"}
// CHECK: %[[MS:.*]] = "tile.splat"(%[[M]])
// CHECK: arith.cmpf oeq, %{{.*}}, %[[MS]]
// CHECK: arith.cmpf uno
// CHECK: %[[I:.*]] = "tile.reduce"(%{{.*}}) {axis = 0 : i32, kind = "min"}
// CHECK: "tile.splat"(%[[I]])
// CHECK: arith.fptosi %{{.*}} : tensor<{{[0-9]+}}xf32> to tensor<{{[0-9]+}}xi64>
// CHECK: "tile.store"
// CHECK: prim.fusion = "row"
func.func @vocab_argmax(%x: tensor<64x152064xbf16>) -> tensor<64xi64> {
  %y = "prim.argmax"(%x) {dim = 1 : i64} : (tensor<64x152064xbf16>) -> tensor<64xi64>
  return %y : tensor<64xi64>
}
