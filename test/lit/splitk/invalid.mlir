// RUN: tt-opt %s --split-input-file --verify-diagnostics --decompose --fuse --splitk='split-k=4 reduce=atomic'
// RUN: not tt-opt %s --split-input-file --decompose --fuse --splitk='split-k=4 reduce=atomic' 2>&1 | FileCheck %s --check-prefix=DIAG

// With reduce=atomic each K slice adds its partial product to the output, so the epilogue
// must be linear in the accumulator; an activation is not (reduce=auto, the default, takes
// last-slice for it; split-k=0 splits it only where the grid leaves 3/4 of the SMs idle:
// activation.mlir).
func.func @activation(%x: tensor<16x4096xf16>, %w: tensor<1024x4096xf16>) -> tensor<16x1024xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x4096xf16>, tensor<1024x4096xf16>) -> tensor<16x1024xf16>
  // DIAG: {{^}}{{.*}}splitk/invalid.mlir:[[@LINE+2]]:8: error: splitk: split-k=4 needs an epilogue linear in the accumulator (converts, scales, bias adds); 'math.exp' is not{{$}}
  // expected-error@+1 {{splitk: split-k=4 needs an epilogue linear in the accumulator (converts, scales, bias adds); 'math.exp' is not}}
  %z = "prim.silu"(%y) : (tensor<16x1024xf16>) -> tensor<16x1024xf16>
  return %z : tensor<16x1024xf16>
}

// -----

// Nor is a rounding to fp8 (each slice's partial sum would round to 2-3 mantissa bits; the
// default reduce takes last-slice for it: activation.mlir).
func.func @fp8_output(%x: tensor<16x4096xf16>, %w: tensor<1024x4096xf16>) -> tensor<16x1024xf8E4M3FN> {
  %y = "prim.linear"(%x, %w) : (tensor<16x4096xf16>, tensor<1024x4096xf16>) -> tensor<16x1024xf16>
  // DIAG: {{^}}{{.*}}splitk/invalid.mlir:[[@LINE+2]]:8: error: splitk: split-k=4 needs an epilogue linear in the accumulator (converts, scales, bias adds); 'arith.truncf' (a rounding to fp8: each slice would round) is not{{$}}
  // expected-error@+1 {{splitk: split-k=4 needs an epilogue linear in the accumulator (converts, scales, bias adds); 'arith.truncf' (a rounding to fp8: each slice would round) is not}}
  %q = "prim.convert"(%y) : (tensor<16x1024xf16>) -> tensor<16x1024xf8E4M3FN>
  return %q : tensor<16x1024xf8E4M3FN>
}

// -----

// A K loop split by --splitk runs from 0 to a constant K, in a kernel a fused function
// launches (here neither).
func.func @kernel(%lo: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %a = arith.constant dense<1.0> : tensor<16x64xf16>
  %b = arith.constant dense<1.0> : tensor<64x64xf16>
  %z = arith.constant dense<0.0> : tensor<16x64xf32>
  %c64 = arith.constant 64 : i32
  // DIAG: {{^}}{{.*}}splitk/invalid.mlir:[[@LINE+2]]:8: error: splitk: the K loop of @kernel must run from 0 to a constant K with a constant step, and its kernel must be launched by a fused function{{$}}
  // expected-error@+1 {{splitk: the K loop of @kernel must run from 0 to a constant K with a constant step, and its kernel must be launched by a fused function}}
  %k = scf.for %i = %lo to %c64 step %c64 iter_args(%acc = %z) -> (tensor<16x64xf32>) : i32 {
    %d = "tile.dot"(%a, %b, %acc) {mma = "wgmma"} : (tensor<16x64xf16>, tensor<64x64xf16>, tensor<16x64xf32>) -> tensor<16x64xf32>
    scf.yield %d : tensor<16x64xf32>
  }
  return
}
