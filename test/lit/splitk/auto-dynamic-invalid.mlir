// An explicit split-k on a dynamic-M linear with an activation: reduce=auto (the default)
// would take a deterministic reduce (two-stage here), whose workspace needs a static
// result: a located error that says why auto chose it.
// RUN: not tt-opt %s --decompose --fuse --splitk=split-k=4 2>&1 | FileCheck %s
// CHECK: auto-dynamic-invalid.mlir:[[@LINE+3]]:8: error: splitk: reduce=two-stage needs a result of static shape (its f32 workspace is sized when compiling); this one has a dynamic dimension (reduce=auto takes it for an epilogue atomics cannot add)
func.func @gelu(%x: tensor<?x4096xf16>, %w: tensor<1024x4096xf16>) -> tensor<?x1024xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<?x4096xf16>, tensor<1024x4096xf16>) -> tensor<?x1024xf16>
  %z = "prim.gelu"(%y) {approximate = "tanh"} : (tensor<?x1024xf16>) -> tensor<?x1024xf16>
  return %z : tensor<?x1024xf16>
}
