// --pipeline stage-in=tma (sm_90a): each operand box of the K loop is copied by TMA into a
// ring of S 128-byte-swizzled shared-memory slots, completing on one mbarrier per slot;
// the step waits on the mbarriers of its slot (phase = (i / S) % 2) and wgmma reads the
// slot in place. The descriptors are kernel arguments that tile.launch names; the
// metadata asks the runtime for the tensor maps and the dynamic shared memory.
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile='block-k=128' --splitk='split-k=1' --pipeline='num-stages=3 stage-in=tma' | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile='block-k=128' --splitk='split-k=1' --pipeline='num-stages=3 stage-in=tma' --convert-tile-to-gpu='mma=wgmma' | FileCheck %s --check-prefix=GPU
// RUN: tt-opt %s --decompose --fuse --tile='block-k=128' --splitk='split-k=1' --pipeline='num-stages=3 stage-in=tma' | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// RUN: tt-run --ref-only --dump-meta --seed 1 %t.ptx | FileCheck %s --check-prefix=RT
// num-stages=0: the most of 2..4 whose rings fit 225 KiB, at most 3 on a grid that fills
// under 3/4 of the SMs (4 programs here: 3 x 20 KiB).
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile='block-k=128' --splitk='split-k=1' --pipeline='stage-in=tma' | FileCheck %s --check-prefix=AUTO
// RUN: not tt-opt %s --decompose --fuse --tile='block-k=128' --splitk='split-k=1' --pipeline='num-stages=3 stage-in=tma' --convert-tile-to-gpu 2>&1 | FileCheck %s --check-prefix=SYNC

// CHECK-LABEL: func.func @fused_0_kernel(
// CHECK-SAME: %[[DA:arg3]]: !hopper.tma_desc, %[[DB:arg4]]: !hopper.tma_desc) attributes {{{.*}}tile.num_stages = 3
// CHECK: %[[RA:.*]] = "tile.local_alloc"() : () -> memref<3x16x128xf16, 3>
// CHECK: %[[BA:.*]] = "hopper.mbarrier_alloc"() {count = 3 : i32} : () -> !hopper.mbarrier
// CHECK: %[[RB:.*]] = "tile.local_alloc"() : () -> memref<3x64x128xf16, 3>
// CHECK: %[[BB:.*]] = "hopper.mbarrier_alloc"() {count = 3 : i32}
// prologue: slots 0 and 1, each box predicated on k < K
// CHECK: "hopper.tma_load"(%[[DA]], %[[RA]], %c0_i32{{.*}}, %[[BA]], %{{.*}}, %{{.*}}) {dims = array<i64: 16, 1024>}
// CHECK: "hopper.tma_load"(%[[DB]], %[[RB]], %c0_i32{{.*}}, %[[BB]], %{{.*}}, %{{.*}}) {dims = array<i64: 256, 1024>}
// CHECK: "hopper.tma_load"(%[[DA]], %[[RA]], %c1_i32
// CHECK: "hopper.tma_load"(%[[DB]], %[[RB]], %c1_i32
// CHECK: scf.for %[[K:.*]] = %c0_i32 to %c1024_i32 step %c128_i32
// CHECK: %[[I:.*]] = arith.divui
// CHECK: %[[RD:.*]] = arith.remui %[[I]], %c3_i32
// CHECK: %[[WR:.*]] = arith.remui %{{.*}}, %c3_i32
// CHECK: "tile.barrier"()
// CHECK: %[[ROUND:.*]] = arith.divui %[[I]], %c3_i32
// CHECK: %[[PHASE:.*]] = arith.remui %[[ROUND]], %c2_i32
// CHECK: "hopper.tma_load"(%[[DA]], %[[RA]], %[[WR]], %[[BA]]
// CHECK: "hopper.tma_load"(%[[DB]], %[[RB]], %[[WR]], %[[BB]]
// CHECK: "hopper.mbarrier_wait"(%[[BA]], %[[RD]], %[[PHASE]])
// CHECK: "hopper.mbarrier_wait"(%[[BB]], %[[RD]], %[[PHASE]])
// CHECK: %[[SA:.*]] = "tile.local_load"(%[[RA]], %[[RD]])
// CHECK: %[[SB:.*]] = "tile.local_load"(%[[RB]], %[[RD]])
// CHECK: "tile.trans"(%[[SB]])
// CHECK: "tile.dot"(%[[SA]], {{.*}}) {mma = "wgmma"}
// CHECK-NOT: "tile.load"
// CHECK: "tile.async_wait"() {pending = 0 : i32}
// CHECK: tile.launch = {args = [], grid = ["4", "1", "1"], kernel = @fused_0_kernel, tma = [array<i64: 1, 16, 1024, 16, 64>, array<i64: 0, 256, 1024, 64, 64>]}
// AUTO: tile.num_stages = 3
// AUTO: memref<3x16x128xf16, 3>

// The lowering: the buffer is dynamic shared memory (its size on the gpu.func), the
// mbarriers shared globals; thread 0 arms an mbarrier with the box bytes and copies 64
// columns per cp.async.bulk.tensor; every thread waits on the parity; wgmma reads the slots.
// GPU: llvm.mlir.global external @__tt_smem_fused_0_kernel() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// GPU: llvm.mlir.global internal @__tt_smem_fused_0_kernel_mbar0() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<24 x i8>
// The tensor maps are 128-byte kernel parameters passed by value (__grid_constant__: the
// kernel reads them in place, no fence); thread 0 prefetches them first.
// GPU: gpu.func @fused_0_kernel({{.*}}%arg3: !llvm.ptr, %arg4: !llvm.ptr) kernel attributes {{{.*}}tt.dynamic_shared = 62464 : i32, tt.llvm_arg_attrs = [{}, {}, {}, {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}]}
// GPU: nvvm.prefetch tensormap in_param_space, %arg3
// GPU: nvvm.prefetch tensormap in_param_space, %arg4
// GPU: nvvm.mbarrier.init
// GPU: nvvm.fence.mbarrier.init
// GPU: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c4096_i32
// GPU: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg3, %{{.*}}, box[%{{.*}}, %{{.*}}]
// GPU: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg3, %{{.*}}, box[%{{.*}}, %{{.*}}]
// GPU: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384_i32
// GPU: scf.for
// GPU: gpu.barrier
// GPU: nvvm.mbarrier.try_wait.parity
// GPU: nvvm.mbarrier.try_wait.parity
// GPU-NOT: nvvm.fence.proxy
// GPU: nvvm.wgmma.fence.aligned
// GPU-COUNT-8: nvvm.wgmma.mma_async

// PTX: //@tt-meta 5 arch sm_90a
// PTX: //@launch fused_0_kernel grid 4 1 1 block 128 1 1 shared 62464 pdl
// PTX-NEXT: //@arg ptr %1
// PTX-NEXT: //@arg ptr %0
// PTX-NEXT: //@arg ptr %2
// PTX-NEXT: //@arg tma %0 16x1024 box 16x64
// PTX-NEXT: //@arg tma %1 256x1024 box 64x64
// PTX: .version 8.1
// PTX: .extern .shared .align 1024 .b8 __tt_smem_fused_0_kernel[];
// PTX: .param .align 64 .b8 fused_0_kernel_param_3[128],
// PTX-NEXT: .param .align 64 .b8 fused_0_kernel_param_4[128]
// PTX-NOT: fence.proxy.tensormap
// PTX: prefetch.param.tensormap
// PTX: mbarrier.init.shared.b64
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX: wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16
// RT: tt-meta 5 arch sm_90a
// RT: arg tma %0 16x1024 box 16x64
// RT: output %2 f16 16x256: sum

// SYNC: error: convert-tile-to-gpu: a tile.dot reading TMA slots (128-byte swizzled) runs only on wgmma: mma=wgmma (sm_90a) and a tile that fits it (whole warpgroups, N a multiple of 64 per warpgroup and M of 8 up to 256, or M 64 per warpgroup, N of 8 up to 256 and B read transposed from [N, K]; K of 64)
func.func @linear(%x: tensor<16x1024xf16>, %w: tensor<256x1024xf16>) -> tensor<16x256xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x1024xf16>, tensor<256x1024xf16>) -> tensor<16x256xf16>
  return %y : tensor<16x256xf16>
}
