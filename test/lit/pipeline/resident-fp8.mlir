// The resident form on fp8 rows of 4100 bytes (4-byte pieces): x's K range is copied with
// cp.async of 4 bytes into its swizzled buffer, and fp8 wgmma (e4m3) reads it in place
// beside the weight's TMA ring (docs/worked-example-gemm.md section 8 shows the IR).
// RUN: tt-opt %s --decompose --fuse --splitk | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// RUN: tt-run --ref-only %t.ptx | FileCheck %s --check-prefix=REF
// resident=1 where the copy cannot fit (64 rows x all of K = 4224 bytes, unsplit: 270 KB)
// is an error at the load; by default that shape keeps x's pad a kernel.
// RUN: not tt-opt %s --decompose --fuse=k-pad=in-place --tile='block-m=64' --splitk='split-k=1' --pipeline='stage-in=auto resident=1' 2>&1 | FileCheck %s --check-prefix=ERR
// CHECK-COUNT-2: //@launch
// CHECK-NOT: //@launch
// CHECK: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 4, %r{{[0-9]+}};
// CHECK: fence.proxy.async.shared::cta;
// CHECK: wgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e4m3
// REF: output %{{[0-9]+}} bf16 16x1000:
// ERR: resident-fp8.mlir:[[# @LINE + 5]]:8: error: pipeline: resident=1 needs the TMA form
func.func @main(%x: tensor<16x4100xf8E4M3FN>, %w: tensor<1000x4100xf8E4M3FN> {tt.invariant},
                %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<16x1000xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>}
      : (tensor<1000x4100xf8E4M3FN>) -> tensor<4100x1000xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw)
      : (tensor<16x4100xf8E4M3FN>, tensor<4100x1000xf8E4M3FN>, tensor<f32>, tensor<f32>)
      -> tensor<16x1000xbf16>
  return %y : tensor<16x1000xbf16>
}
