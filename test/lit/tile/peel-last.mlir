// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile=row-frame=0 | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile="peel-last=0 row-frame=0" | FileCheck %s --check-prefix=OFF
// RUN: awk '/^func.func @rms_norm_staged/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --mlir-print-debuginfo=false --decompose --fuse --tile=row-frame=0 --convert-tile-to-gpu | FileCheck %s --check-prefix=GPU
// RUN: tt-opt %s --split-input-file --decompose --fuse --tile --splitk -o %t.mlir
// RUN: awk '/^func.func @rms_norm_staged/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --decompose --fuse --tile --splitk | tt-translate --ptx -o %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// (row-frame=0: columns from the row's start; the aligned frame: row-frame.mlir.)
// --tile peel-last (default 1; rows.c, 4c): a staged row of an odd width (50257 bf16, 13 chunks of
// 4096 in shared memory) copies its 12 whole chunks under a constant mask and only the
// last one under `column < N`; each pass then runs the 12 whole chunks in a loop with no
// column mask, and the partial 13th in a loop of its own, the accumulators carried from
// the first loop into the second.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: %[[ON:.*]] = arith.constant dense<true> : tensor<4096xi1>
// CHECK: "tile.async_copy"(%arg0, %{{.*}}, %[[ON]], %{{.*}}, %c0_i32)
// CHECK-COUNT-11: "tile.async_copy"(%arg0, %{{.*}}, %cst_{{[0-9]+}},
// CHECK: %[[LAST:.*]] = arith.cmpi slt
// CHECK: "tile.async_copy"(%arg0, %{{.*}}, %[[LAST]], %{{.*}}, %c12_i32)
// CHECK: %[[WHOLE:.*]] = scf.for %{{.*}} = %c0_i32{{.*}} to %c49152_i32 step %c4096_i32
// CHECK-NOT: arith.cmpi
// CHECK: scf.yield
// CHECK: scf.for %{{.*}} = %c49152_i32 to %c53248_i32 step %c4096_i32{{.*}} iter_args(%{{.*}} = %[[WHOLE]])
// CHECK: arith.cmpi slt
// CHECK: scf.yield
// the output: whole chunks stored under a constant mask, then the last
// CHECK: scf.for %{{.*}} = %c0_i32{{.*}} to %c49152_i32
// CHECK: "tile.store"(%arg2, %{{.*}}, %{{.*}}, %cst_{{[0-9]+}})
// CHECK: scf.for %{{.*}} = %c49152_i32
// CHECK: %[[M:.*]] = arith.cmpi slt
// CHECK: "tile.store"(%arg2, %{{.*}}, %{{.*}}, %[[M]])
// Under peel-last=0, one loop a pass, every chunk masked.
// OFF-LABEL: func.func @fused_0_kernel
// OFF: scf.for %{{.*}} = %c0_i32{{.*}} to %c53248_i32 step %c4096_i32
// OFF: arith.cmpi slt
// OFF-NOT: scf.for %{{.*}} = %c49152_i32
// OFF-LABEL: func.func private @fused_0
// The copy of a whole chunk loads its lanes at lane 0's address plus 1 .. 7 elements:
// no select of an address or a value (the lowering's Lanes.allOn).
// GPU-LABEL: gpu.func @fused_0_kernel
// GPU: %[[P0:[0-9]+]] = llvm.getelementptr %arg0[%{{[0-9]+}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, bf16
// GPU-NEXT: llvm.load %[[P0]] : !llvm.ptr<1> -> bf16
// GPU-NOT: arith.select
// GPU: %[[P1:[0-9]+]] = llvm.getelementptr %[[P0]][%c1_i32{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, bf16
// GPU-NEXT: llvm.load %[[P1]] : !llvm.ptr<1> -> bf16
func.func @rms_norm_staged(%x: tensor<2048x50257xbf16>, %w: tensor<50257xbf16>) -> tensor<2048x50257xbf16> {
  %y = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32} : (tensor<2048x50257xbf16>, tensor<50257xbf16>) -> tensor<2048x50257xbf16>
  return %y : tensor<2048x50257xbf16>
}

// -----

// Few odd rows split over a cluster of 4 staged parts (3 x 70001): a part's whole steps
// end at its last column in the row, min(20480, N - first) rounded down to 4096, computed
// (the last part holds 8561 columns: 2 whole chunks).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: %[[LEFT:.*]] = arith.subi %c70001_i32{{.*}}, %{{.*}} : i32
// CHECK: %[[MIN:.*]] = arith.minsi %[[LEFT]], %c20480_i32{{.*}} : i32
// CHECK: %[[Q:.*]] = arith.divsi %[[MIN]], %c4096_i32{{.*}} : i32
// CHECK: %[[END:.*]] = arith.muli %[[Q]], %c4096_i32{{.*}} : i32
// CHECK: scf.for %{{.*}} = %c0_i32{{.*}} to %[[END]] step
// CHECK: scf.for %{{.*}} = %[[END]] to %c20480_i32
func.func @rms_norm_cluster(%x: tensor<3x70001xbf16>, %w: tensor<70001xbf16>) -> tensor<3x70001xbf16> {
  %y = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32} : (tensor<3x70001xbf16>, tensor<70001xbf16>) -> tensor<3x70001xbf16>
  return %y : tensor<3x70001xbf16>
}

// -----

// A row whose chunks tile it (65536 bf16, staged: 13 chunks in shared memory and 3 in
// registers): the slots' loop is whole steps only, one loop a pass, and no chunk takes a
// column mask.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: arith.cmpi
// CHECK: scf.for %{{.*}} = %c0_i32{{.*}} to %c53248_i32
// CHECK-NOT: arith.cmpi
// CHECK-LABEL: func.func private @fused_0
func.func @softmax_tiled(%x: tensor<256x65536xbf16>) -> tensor<256x65536xbf16> {
  %y = "prim.softmax"(%x) {dim = 1 : i64} : (tensor<256x65536xbf16>) -> tensor<256x65536xbf16>
  return %y : tensor<256x65536xbf16>
}

// -----

// A dynamic M (one row a program, M from the size argument): the same phases, each pass
// whole steps up to 49152 unmasked, then the last chunk masked.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: scf.for %{{.*}} = %c0_i32{{.*}} to %c49152_i32
// CHECK-NOT: arith.cmpi
// CHECK: scf.for %{{.*}} = %c49152_i32{{.*}} to %c53248_i32
// CHECK: arith.cmpi slt
func.func @softmax_dynamic(%x: tensor<?x50257xbf16>) -> tensor<?x50257xbf16> {
  %y = "prim.softmax"(%x) {dim = 1 : i64} : (tensor<?x50257xbf16>) -> tensor<?x50257xbf16>
  return %y : tensor<?x50257xbf16>
}
