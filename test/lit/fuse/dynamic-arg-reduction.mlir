// RUN: tt-opt %s --fuse | FileCheck %s
// An argmax over a dynamic dim: the per-row-index test of --fuse (argmax, then a reshape)
// compares element counts, which are unknown here; a fuzzer found the product overflowing.
// The op stays as written (no group of one is outlined).
// CHECK-LABEL: func.func @f
// CHECK-NEXT: "prim.argmax"
// CHECK-NEXT: return
func.func @f(%x: tensor<?x64xf32>) -> tensor<?xi64> {
  %t = "prim.argmax"(%x) {dim = 0 : i64} : (tensor<?x64xf32>) -> tensor<?xi64>
  return %t : tensor<?xi64>
}
