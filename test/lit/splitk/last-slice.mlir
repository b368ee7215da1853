// --splitk reduce=last-slice: deterministic split-K in one launch. Each slice stores its
// partial tile to an f32 workspace [S + 1, M, N] and arrives at its output tile's counter
// (the workspace's last slice holds the counters); the last slice of each tile to arrive
// adds the S partial tiles in order and runs the whole epilogue (here a bias and SiLU,
// which atomics cannot take). No zero kernel, no reduce kernel.
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile='block-k=64' --splitk='split-k=4 reduce=last-slice' | FileCheck %s
// RUN: tt-opt %s --decompose --fuse --tile='block-k=64' --splitk='split-k=4 reduce=last-slice' | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=META < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// RUN: tt-run --ref-only --seed 1 %t.ptx | FileCheck %s --check-prefix=REF
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile='block-m=64 block-n=64 block-k=64' --splitk='split-k=8 reduce=last-slice' | FileCheck %s --check-prefix=WIDE

// The partial tile to slice pid_k (pid_k * 1024 past the result's offsets), the arrival
// at word 4 * 1024 + the tile's index, then under its result the in-order sum and the
// epilogue.
// CHECK-LABEL: func.func @fused_0_kernel(
// CHECK-SAME: %[[WS:arg4]]: !tile.ptr<f32>) attributes {{{.*}}tile.split_k = 4
// CHECK: %[[PK:.*]] = "tile.program_id"() {axis = 1 : i32}
// CHECK: scf.for
// CHECK: "tile.dot"
// CHECK: %[[ACC:.*]] = tensor.collapse_shape
// CHECK: %[[SLICE:.*]] = arith.muli %[[PK]], %c1024_i32
// CHECK: "tile.store"(%[[WS]], %{{.*}}, %[[ACC]], %{{.*}}) : (!tile.ptr<f32>
// CHECK: %[[TILE:.*]] = arith.addi
// CHECK: %[[WORD:.*]] = arith.addi %[[TILE]], %c4096_i32
// CHECK: %[[LAST:.*]] = "tile.arrive"(%[[WS]], %[[WORD]]) {count = 4 : i32} : (!tile.ptr<f32>, i32) -> i1
// CHECK: scf.if %[[LAST]] {
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4096_i32{{.*}} step %c4096_i32
// CHECK: "tile.load"(%[[WS]]
// CHECK: math.exp
// CHECK: "tile.store"(%arg3
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NOT: tile.atomic_add
// CHECK-NOT: _reduce
// CHECK: tile.launch = {args = [], counters, grid = ["4", "4", "1"], kernel = @fused_0_kernel, workspace = 4 : i32}
// CHECK-NOT: zero_result

// The metadata: the workspace [5, 4, 256] (4 slices and the counters), one launch, no
// zero line; in the PTX the block meets, thread 0 fences, counts with an atomic add and
// fences again, and after a second barrier every thread reads the answer.
// META: //@tt-meta 5 arch sm_90a
// META: //@tensor %[[W:[0-9]+]] temp f32 5x4x256
// META-NOT: //@zero
// META: //@launch fused_0_kernel grid 4 4 1
// META: //@arg ptr %[[W]]
// META-NOT: //@launch
// META: bar.sync
// META: fence.acq_rel.gpu;
// META: atom.global.add.u32
// META: fence.acq_rel.gpu;
// META: st.shared.b32 [__tt_arrive_flag
// META: bar.sync
// META: ld.shared.b32 {{.*}}[__tt_arrive_flag
// A 64 x 64 tile: four partial tiles of 4096 elements are the loads in flight, so the sum
// takes two steps of four slices (8 x 1024 words, step 4 x 1024), each four loads, then
// four adds in slice order.
// WIDE: scf.if
// WIDE: scf.for %[[S:.*]] = %{{.*}} to %c8192_i32{{.*}} step %c4096_i32 iter_args(%[[SUM:.*]] = %{{.*}}) -> (tensor<4096xf32>)
// WIDE-COUNT-4: "tile.load"(%arg4
// WIDE-NOT: "tile.load"
// WIDE: %[[A0:.*]] = arith.addf %[[SUM]]
// WIDE-COUNT-3: arith.addf
// WIDE-NEXT: scf.yield
// REF: output %{{[0-9]+}} f16 4x256
func.func @linear_silu(%x: tensor<4x512xf16>, %w: tensor<256x512xf16>, %b: tensor<256xf16>) -> tensor<4x256xf16> {
  %y = "prim.linear"(%x, %w, %b) : (tensor<4x512xf16>, tensor<256x512xf16>, tensor<256xf16>) -> tensor<4x256xf16>
  %s = "prim.silu"(%y) : (tensor<4x256xf16>) -> tensor<4x256xf16>
  return %s : tensor<4x256xf16>
}
