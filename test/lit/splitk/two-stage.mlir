// --splitk reduce=two-stage: deterministic split-K. The split kernel stores each slice's
// partial tile to an f32 workspace [S, M, N] (no atomics, no zeroing); a reduce kernel,
// a copy of the original one with the K loop replaced by an in-order loop over the S
// slices, runs the whole epilogue (here a bias and SiLU, which atomics cannot take).
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile='block-k=64' --splitk='split-k=4 reduce=two-stage' | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile='block-k=64' --splitk='reduce=two-stage num-sms=8 floor-ns=0' | FileCheck %s --check-prefix=AUTO
// RUN: tt-opt %s --decompose --fuse --tile='block-k=64' --splitk='split-k=4 reduce=two-stage' | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=META < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// RUN: tt-run --ref-only --seed 1 %t.ptx | FileCheck %s --check-prefix=REF
// RUN: not tt-opt %s --decompose --fuse --splitk='reduce=tree' 2>&1 | FileCheck %s --check-prefix=BAD

// The split kernel: slice pid_k of K, the flattened accumulator stored at pid_k * 1024
// (M x N = 4 x 256) past the result's offsets, under the result's mask; no epilogue.
// CHECK-LABEL: func.func @fused_0_kernel(
// CHECK-SAME: %[[WS:arg4]]: !tile.ptr<f32>) attributes {{{.*}}tile.split_k = 4
// CHECK: %[[PK:.*]] = "tile.program_id"() {axis = 1 : i32}
// CHECK: %[[LO:.*]] = arith.muli %[[PK]], %c128_i32
// CHECK: scf.for %{{.*}} = %[[LO]] to %{{.*}} step %c64
// CHECK: "tile.dot"
// CHECK: %[[ACC:.*]] = tensor.collapse_shape
// CHECK: %[[SLICE:.*]] = arith.muli %[[PK]], %c1024_i32
// CHECK: %[[SHIFT:.*]] = "tile.splat"(%[[SLICE]])
// CHECK: %[[OFF:.*]] = arith.addi %{{.*}}, %[[SHIFT]]
// CHECK: "tile.store"(%[[WS]], %[[OFF]], %[[ACC]], %{{.*}}) : (!tile.ptr<f32>
// CHECK-NOT: math.exp
// CHECK-NOT: tile.atomic_add
// CHECK: return
// The reduce kernel: no dot; slices 0..3 loaded together (four 1024-element tiles are
// within the loads in flight: one step of 4096), then added in order; bias and SiLU.
// CHECK-LABEL: func.func @fused_0_kernel_reduce(
// CHECK-SAME: %[[RWS:arg4]]: !tile.ptr<f32>) attributes {{{.*}}tile.kernel
// CHECK-NOT: tile.dot
// CHECK: scf.for %[[S:.*]] = %c0_i32 to %c4096_i32{{.*}} step %c4096_i32 iter_args(%[[SUM:.*]] = %{{.*}}) -> (tensor<1024xf32>)
// CHECK: %[[SO:.*]] = "tile.splat"(%[[S]])
// CHECK: %[[P0:.*]] = "tile.load"(%[[RWS]], %{{.*}}, %{{.*}}, %{{.*}}) : (!tile.ptr<f32>
// CHECK: arith.addi %[[S]], %c1024_i32
// CHECK: %[[P1:.*]] = "tile.load"(%[[RWS]]
// CHECK: arith.addi %[[S]], %c2048_i32
// CHECK: %[[P2:.*]] = "tile.load"(%[[RWS]]
// CHECK: arith.addi %[[S]], %c3072_i32
// CHECK: %[[P3:.*]] = "tile.load"(%[[RWS]]
// CHECK: %[[A0:.*]] = arith.addf %[[SUM]], %[[P0]]
// CHECK-NEXT: %[[A1:.*]] = arith.addf %[[A0]], %[[P1]]
// CHECK-NEXT: %[[A2:.*]] = arith.addf %[[A1]], %[[P2]]
// CHECK-NEXT: %[[A3:.*]] = arith.addf %[[A2]], %[[P3]]
// CHECK-NEXT: scf.yield %[[A3]]
// CHECK: math.exp
// CHECK: "tile.store"(%arg3
// The launch: 4 slices, the workspace and the reduce kernel; nothing is zeroed.
// CHECK: tile.launch = {args = [], grid = ["4", "4", "1"], kernel = @fused_0_kernel, reduce = @fused_0_kernel_reduce, workspace = 4 : i32}
// CHECK-NOT: zero_result
// split-k=0 splits as with atomics (4 programs, 8 SMs: S = 2), activation or not.
// AUTO: tile.launch = {args = [], grid = ["4", "2", "1"], kernel = @fused_0_kernel, reduce = @fused_0_kernel_reduce, workspace = 2 : i32}

// The metadata: an f32 workspace temp, then both launches with the same pointers (the
// workspace after the result), the reduce kernel on grid[1] = 1; no zero line. The split
// kernel's K loop (tt-translate, sm_90a) reads TMA rings: format 3, two tensor maps after
// the pointers, dynamic shared memory.
// META: //@tt-meta 5 arch sm_90a
// META: //@tensor %[[W:[0-9]+]] temp f32 4x4x256
// META: //@launch fused_0_kernel grid 4 4 1 block 128 1 1 shared {{[1-9][0-9]*}}
// META-NEXT: //@arg ptr %{{[0-9]+}}
// META-NEXT: //@arg ptr %{{[0-9]+}}
// META-NEXT: //@arg ptr %{{[0-9]+}}
// META-NEXT: //@arg ptr %[[OUT:[0-9]+]]
// META-NEXT: //@arg ptr %[[W]]
// META-NEXT: //@arg tma %0 4x512 box 16x64
// META-NEXT: //@arg tma %1 256x512 box 64x64
// META-NEXT: //@launch fused_0_kernel_reduce grid 4 1 1 block 128 1 1 shared 0
// META: //@arg ptr %[[OUT]]
// META-NEXT: //@arg ptr %[[W]]
// META-NOT: //@zero
// META: wgmma.mma_async
// META: .entry fused_0_kernel_reduce
// REF: output %{{[0-9]+}} f16 4x256: sum

// BAD: error: option 'reduce' of pass 'splitk' is 'tree'; expected one of: atomic, two-stage
func.func @linear_silu(%x: tensor<4x512xf16>, %w: tensor<256x512xf16>, %b: tensor<256xf16>) -> tensor<4x256xf16> {
  %y = "prim.linear"(%x, %w, %b) : (tensor<4x512xf16>, tensor<256x512xf16>, tensor<256xf16>) -> tensor<4x256xf16>
  %z = "prim.silu"(%y) : (tensor<4x256xf16>) -> tensor<4x256xf16>
  return %z : tensor<4x256xf16>
}
