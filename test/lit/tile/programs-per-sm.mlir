// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile | FileCheck %s
// RUN: awk '/^func.func @layer_norm/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --decompose --fuse --splitk | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// An on-chip row kernel asks for the programs an SM whose registers give each thread
// twice its row's f32 registers (geometry.c, ONCHIP_REG_SLACK): layer_norm 8192 x 8192,
// 64 elements a thread on 4 warps, one varying input: 65536 / (128 x 128) = 4 programs an
// SM (ptxas: 128 registers, not 162; H200 70.6 -> 66.8 us). The lowering asks ptxas for
// at least that many (nvvm.minctasm, .minnctapersm in the PTX).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 4 : i32
// CHECK-SAME: tile.programs_per_sm = 4 : i32
// PTX: .maxntid 128, 1, 1
// PTX-NEXT: .minnctapersm 4
func.func @layer_norm(%x: tensor<8192x8192xbf16>, %w: tensor<8192xbf16>,
                      %b: tensor<8192xbf16>) -> tensor<8192x8192xbf16> {
  %y = "prim.layer_norm"(%x, %w, %b) {eps = 1.0e-5 : f32}
      : (tensor<8192x8192xbf16>, tensor<8192xbf16>, tensor<8192xbf16>) -> tensor<8192x8192xbf16>
  return %y : tensor<8192x8192xbf16>
}

// -----

// Two inputs that vary by row (x and r) at 16384 columns: 64 elements a thread of each,
// 256 registers' worth: no count is asked (the lowering's own), and the row stays on chip
// (not staged: two inputs' loads cover the reductions, row-stage's rule).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: tile.programs_per_sm
// CHECK-NOT: tile.local_alloc
// CHECK: "tile.load"{{.*}} -> tensor<16384xbf16>
// CHECK-LABEL: func.func private @fused_0
func.func @residual_rms_norm(%x: tensor<4096x16384xbf16>, %r: tensor<4096x16384xbf16>,
                             %w: tensor<16384xbf16>) -> tensor<4096x16384xbf16> {
  %h = "prim.add"(%x, %r) : (tensor<4096x16384xbf16>, tensor<4096x16384xbf16>) -> tensor<4096x16384xbf16>
  %y = "prim.rms_norm"(%h, %w) {eps = 1.0e-6 : f32}
      : (tensor<4096x16384xbf16>, tensor<16384xbf16>) -> tensor<4096x16384xbf16>
  return %y : tensor<4096x16384xbf16>
}
