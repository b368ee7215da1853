// RUN: not tt-opt %s --decompose --fuse --tile='block-m=256 block-n=80 block-k=128 num-warps=2' --convert-tile-to-gpu='mma=wgmma' -o %t 2>&1 | FileCheck %s
// RUN: not test -e %t

// A user's tile too big for its warps: 256 x 80 on 2 warps runs mma.sync (no whole
// warpgroup) with 80 accumulator parts a thread, past a lowered value's 64. The K loop's
// accumulator start (lowered before the dot) reports it with the prim op's location (a
// fuzzer's find: it wrote past the parts array and aborted).
// CHECK: accumulator-parts.mlir:[[@LINE+2]]:8: error: convert-tile-to-gpu: a 256x80 tile.dot accumulator on 2 warps takes 80 register parts a thread; 1 to 64 are supported (more warps or a smaller tile)
func.func @matmul(%a: tensor<50x512xf16>, %b: tensor<512x400xf16>) -> tensor<50x400xf16> {
  %y = "prim.matmul"(%a, %b) : (tensor<50x512xf16>, tensor<512x400xf16>) -> tensor<50x400xf16>
  return %y : tensor<50x400xf16>
}
