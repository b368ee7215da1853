// --splitk on a dynamic-M linear (one kernel per bucket of M): an explicit split-k splits
// every bucket, and a bucket whose grid is sized at run time keeps `programs` (its planned
// size, which --pipeline reads) in step with it (x S). With an activation:
// auto-dynamic-invalid.mlir.
// RUN: tt-opt %s --decompose --fuse --splitk=split-k=4 --mlir-print-debuginfo=false | FileCheck %s

// CHECK: func.func private @fused_0_m256
// CHECK-SAME: grid = ["cdiv(dim(%i1,0),64)*8", "4", "1"]
// CHECK-SAME: programs = 128
func.func @linear(%x: tensor<?x4096xf16>, %w: tensor<1024x4096xf16>) -> tensor<?x1024xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<?x4096xf16>, tensor<1024x4096xf16>) -> tensor<?x1024xf16>
  return %y : tensor<?x1024xf16>
}

