// Split-K with a bias on a tile that spans several register groups per thread (64x128 on
// 4 warps: 16 runs of 4 f32 each): only slice 0 adds the bias, through an arith.select
// whose condition (pid_k == 0) is one scalar for every group. The lowering used to read a
// missing group of that scalar and crash.
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=128 block-k=128 num-warps=4' --splitk='split-k=2' | FileCheck %s
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=128 block-k=128 num-warps=4' --splitk='split-k=2' | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=128 block-k=128 num-warps=4' --splitk='split-k=2' | tt-translate --ptx --arch=sm_80 -o %t80.ptx
// RUN: FileCheck %s --check-prefix=PTX80 < %t80.ptx
// The zero kernel through tt-opt down to gpu level (tt-translate then takes gpu.funcs: the
// launch's zero_kernel names one):
// RUN: tt-opt %s --decompose --fuse --tile='block-m=64 block-n=128 block-k=128 num-warps=4' --splitk='split-k=2' --pipeline --pdl --convert-tile-to-gpu | tt-translate --ptx | FileCheck %s --check-prefix=GPU
// GPU: //@launch fused_0_kernel_zero grid cdiv(numel(%3),1024) 1 1 block 128 1 1 shared 0 pdl
// GPU-NEXT: //@arg ptr %3

// CHECK: %[[K:.*]] = "tile.program_id"() {axis = 1 : i32}
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[K]]
// CHECK: arith.select %[[FIRST]]
// CHECK: "tile.atomic_add"
// sm_90a zeroes the result with a kernel (--pdl's, launched with pdl so the dot kernel
// starts beside it), sm_80 with a memset line.
// PTX: //@launch fused_0_kernel_zero grid cdiv(numel(%3),1024) 1 1 block 128 1 1 shared 0 pdl
// PTX: //@launch fused_0_kernel grid 32 2 1 block 128 1 1
// sm_90a adds each run of 8 halves with one red of four f16x2 words; sm_80 adds one half
// at a time.
// PTX: .version 8.1
// PTX: red.global.add.noftz.v4.f16x2
// PTX80: //@zero %3
// PTX80-NEXT: //@launch fused_0_kernel grid 32 2 1 block 128 1 1
// PTX80-NOT: red.global.add.noftz.v4
// PTX80: atom.global.add.noftz.f16
func.func @linear_bias(%x: tensor<200x4112xf16>, %w: tensor<1000x4112xf16>, %b: tensor<1000xf16>) -> tensor<200x1000xf16> {
  %y = "prim.linear"(%x, %w, %b) : (tensor<200x4112xf16>, tensor<1000x4112xf16>, tensor<1000xf16>) -> tensor<200x1000xf16>
  return %y : tensor<200x1000xf16>
}
