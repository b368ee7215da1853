// A reduction's `keepdim` is optional and false when absent, as in PyTorch: the verifier,
// --decompose, the kernels and the metadata read it so; `keepdim = true` keeps the reduced
// dims with size 1. The reference accepts what tt-translate writes.
// RUN: tt-translate --ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: tt-run --ref-only %t.ptx | FileCheck %s --check-prefix=REF
// CHECK: //@prim %{{[0-9]+}} = sum %0 dims=1 keepdim=0
// CHECK: //@prim %{{[0-9]+}} = amax %0 dims=1 keepdim=1
// REF: output %{{[0-9]+}} f32 4:
// REF: output %{{[0-9]+}} f32 4x1:
// (dialects/verify.mlir: a result that keeps the dims without keepdim is an error.)

func.func @rows(%x: tensor<4x256xf32>) -> (tensor<4xf32>, tensor<4x1xf32>) {
  %0 = "prim.sum"(%x) {dims = array<i64: -1>} : (tensor<4x256xf32>) -> tensor<4xf32>
  %1 = "prim.amax"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<4x256xf32>) -> tensor<4x1xf32>
  return %0, %1 : tensor<4xf32>, tensor<4x1xf32>
}
