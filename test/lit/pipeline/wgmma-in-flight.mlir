// --pipeline wgmma-in-flight (stage-in=tma, f16/bf16 dots): each step's tile.dot is
// followed by hopper.wgmma_wait {pending = 1}, so its wgmma still runs while the next step
// waits for its boxes; the refill of the slot the step before read (and the barrier that
// every warpgroup is done with it) moves after that wait, and a wait for all follows the
// loop. (fp8 dots: wgmma-in-flight-fp8.mlir.)
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=128 block-k=128' --splitk='split-k=1' --pipeline='num-stages=3 stage-in=tma wgmma-in-flight=1' | FileCheck %s
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=128 block-k=128' --splitk='split-k=1' --pipeline='num-stages=3 stage-in=tma wgmma-in-flight=1' --convert-tile-to-gpu='mma=wgmma' | FileCheck %s --check-prefix=GPU
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=128 block-k=128' --splitk='split-k=1' --pipeline='num-stages=3 stage-in=tma wgmma-in-flight=1' | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// ptxas keeps the accumulator in the wgmma's registers across steps (no serialization):
// RUN: %if ptxas %{ ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// The default (-1): in flight where one block fills an SM (rings past 113 KiB) and the
// tiles have 128 rows, or 64 on 4 or more stages (here 4 of 48 KiB); not on 3 stages of
// 64-row tiles, 16-row tiles, nor where two blocks share an SM.
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=128 block-k=128' --splitk='split-k=1' --pipeline='num-stages=4 stage-in=tma' | FileCheck %s --check-prefix=AUTO
// RUN: tt-opt %s --decompose --fuse --tile='block-m=128 block-n=64 block-k=128' --splitk='split-k=1' --pipeline='num-stages=3 stage-in=tma' | FileCheck %s --check-prefix=AUTO
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=128 block-k=128' --splitk='split-k=1' --pipeline='num-stages=3 stage-in=tma' | FileCheck %s --check-prefix=OFF
// RUN: tt-opt %s --decompose --fuse --tile='block-m=16 block-k=128' --splitk='split-k=1' --pipeline='num-stages=3 stage-in=tma' | FileCheck %s --check-prefix=OFF
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=64 block-k=64' --splitk='split-k=1' --pipeline='num-stages=3 stage-in=tma' | FileCheck %s --check-prefix=OFF
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=128 block-k=128' --splitk='split-k=1' --pipeline='num-stages=3 stage-in=tma wgmma-in-flight=0' | FileCheck %s --check-prefix=OFF
// RUN: not tt-opt %s --pipeline='wgmma-in-flight=2' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: option 'wgmma-in-flight' of pass 'pipeline' is 2, out of range [-1, 1]

// CHECK-LABEL: func.func @fused_0_kernel(
// CHECK: %[[RA:.*]] = "tile.local_alloc"() : () -> memref<3x64x128xf16, 3>
// CHECK: %[[RB:.*]] = "tile.local_alloc"() : () -> memref<3x128x128xf16, 3>
// CHECK: scf.for
// CHECK: %[[RD:.*]] = arith.remui %{{.*}}, %c3_i32
// CHECK: %[[WR:.*]] = arith.remui %{{.*}}, %c3_i32
// CHECK-NOT: "tile.barrier"
// CHECK: "hopper.mbarrier_wait"(%{{.*}}, %[[RD]]
// CHECK: "hopper.mbarrier_wait"(%{{.*}}, %[[RD]]
// CHECK: "tile.dot"
// CHECK-NEXT: "hopper.wgmma_wait"() {pending = 1 : i32}
// CHECK-NEXT: "tile.barrier"()
// CHECK: "hopper.tma_load"(%{{.*}}, %[[RA]], %[[WR]]
// CHECK: "hopper.tma_load"(%{{.*}}, %[[RB]], %[[WR]]
// CHECK-NEXT: scf.yield
// CHECK: "hopper.wgmma_wait"() {pending = 0 : i32}
// CHECK-NEXT: "tile.async_wait"() {pending = 0 : i32}
// CHECK: "tile.store"

// GPU-LABEL: gpu.func @fused_0_kernel(
// GPU: scf.for
// GPU-COUNT-16: nvvm.wgmma.mma_async
// GPU-NEXT: nvvm.wgmma.commit.group.sync.aligned
// GPU-NOT: nvvm.wgmma.wait.group.sync.aligned 0
// GPU: nvvm.wgmma.wait.group.sync.aligned 1
// GPU-NEXT: gpu.barrier
// GPU: nvvm.cp.async.bulk.tensor.shared.cluster.global
// GPU: scf.yield
// GPU: nvvm.wgmma.wait.group.sync.aligned 0

// PTX: wgmma.commit_group.sync.aligned;
// PTX-NEXT: wgmma.wait_group.sync.aligned 1;
// PTX-NEXT: bar.sync 0;
// PTX: wgmma.wait_group.sync.aligned 0;
// PTXAS-NOT: serialized
// PTXAS: Compiling entry function 'fused_0_kernel'
// PTXAS-NOT: serialized

// AUTO: "hopper.wgmma_wait"() {pending = 1 : i32}
// AUTO: "hopper.wgmma_wait"() {pending = 0 : i32}
// OFF-NOT: hopper.wgmma_wait
func.func @linear(%x: tensor<64x1024xf16>, %w: tensor<256x1024xf16>) -> tensor<64x256xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<64x1024xf16>, tensor<256x1024xf16>) -> tensor<64x256xf16>
  return %y : tensor<64x256xf16>
}
