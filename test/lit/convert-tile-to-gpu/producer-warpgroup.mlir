// A producer warpgroup (--pipeline warp-specialize: fp8 prefill on two consumer
// warpgroups, tile.producer_warps = 4): 384 threads, the producer's warps give back their
// registers to 40 (setmaxnreg.dec, before the producer's one issuing thread is picked) and
// the consumers take 232 (setmaxnreg.inc, at the start of their region), where 384 threads
// start at 168. With a producer warp (warp-specialize=1) no setmaxnreg: 288 threads.
// RUN: tt-opt %s --decompose --fuse --splitk --pipeline='stage-in=auto' | tt-opt --convert-tile-to-gpu=mma=wgmma | FileCheck %s
// RUN: tt-opt %s --decompose --fuse --splitk --pipeline='stage-in=auto warp-specialize=1' | tt-opt --convert-tile-to-gpu=mma=wgmma | FileCheck %s --check-prefix=WARP
// RUN: tt-opt %s --decompose --fuse --splitk --pipeline='stage-in=auto' | tt-translate --ptx | FileCheck %s --check-prefix=PTX
// Two blocks an SM asked for (tile.programs_per_sm = 2, on rings that fit two): no
// register split (the consumers' share would not cover the increase).
// RUN: tt-opt %s --decompose --fuse --tile='block-m=128 block-n=128 num-warps=8 block-k=128' --splitk --pipeline='stage-in=auto warp-specialize=2' | sed 's/tile.producer_warps = 4 : i32/&, tile.programs_per_sm = 2 : i32/' | tt-translate --ptx | FileCheck %s --check-prefix=TWO
// TWO: .maxntid 384, 1, 1
// TWO: .minnctapersm 2
// TWO-NOT: setmaxnreg
// CHECK: gpu.func @fused_0_kernel
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>
// CHECK: nvvm.setmaxregister decrease 40
// CHECK-NEXT: arith.constant 256
// CHECK-NEXT: arith.cmpi eq
// CHECK-NEXT: scf.if
// CHECK-NEXT: scf.for
// CHECK: nvvm.setmaxregister increase 232
// CHECK-NEXT: arith.constant dense<0.0
// CHECK-NEXT: scf.for
// WARP: known_block_size = array<i32: 288, 1, 1>
// WARP-NOT: setmaxregister
// Forced on (warp-specialize=2), the same; past 2 the option is out of range.
// RUN: tt-opt %s --decompose --fuse --splitk --pipeline='stage-in=auto warp-specialize=2' | tt-opt --convert-tile-to-gpu=mma=wgmma | FileCheck %s
// RUN: not tt-opt %s --pipeline='warp-specialize=3' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: option 'warp-specialize' of pass 'pipeline' is 3, out of range [-1, 2]
// PTX: .maxntid 384, 1, 1
// PTX: setmaxnreg.dec.sync.aligned.u32 40;
// PTX: setmaxnreg.inc.sync.aligned.u32 232;
func.func @fp8_prefill(%x: tensor<600x4096xf8E4M3FN>, %w: tensor<4096x4096xf8E4M3FN> {tt.invariant}, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<600x4096xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<4096x4096xf8E4M3FN>) -> tensor<4096x4096xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<600x4096xf8E4M3FN>, tensor<4096x4096xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<600x4096xbf16>
  return %y : tensor<600x4096xbf16>
}
