// RUN: tt-opt %s --split-input-file --verify-diagnostics --decompose --fuse --splitk='split-k=4'
// RUN: not tt-opt %s --split-input-file --decompose --fuse --splitk='split-k=4' 2>&1 | FileCheck %s --check-prefix=DIAG

// Each K slice adds its partial product to the output, so the epilogue must be linear in
// the accumulator; an activation is not (split-k=0 leaves such a kernel unsplit).
func.func @activation(%x: tensor<16x4096xf16>, %w: tensor<1024x4096xf16>) -> tensor<16x1024xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x4096xf16>, tensor<1024x4096xf16>) -> tensor<16x1024xf16>
  // DIAG: {{^}}{{.*}}splitk/invalid.mlir:[[@LINE+2]]:8: error: splitk: split-k=4 needs an epilogue linear in the accumulator (converts, scales, bias adds); 'math.exp' is not{{$}}
  // expected-error@+1 {{splitk: split-k=4 needs an epilogue linear in the accumulator (converts, scales, bias adds); 'math.exp' is not}}
  %z = "prim.silu"(%y) : (tensor<16x1024xf16>) -> tensor<16x1024xf16>
  return %z : tensor<16x1024xf16>
}
