// RUN: tt-opt %s --fuse --tile --mlir-print-debuginfo=false | FileCheck %s
// RUN: tt-opt %s --fuse --tile=bucket-split=0 --mlir-print-debuginfo=false | FileCheck %s --check-prefix=POW2
// A dynamic M's buckets (dot.c dotBuckets): 1-16, 17-32, ..., 1025 on, each tiled for its
// largest M, and split once where the rules' tile rows change inside it. At N = 4100 the
// static rules spread 64-row tiles over the SMs up to M = 384 (tmaSpread: 128-row tiles
// would leave SMs idle: 3 x 33 = 99 programs at M = 300) and take 128 x 128 from 385: the
// 257-512 bucket splits into 257-384 (64 x 96 tiles, tile rows from M at run time) and
// 385-512 (128 x 128: 4 tile rows for every M of it, a constant grid). The tuning key
// names each part by the M it is tiled for. A grid whose tile rows come from M at run time
// records `programs`, its size at the bucket's M (6 x 43 = 258 at 384), which --pipeline
// sizes the kernel's stages for as for a static grid (the open bucket's 544 programs of
// 128 x 256 past one wave: a 4th stage; counted as one program it had 3); a constant grid
// needs none.
// RUN: tt-opt %s --fuse --tile --pipeline=stage-in=auto --mlir-print-debuginfo=false | FileCheck %s --check-prefix=STAGES
// STAGES-LABEL: func.func @fused_0_m1025up_kernel
// STAGES-SAME: tile.num_stages = 4
// STAGES: func.func private @fused_0_m1025up
// STAGES-SAME: grid = ["cdiv(dim(%i1,0),128)*17", "1", "1"]
// STAGES-SAME: programs = 544
// CHECK-LABEL: func.func @fused_0_m384_kernel
// CHECK-SAME: tile.geometry = "block-m=64 block-n=96
// CHECK-SAME: tile.tune_key = "dot 1x?384x4100x1024 f16xf16 nk"
// CHECK: func.func private @fused_0_m384
// CHECK-SAME: grid = ["cdiv(dim(%i1,0),64)*43", "1", "1"]
// CHECK-SAME: programs = 258
// CHECK-SAME: when_range = array<i64: 257, 384>
// CHECK-SAME: tile.when = array<i64: 257, 384>
// CHECK-LABEL: func.func @fused_0_m512_kernel
// CHECK-SAME: tile.geometry = "block-m=128 block-n=128
// CHECK: func.func private @fused_0_m512
// CHECK-SAME: grid = ["132", "1", "1"]
// CHECK-NOT: programs
// CHECK-SAME: tile.when = array<i64: 385, 512>
// CHECK: func.func private @fused_0_m1024
// CHECK-SAME: tile.when = array<i64: 513, 1024>
// POW2-NOT: m384
// POW2-LABEL: func.func @fused_0_m512_kernel
// POW2-SAME: tile.geometry = "block-m=128 block-n=128
// POW2: func.func private @fused_0_m512
// POW2-SAME: grid = ["cdiv(dim(%i1,0),128)*33", "1", "1"]
// POW2-SAME: tile.when = array<i64: 257, 512>
func.func @linear(%x: tensor<?x1024xf16>, %w: tensor<4100x1024xf16>) -> tensor<?x4100xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<4100x1024xf16>) -> tensor<1024x4100xf16>
  %y = "prim.matmul"(%x, %wt) : (tensor<?x1024xf16>, tensor<1024x4100xf16>) -> tensor<?x4100xf16>
  return %y : tensor<?x4100xf16>
}
