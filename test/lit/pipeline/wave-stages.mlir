// --pipeline's option wave-stages (forms.c, threeBlocksCutWave): past one wave, on a grid of
// static size, 2 stages where their rings let three blocks share an SM and three blocks an
// SM make fewer waves than the two blocks of 3 stages. f16 1024 x 6144 x 4096 on
// 128 x 128 x 64 tiles: 384 programs, 2 waves at two blocks an SM (264 slots), 1 at three
// (396): 2 stages. 1024 x 4096 x 4096 on the same tiles: 256 programs, 1 wave either way:
// 3 stages, as with the option off (0). The default is 1.
// RUN: tt-opt %s --split-input-file --decompose --fuse --splitk --pipeline='stage-in=auto wave-stages=1' --mlir-print-debuginfo=false | FileCheck %s
// RUN: tt-opt %s --split-input-file --decompose --fuse --splitk --pipeline='stage-in=auto' --mlir-print-debuginfo=false | FileCheck %s
// RUN: tt-opt %s --split-input-file --decompose --fuse --splitk --pipeline='stage-in=auto wave-stages=0' --mlir-print-debuginfo=false | FileCheck %s --check-prefix=OFF
// The option is 0 or 1; anything else is refused before the pass runs, with no output.
// RUN: rm -f %t.bad
// RUN: not tt-opt %s --split-input-file --decompose --fuse --splitk --pipeline='stage-in=auto wave-stages=2' -o %t.bad 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not test -e %t.bad
// BAD: error: option 'wave-stages' of pass 'pipeline' is 2, out of range [0, 1]

// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=128 block-n=128 block-k=64
// CHECK-SAME: tile.num_stages = 2
// OFF-LABEL: func.func @fused_0_kernel
// OFF-SAME: tile.num_stages = 3
func.func @cut(%x: tensor<1024x4096xf16>, %w: tensor<6144x4096xf16>) -> tensor<1024x6144xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<1024x4096xf16>, tensor<6144x4096xf16>) -> tensor<1024x6144xf16>
  return %y : tensor<1024x6144xf16>
}

// -----

// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=128 block-n=128 block-k=64
// CHECK-SAME: tile.num_stages = 3
// OFF-LABEL: func.func @fused_0_kernel
// OFF-SAME: tile.num_stages = 3
func.func @same_waves(%x: tensor<1024x4096xf16>, %w: tensor<4096x4096xf16>) -> tensor<1024x4096xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<1024x4096xf16>, tensor<4096x4096xf16>) -> tensor<1024x4096xf16>
  return %y : tensor<1024x4096xf16>
}
