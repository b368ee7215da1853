// --splitk records its choice on each dot kernel (tile.split_k, 1 where it does not split),
// and tt-translate, which runs --splitk again while any fused function is untiled (here
// the weight's K pad: K = 4100 is padded to 4160; x's is read in place), keeps it: split-k=1 stays unsplit (no
// zero kernel, one slice), and the default's split stays as it was.
// RUN: tt-opt %s --decompose --fuse --splitk='split-k=1' | FileCheck %s --check-prefix=OPT
// RUN: tt-opt %s --decompose --fuse --splitk='split-k=1' | tt-translate --ptx | FileCheck %s --check-prefix=ONE
// RUN: tt-opt %s --decompose --fuse --splitk='split-k=2' | tt-translate --ptx | FileCheck %s --check-prefix=TWO
// OPT: func.func @fused_1_kernel{{.*}}tile.split_k = 1
// OPT: grid = ["4", "1", "1"]
// ONE-NOT: _zero
// ONE: //@launch fused_1_kernel grid 4 1 1
// ONE-NOT: _zero
// TWO: //@launch fused_1_kernel_zero
// TWO: //@launch fused_1_kernel grid 4 2 1
func.func @linear(%x: tensor<64x4100xf16>, %w: tensor<256x4100xf16> {tt.invariant}) -> tensor<64x256xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<64x4100xf16>, tensor<256x4100xf16>) -> tensor<64x256xf16>
  return %y : tensor<64x256xf16>
}
