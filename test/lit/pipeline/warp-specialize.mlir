// --pipeline's step 7, warp specialisation (pipeline.c producerLoop / releaseSlot /
// consumerRegion; forms.c plWarpSpecialize): a producer warp after the kernel's
// tile.num_warps (tile.producer_warps = 1) walks K and, per step, waits until its slot is
// empty (parity (i / S + 1) % 2 of an `empty` mbarrier: the first round passes at once)
// and issues the step's TMA copies; the consumers (the else-region) wait for each slot's
// boxes, run the dot and arrive on the slot's `empty` mbarrier, with no block barrier in
// the K loop. By default (-1) only where each dot waits for its own wgmma (fp8) on 64-row
// tiles of at most 96 columns, 4 warps and 4 stages or more, or (prefill) on 128-row tiles
// of at most 128 columns, 8 warps and 3 stages or more where A has more than one row tile;
// without a cluster.
// RUN: tt-opt %s --split-input-file --decompose --fuse --splitk --pipeline='stage-in=auto' --mlir-print-debuginfo=false | FileCheck %s
// RUN: tt-opt %s --split-input-file --decompose --fuse --splitk --pipeline='stage-in=auto warp-specialize=0' --mlir-print-debuginfo=false | FileCheck %s --check-prefix=OFF
// RUN: tt-opt %s --split-input-file --decompose --fuse --splitk --pipeline='stage-in=auto warp-specialize=1' --mlir-print-debuginfo=false | FileCheck %s --check-prefix=ON
// RUN: tt-opt %s --split-input-file --decompose --fuse --tile=multicast=2 --splitk --pipeline='stage-in=auto warp-specialize=1' --mlir-print-debuginfo=false | FileCheck %s --check-prefix=MC
// RUN: tt-opt %s --split-input-file --decompose --fuse --splitk --pipeline='stage-in=auto' --pdl --mlir-print-debuginfo=false | FileCheck %s --check-prefix=PDL
// RUN: tt-opt %s --split-input-file --decompose --fuse --splitk --pipeline='stage-in=auto warp-specialize=1' --mlir-print-debuginfo=false | tt-opt --split-input-file --convert-tile-to-gpu=mma=wgmma | FileCheck %s --check-prefix=GPU

// fp8 128 x 3584 x 3584: one wave of 64 x 64 x 256 tiles, 4 stages, no wgmma in flight.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_stages = 4 : i32, tile.num_warps = 4 : i32, tile.producer_warps = 1 : i32
// CHECK: %[[A:.*]] = "hopper.mbarrier_alloc"() {count = 4 : i32}
// CHECK: %[[B:.*]] = "hopper.mbarrier_alloc"() {count = 4 : i32}
// CHECK: %[[EMPTY:.*]] = "hopper.mbarrier_alloc"() {arrivals = 128 : i32, count = 4 : i32}
// CHECK: %[[P:.*]] = "hopper.producer_warp"() : () -> i1
// CHECK: scf.if %[[P]] {
// CHECK: scf.for
// CHECK: %[[I:.*]] = arith.divui
// CHECK: %[[SLOT:.*]] = arith.remui %[[I]]
// CHECK: %[[ROUND:.*]] = arith.divui %[[I]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[ROUND]], %c1_i32
// CHECK: %[[PARITY:.*]] = arith.remui %[[NEXT]]
// CHECK: "hopper.mbarrier_wait"(%[[EMPTY]], %[[SLOT]], %[[PARITY]])
// CHECK: "hopper.tma_load"({{.*}}, %[[SLOT]], %[[A]], {{.*}}, %true)
// CHECK: "hopper.tma_load"({{.*}}, %[[SLOT]], %[[B]], {{.*}}, %true)
// CHECK: } else {
// CHECK: scf.for
// CHECK-NOT: tile.barrier
// CHECK: "hopper.mbarrier_wait"(%[[A]], %[[RD:.*]], %{{.*}})
// CHECK-NOT: tile.barrier
// CHECK: "tile.dot"
// CHECK-NOT: tile.barrier
// CHECK: "hopper.mbarrier_arrive"(%[[EMPTY]], %[[RD]], %true)
// CHECK-NEXT: scf.yield
// CHECK: "tile.async_wait"() {pending = 0 : i32}
// CHECK: "tile.store"
// CHECK: }
// CHECK-NEXT: return
// OFF-LABEL: func.func @fused_0_kernel
// OFF-NOT: producer
// OFF: tile.barrier
// OFF: return
// The lowering: a block of 160 threads; the producer warp (tid >= 128) issues the
// copies from its first thread; the consumers' barriers are named barrier 1 of 128 threads.
// GPU-LABEL: gpu.func @fused_0_kernel
// GPU-SAME: known_block_size = array<i32: 160, 1, 1>
// GPU: nvvm.mbarrier.init %{{.*}}, %c128_i32
// GPU: %[[TID:.*]] = gpu.thread_id x
// GPU: arith.cmpi uge, %{{.*}}, %c128_i32
// GPU: scf.if
// GPU: nvvm.mbarrier.try_wait.parity
// GPU: arith.cmpi eq, %{{.*}}, %c128_i32
// GPU: nvvm.cp.async.bulk.tensor.shared.cluster.global
// GPU: } else {
// GPU: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// GPU: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.count"(%c1_i32, %c128_i32{{.*}}) : (i32, i32) -> ()
// CHECK-LABEL: func.func @fp8(
// OFF-LABEL: func.func @fp8(
// ON-LABEL: func.func @fp8(
// MC-LABEL: func.func @fp8(
func.func @fp8(%x: tensor<128x3584xf8E4M3FN>, %w: tensor<3584x3584xf8E4M3FN> {tt.invariant}, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<128x3584xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<3584x3584xf8E4M3FN>) -> tensor<3584x3584xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<128x3584xf8E4M3FN>, tensor<3584x3584xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<128x3584xbf16>
  return %y : tensor<128x3584xbf16>
}

// -----

// f16 128 x 3584 x 3584 keeps its wgmma in flight: no producer by default. Asked for, the
// consumers wait for the wgmma of step i - 1 (pending 1) and free its slot (wr) from
// the second step on (k > lb).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: producer
// CHECK: return
// ON-LABEL: func.func @fused_0_kernel
// ON-SAME: tile.producer_warps = 1
// ON: %[[EMPTY:.*]] = "hopper.mbarrier_alloc"() {arrivals = 128 : i32
// ON: } else {
// ON: scf.for %[[K:[a-z0-9_]+]] = %[[LB:[a-z0-9_]+]] to
// ON: arith.remui
// ON: arith.addi
// ON: %[[WR:.*]] = arith.remui
// ON: "tile.dot"
// ON-NEXT: "hopper.wgmma_wait"() {pending = 1 : i32}
// ON-NEXT: %[[SECOND:.*]] = arith.cmpi sgt, %[[K]], %[[LB]]
// ON-NEXT: "hopper.mbarrier_arrive"(%[[EMPTY]], %[[WR]], %[[SECOND]])
// ON: "hopper.wgmma_wait"() {pending = 0 : i32}
// CHECK-LABEL: func.func @f16(
// OFF-LABEL: func.func @f16(
// ON-LABEL: func.func @f16(
// MC-LABEL: func.func @f16(
func.func @f16(%x: tensor<128x3584xf16>, %w: tensor<3584x3584xf16> {tt.invariant}) -> tensor<128x3584xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<128x3584xf16>, tensor<3584x3584xf16>) -> tensor<128x3584xf16>
  return %y : tensor<128x3584xf16>
}

// -----

// With --tile's multicast (A shared by 2 column tiles): the `empty` mbarriers count one
// arrival per consumer warp of each block of the cluster (2 x 4), lane j of each warp
// arrives on block j's, and a cluster barrier follows the split (no block leaves while a
// peer may still write its slots or arrive on its mbarriers).
// MC-LABEL: func.func @fused_0_kernel
// MC-SAME: tile.multicast = 2
// MC: "hopper.mbarrier_alloc"() {arrivals = 8 : i32
// MC: "hopper.cluster_barrier"()
// MC: "hopper.producer_warp"
// MC: "hopper.tma_load"{{.*}}multicast = 2
// MC: } else {
// MC: "hopper.mbarrier_arrive"({{.*}}) {multicast = 2 : i32}
// MC: "tile.store"
// MC-NEXT: }
// MC-NEXT: "hopper.cluster_barrier"()
// MC-NEXT: return
// CHECK-LABEL: func.func @mc(
// OFF-LABEL: func.func @mc(
// ON-LABEL: func.func @mc(
// MC-LABEL: func.func @mc(
func.func @mc(%x: tensor<128x4096xf16>, %w: tensor<4096x4096xf16> {tt.invariant}) -> tensor<128x4096xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<128x4096xf16>, tensor<4096x4096xf16>) -> tensor<128x4096xf16>
  return %y : tensor<128x4096xf16>
}

// -----

// fp8 at M = 16: 16-row tiles, no producer by default.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: block-m=16
// CHECK-NOT: producer
// CHECK: return
// CHECK-LABEL: func.func @fp8_16(
// OFF-LABEL: func.func @fp8_16(
// ON-LABEL: func.func @fp8_16(
// MC-LABEL: func.func @fp8_16(
func.func @fp8_16(%x: tensor<16x4096xf8E4M3FN>, %w: tensor<4096x4096xf8E4M3FN> {tt.invariant}, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<16x4096xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<4096x4096xf8E4M3FN>) -> tensor<4096x4096xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<16x4096xf8E4M3FN>, tensor<4096x4096xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<16x4096xbf16>
  return %y : tensor<16x4096xbf16>
}

// -----

// fp8 64 x 14336 x 4096 on 64 x 112 tiles (wider than 96 columns): no producer by default.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: block-m=64 block-n=112
// CHECK-NOT: producer
// CHECK: return
// CHECK-LABEL: func.func @fp8_112(
// OFF-LABEL: func.func @fp8_112(
// ON-LABEL: func.func @fp8_112(
// MC-LABEL: func.func @fp8_112(
func.func @fp8_112(%x: tensor<64x4096xf8E4M3FN>, %w: tensor<14336x4096xf8E4M3FN> {tt.invariant}, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<64x14336xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<14336x4096xf8E4M3FN>) -> tensor<4096x14336xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<64x4096xf8E4M3FN>, tensor<4096x14336xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<64x14336xbf16>
  return %y : tensor<64x14336xbf16>
}

// -----

// fp8 64 x 1024 x 4096 sums its 4 K slices in a cluster (tile.cluster_reduce, whose
// cluster barriers every thread takes): no producer, even when asked for.
// ON-LABEL: func.func @fused_0_kernel
// ON-NOT: producer
// ON: "tile.cluster_reduce"
// ON-NOT: producer
// ON: return
// CHECK-LABEL: func.func @fp8_cluster(
// OFF-LABEL: func.func @fp8_cluster(
// ON-LABEL: func.func @fp8_cluster(
// MC-LABEL: func.func @fp8_cluster(
func.func @fp8_cluster(%x: tensor<64x4096xf8E4M3FN>, %w: tensor<1024x4096xf8E4M3FN> {tt.invariant}, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<64x1024xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<1024x4096xf8E4M3FN>) -> tensor<4096x1024xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<64x4096xf8E4M3FN>, tensor<4096x1024xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<64x1024xbf16>
  return %y : tensor<64x1024xbf16>
}

// -----

// --pdl on a warp-specialised kernel: every thread waits for the previous grid before the
// split; after the K loop (trigger after-loop: 96 programs, under 7/8 of the SMs) the
// consumers let the next grid start.
// PDL-LABEL: func.func @fused_0_kernel
// PDL-SAME: tile.pdl = "after-loop"
// PDL: "hopper.griddep_wait"()
// PDL-NEXT: "hopper.producer_warp"
// PDL: } else {
// PDL: scf.yield
// PDL-NEXT: }
// PDL-NEXT: "hopper.griddep_launch_dependents"()
// PDL-LABEL: func.func @fp8_pdl(
// CHECK-LABEL: func.func @fp8_pdl(
// OFF-LABEL: func.func @fp8_pdl(
// ON-LABEL: func.func @fp8_pdl(
// MC-LABEL: func.func @fp8_pdl(
func.func @fp8_pdl(%x: tensor<64x4096xf8E4M3FN>, %w: tensor<6144x4096xf8E4M3FN> {tt.invariant}, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<64x6144xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<6144x4096xf8E4M3FN>) -> tensor<4096x6144xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<64x4096xf8E4M3FN>, tensor<4096x6144xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<64x6144xbf16>
  return %y : tensor<64x6144xbf16>
}

// -----

// fp8 prefill 600 x 4096 x 4096 on tiles of rows fitted to M, 160 x 128 x 256 on 8 warps
// (4 row tiles): a producer warpgroup (tiles of 128 rows or more; fails on 128 alone), which
// gives its registers to the consumers (convert-tile-to-gpu: setmaxnreg); both consumer
// warpgroups (256 threads) arrive on `empty`.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: block-m=160 block-n=128 block-k=256 num-warps=8
// CHECK-SAME: tile.num_warps = 8 : i32, tile.producer_warps = 4 : i32
// CHECK: "hopper.mbarrier_alloc"() {arrivals = 256 : i32
// CHECK: "hopper.producer_warp"
// OFF-LABEL: func.func @fused_0_kernel
// OFF-NOT: producer
// OFF: return
// CHECK-LABEL: func.func @fp8_prefill(
// OFF-LABEL: func.func @fp8_prefill(
// ON-LABEL: func.func @fp8_prefill(
// MC-LABEL: func.func @fp8_prefill(
func.func @fp8_prefill(%x: tensor<600x4096xf8E4M3FN>, %w: tensor<4096x4096xf8E4M3FN> {tt.invariant}, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<600x4096xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<4096x4096xf8E4M3FN>) -> tensor<4096x4096xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<600x4096xf8E4M3FN>, tensor<4096x4096xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<600x4096xbf16>
  return %y : tensor<600x4096xbf16>
}

// -----

// The same tiles at one row tile (fp8 128 x 14336 x 4096 on 128 x 112, the weight read
// binds) and f16 prefill (its wgmma in flight): no producer by default.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: block-m=128 block-n=112 block-k=256 num-warps=8
// CHECK-NOT: producer
// CHECK: return
// CHECK-LABEL: func.func @fp8_one_row_tile(
// OFF-LABEL: func.func @fp8_one_row_tile(
// ON-LABEL: func.func @fp8_one_row_tile(
// MC-LABEL: func.func @fp8_one_row_tile(
func.func @fp8_one_row_tile(%x: tensor<128x4096xf8E4M3FN>, %w: tensor<14336x4096xf8E4M3FN> {tt.invariant}, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<128x14336xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<14336x4096xf8E4M3FN>) -> tensor<4096x14336xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<128x4096xf8E4M3FN>, tensor<4096x14336xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<128x14336xbf16>
  return %y : tensor<128x14336xbf16>
}

// -----

// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: block-m=160 block-n=128 block-k=128 num-warps=8
// CHECK-NOT: producer
// CHECK: return
// CHECK-LABEL: func.func @f16_prefill(
// OFF-LABEL: func.func @f16_prefill(
// ON-LABEL: func.func @f16_prefill(
// MC-LABEL: func.func @f16_prefill(
func.func @f16_prefill(%x: tensor<600x4096xf16>, %w: tensor<4096x4096xf16> {tt.invariant}) -> tensor<600x4096xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<4096x4096xf16>) -> tensor<4096x4096xf16>
  %y = "prim.matmul"(%x, %wt) : (tensor<600x4096xf16>, tensor<4096x4096xf16>) -> tensor<600x4096xf16>
  return %y : tensor<600x4096xf16>
}
