// RUN: tt-opt %s --split-input-file --splitk | FileCheck %s
// RUN: tt-opt %s --split-input-file --fuse --splitk | FileCheck %s --check-prefix=FUSED

// A program without a dot is left unchanged by --splitk.
// CHECK-LABEL: func.func @no_dot
// CHECK-NEXT: "prim.exp"
// FUSED-LABEL: func.func private @fused_0
// FUSED: "prim.exp"
func.func @no_dot(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = "prim.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}
