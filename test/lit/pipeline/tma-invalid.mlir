// RUN: tt-opt %s --split-input-file --verify-diagnostics --decompose='align-k=0' --fuse --tile='block-k=128' --splitk='split-k=1' --pipeline='stage-in=tma'
// RUN: not tt-opt %s --split-input-file --decompose --fuse --tile='block-k=256' --splitk='split-k=1' --pipeline='stage-in=tma num-stages=8' 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not tt-opt %s --split-input-file --decompose --fuse --tile='block-k=128 num-warps=2' --splitk='split-k=1' --pipeline='stage-in=tma' 2>&1 | FileCheck %s --check-prefix=WARPS

// A tensor map's rows are a multiple of 16 bytes: K = 1004 f16 is not (with
// --decompose's align-k=0, which otherwise pads K to 1008).
func.func @odd_k(%x: tensor<16x1004xf16>, %w: tensor<256x1004xf16>) -> tensor<16x256xf16> {
  // expected-error@+1 {{pipeline: stage-in=tma needs each load of the K loop}}
  %y = "prim.linear"(%x, %w) : (tensor<16x1004xf16>, tensor<256x1004xf16>) -> tensor<16x256xf16>
  return %y : tensor<16x256xf16>
}

// -----

// fp8 wgmma reads only K-major tiles: the [K, N] operand's tiles (64 fp8 columns, 64
// bytes a row) are refused.
func.func @fp8_kn(%x: tensor<16x1024xf8E4M3FN>, %w: tensor<1024x256xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<16x256xf16> {
  // expected-error@+1 {{pipeline: stage-in=tma needs each load of the K loop}}
  %y = "prim.scaled_mm"(%x, %w, %sx, %sw) : (tensor<16x1024xf8E4M3FN>, tensor<1024x256xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<16x256xf16>
  return %y : tensor<16x256xf16>
}

// -----

// Under the first RUN (block-k 128, 4 stages of 20 KiB) this fits; under the second
// (block-k 256: 40 KiB a stage, 8 stages) it does not.
// BIG: tma-invalid.mlir:[[# @LINE + 2]]:8: error: pipeline: 8 TMA stages need 327680 bytes of shared memory; at most 230400 are supported
func.func @big(%x: tensor<16x2048xf16>, %w: tensor<256x2048xf16>) -> tensor<16x256xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x2048xf16>, tensor<256x2048xf16>) -> tensor<16x256xf16>
  return %y : tensor<16x256xf16>
}


// -----

// wgmma, which reads the TMA slots, needs whole warpgroups: under the third RUN (2 warps)
// this one has none.
// WARPS: tma-invalid.mlir:[[# @LINE + 2]]:8: error: pipeline: stage-in=tma feeds warpgroup MMA, which needs num-warps a multiple of 4, N a multiple of 64 per warpgroup and M a multiple of 8 up to 256 (or M 64 per warpgroup, N a multiple of 8 up to 256 and B read transposed from an [N, K] matrix), and K of 64 (fp8: of 128, B transposed); this dot is 16x64x128 on 2 warps
func.func @two_warps(%x: tensor<16x1024xf16>, %w: tensor<256x1024xf16>) -> tensor<16x256xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x1024xf16>, tensor<256x1024xf16>) -> tensor<16x256xf16>
  return %y : tensor<16x256xf16>
}
