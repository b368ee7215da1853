// --pipeline stage-in=auto (tt-translate's choice for sm_90a): the TMA form where the
// K loop qualifies (operand boxes of 2-D f16/bf16 matrices, a dot warpgroup MMA can run),
// else 2 stages in registers, without an error. With num-stages=0 the TMA stages are the
// most of 2-4 that fit; on a grid of more than one wave (132 programs) 3 where they let two
// blocks share an SM (228 KiB), else at most 3.
// 128 x 8192 on 64x64x128 tiles: 256 programs, 32 KiB slots: 3 stages (96 KiB).
// RUN: tt-opt %s --decompose --fuse --tile='block-n=64' --splitk --pipeline='stage-in=auto' | FileCheck %s --check-prefix=TWO
// 32x128x64 tiles, 20 KiB slots: 4 stages would fit two blocks too; still 3.
// RUN: tt-opt %s --decompose --fuse --tile='block-m=32 block-n=128 block-k=64' --splitk --pipeline='stage-in=auto' | FileCheck %s --check-prefix=SMALL
// 8 warps on 64 columns do not fit warpgroup MMA: registers.
// RUN: tt-opt %s --decompose --fuse --tile='num-warps=8 block-n=64' --splitk --pipeline='stage-in=auto' | FileCheck %s --check-prefix=REG
// 64x128x128 tiles (48 KiB slots): split-k=2 makes 256 programs; two blocks would hold
// 2 stages only: one block, 3 stages; with one wave (128 programs), 4. 128x64x128 tiles
// (48 KiB too) have their wgmma in flight (the default for one block of 128-row tiles),
// and past one wave get a 4th stage for the slot it holds.
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=128' --splitk='split-k=2' --pipeline='stage-in=auto' | FileCheck %s --check-prefix=ONE
// RUN: tt-opt %s --decompose --fuse --tile='block-m=128 block-n=64' --splitk='split-k=2' --pipeline='stage-in=auto' | FileCheck %s --check-prefix=ONEF
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=128' --splitk='split-k=1' --pipeline='stage-in=auto' | FileCheck %s --check-prefix=WAVE
// A given num-stages the rings do not fit takes the most that do (not the registers
// form): 4 slots of 128x128x128 (64 KiB each) do not fit, 3 do.
// RUN: tt-opt %s --decompose --fuse --tile='block-m=128 block-n=128 block-k=128' --splitk='split-k=1' --pipeline='stage-in=auto num-stages=4' | FileCheck %s --check-prefix=CAP
// CAP: tile.num_stages = 3
// CAP: "tile.local_alloc"() : () -> memref<3x128x128xf16, 3>
// CAP: "hopper.tma_load"
// A grid filling under 7/8 of the SMs (64 programs of 64x256x64, 40 KiB slots): 3, not 4.
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=256 block-k=64 num-warps=8' --splitk='split-k=1' --pipeline='stage-in=auto' | FileCheck %s --check-prefix=FEW
// tt-translate: TMA on sm_90a (metadata format 3, tensor maps); on sm_80 mma.sync with
// the operands in registers, the 128x128x128 staging (past 48 KiB) in dynamic shared
// memory.
// RUN: tt-opt %s --decompose --fuse --splitk | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=SM90 < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// RUN: tt-opt %s --decompose --fuse --tile='block-m=128 block-n=128 block-k=128' --splitk='split-k=1' | tt-translate --ptx --arch=sm_80 -o %t80.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t80.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_80 %t80.ptx -o %t80.cubin %}

// TWO: tile.num_stages = 3
// TWO: "tile.local_alloc"() : () -> memref<3x64x128xf16, 3>
// TWO: "hopper.tma_load"
// SMALL: tile.num_stages = 3
// SMALL: "tile.local_alloc"() : () -> memref<3x32x64xf16, 3>
// REG: tile.num_stages = 2
// REG-NOT: hopper.tma_load
// REG: scf.for {{.*}} iter_args
// REG-NOT: hopper.tma_load
// ONE: tile.num_stages = 3
// ONE: "tile.local_alloc"() : () -> memref<3x64x128xf16, 3>
// ONE: "tile.local_alloc"() : () -> memref<3x128x128xf16, 3>
// ONE-NOT: hopper.wgmma_wait
// ONEF: tile.num_stages = 4
// ONEF: "tile.local_alloc"() : () -> memref<4x128x128xf16, 3>
// ONEF: "tile.local_alloc"() : () -> memref<4x64x128xf16, 3>
// ONEF: "hopper.wgmma_wait"() {pending = 1 : i32}
// FEW: tile.num_stages = 3
// FEW: "tile.local_alloc"() : () -> memref<3x64x64xf16, 3>
// WAVE: tile.num_stages = 4
// WAVE: "tile.local_alloc"() : () -> memref<4x64x128xf16, 3>
// SM90: //@tt-meta 5 arch sm_90a
// SM90: //@launch fused_0_kernel grid 256 1 1 block 128 1 1 shared {{[1-9][0-9]*}}
// SM90: //@arg tma %0 128x8192 box 64x64
// SM90: //@arg tma %1 8192x8192 box 64x64
// SM90: cp.async.bulk.tensor.2d
// SM90: wgmma.mma_async
// SM80: //@tt-meta 1 arch sm_80
// SM80: //@launch fused_0_kernel grid 64 1 1 block 128 1 1 shared {{[1-9][0-9]*}}
// SM80-NOT: //@arg tma
// SM80: .extern .shared .align 1024 .b8
// SM80-NOT: cp.async.bulk
// SM80: mma.sync.aligned.m16n8k16
func.func @m128(%x: tensor<128x8192xf16>, %w: tensor<8192x8192xf16>) -> tensor<128x8192xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<128x8192xf16>, tensor<8192x8192xf16>) -> tensor<128x8192xf16>
  return %y : tensor<128x8192xf16>
}
