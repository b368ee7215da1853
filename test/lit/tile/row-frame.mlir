// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile=row-frame=0 | FileCheck %s --check-prefix=OFF
// RUN: awk '/^func.func @rms_norm_staged/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --mlir-print-debuginfo=false --decompose --fuse --tile=row-frame=1 --convert-tile-to-gpu | FileCheck %s --check-prefix=GPU
// RUN: awk '/^func.func @softmax_staged/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --mlir-print-debuginfo=false --decompose --fuse --tile=row-frame=1 --convert-tile-to-gpu | FileCheck %s --check-prefix=COPY
// RUN: awk '/^func.func @softmax_staged/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --mlir-print-debuginfo=false --decompose --fuse --tile=stage-odd=0 | FileCheck %s --check-prefix=LOOPED
// RUN: awk '/^func.func @softmax_staged/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --mlir-print-debuginfo=false --decompose --fuse --tile=stage-odd=0 --convert-tile-to-gpu | FileCheck %s --check-prefix=EARLY
// RUN: awk '/^func.func @layer_norm_rows/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --mlir-print-debuginfo=false --decompose --fuse --tile='row-frame=1 stage-odd=0' | FileCheck %s --check-prefix=WELF
// RUN: tt-opt %s --split-input-file --decompose --fuse --tile=row-frame=1 --splitk -o %t.mlir
// RUN: awk '/^func.func @softmax_staged/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --decompose --fuse --tile=row-frame=1 --splitk | tt-translate --ptx -o %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// --tile row-frame (default 1; rows.c, 3a): a staged row of an odd width (50257 bf16: row r
// starts at element 50257 r, on no 16-byte boundary) is computed in the aligned frame:
// its columns count from base = start & -8 (8 bf16: 16 bytes), the s = start & 7
// before the row masked off (s <= column < N + s), so x's copy and the output's stores
// are aligned runs; the weight is read at the row's own columns (column - s). The whole
// steps of the output loop (peel-last) store under a constant mask.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: %[[START:.*]] = arith.muli %{{.*}}, %c50257_i32
// CHECK: %[[BASE:.*]] = arith.andi %[[START]], %c-8_i32 : i32
// CHECK: %[[S:.*]] = arith.andi %[[START]], %c7_i32 : i32
// CHECK: %[[BASES:.*]] = "tile.splat"(%[[BASE]])
// CHECK: %[[OFFS:.*]] = arith.addi %[[BASES]], %[[R:.*]] : tensor<4096xi32>
// CHECK: %[[END:.*]] = arith.addi %[[S]], %c50257_i32{{.*}} : i32
// CHECK: %[[ENDS:.*]] = "tile.splat"(%[[END]])
// CHECK: %[[HI:.*]] = arith.cmpi slt, %[[R]], %[[ENDS]]
// CHECK: %[[SS:.*]] = "tile.splat"(%[[S]])
// CHECK: %[[LO:.*]] = arith.cmpi sge, %[[R]], %[[SS]]
// CHECK: arith.andi %[[LO]], %[[HI]]
// the copy reads the s columns before the row too (inside the tensor; masked where used)
// CHECK: "tile.async_copy"(%arg0, %[[OFFS]], %[[HI]]
// the output loop's whole steps: the weight at column - s, the store at base + column
// CHECK: scf.for %{{.*}} = %c4096_i32{{.*}} to %{{.*}} step %c4096_i32
// CHECK: scf.for %{{.*}} = %c4096_i32{{.*}} to %{{.*}} step %c4096_i32
// CHECK: %[[COLS:.*]] = arith.addi %{{.*}}, %[[R]] : tensor<4096xi32>
// CHECK: %[[NEG:.*]] = arith.subi %c0_i32{{.*}}, %{{.*}} : i32
// CHECK: %[[NEGS:.*]] = "tile.splat"(%[[NEG]])
// CHECK: %[[COL:.*]] = arith.addi %[[COLS]], %[[NEGS]]
// CHECK: "tile.load"(%arg1, %[[COL]], %[[ON:cst_[0-9]+]]
// CHECK: %[[B:.*]] = arith.andi %{{.*}}, %c-8_i32{{.*}} : i32
// CHECK: %[[BS:.*]] = "tile.splat"(%[[B]])
// CHECK: %[[O:.*]] = arith.addi %[[BS]], %[[COLS]]
// CHECK: "tile.store"(%arg2, %[[O]], %{{.*}}, %[[ON]])
// Under row-frame=0 the columns count from the row's start.
// OFF-LABEL: func.func @fused_0_kernel
// OFF-NOT: arith.andi %{{.*}}, %c-8_i32
// OFF: arith.cmpi slt
// OFF-LABEL: func.func private @fused_0
// The lowering writes the row in 16-byte vectors (axis facts: base is a multiple of 8,
// the and of two compares all on from lanes 0 and 7), each group that straddles the
// row's ends lane by lane; the weight is read element by element.
// GPU-LABEL: gpu.func @fused_0_kernel
// GPU: llvm.load %{{[0-9]+}} {alignment = 2 : i64} : !llvm.ptr<1> -> bf16
// GPU: llvm.store %{{[0-9]+}}, %{{[0-9]+}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<1>
func.func @rms_norm_staged(%x: tensor<2048x50257xbf16>, %w: tensor<50257xbf16>) -> tensor<2048x50257xbf16> {
  %y = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32} : (tensor<2048x50257xbf16>, tensor<50257xbf16>) -> tensor<2048x50257xbf16>
  return %y : tensor<2048x50257xbf16>
}

// -----

// softmax: the copy of frame chunk 0 is masked at N + s only (it reads the s columns
// before the row too), chunks 1-11 are whole (a constant mask), chunk 12 masked at N + s; each pass runs three loops
// (peel-last): the first step masked (it holds the s columns before the row), the whole
// steps from 4096 to (N + s) / 4096 * 4096, then the rest masked.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: arith.andi %{{.*}}, %c-8_i32 : i32
// CHECK: %[[M0:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<4096xi32>
// CHECK: "tile.async_copy"(%arg0, %{{.*}}, %[[M0]], %{{.*}}, %c0_i32{{.*}})
// CHECK: "tile.async_copy"(%arg0, %{{.*}}, %cst{{.*}}, %{{.*}}, %c1_i32)
// CHECK: arith.andi %{{.*}}, %c7_i32{{.*}} : i32
// CHECK: arith.minsi %{{.*}}, %c53248_i32
// CHECK: %[[Q:.*]] = arith.divsi %{{.*}}, %c4096_i32
// CHECK: %[[F0:.*]] = arith.muli %[[Q]], %c4096_i32
// CHECK: %[[F:.*]] = arith.maxsi %[[F0]], %c4096_i32
// CHECK: %[[A:.*]] = scf.for %{{.*}} = %c0_i32{{.*}} to %c4096_i32 step
// CHECK: arith.cmpi sge
// CHECK: %[[B:.*]] = scf.for %{{.*}} = %c4096_i32 to %[[F]] step %{{.*}} iter_args(%{{.*}} = %[[A]])
// CHECK-NOT: arith.cmpi
// CHECK: scf.yield
// CHECK: scf.for %{{.*}} = %[[F]] to %c53248_i32 step %{{.*}} iter_args(%{{.*}} = %[[B]])
// CHECK: arith.cmpi sge
// The copies are cp.async of 16 bytes (chunk 0's and 12's under the guard of lanes 0
// and 7, their straddling groups lane by lane).
// COPY-LABEL: gpu.func @fused_0_kernel
// COPY-COUNT-13: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// Looped (stage-odd=0), a masked chunk's loads read under column < N + s and are marked
// tile.early; whole chunks' loads are not masked. The lowering issues an early load's
// 16-byte vector before the branch of a group whose lanes are not all on (load-store.c,
// 1''): the vector load, then the guard (lane 7 < N + s), then the branch.
// LOOPED-LABEL: func.func @fused_0_kernel
// LOOPED: %[[HI:.*]] = arith.cmpi slt
// LOOPED: "tile.load"(%arg0, %{{.*}}, %[[HI]], %{{.*}}) {tile.early}
// EARLY-LABEL: gpu.func @fused_0_kernel
// EARLY: %[[V:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xbf16>
// EARLY-NEXT: %[[IF:.*]] = scf.if %{{.*}} -> (vector<8xbf16>) {
// EARLY-NEXT: scf.yield %[[V]] : vector<8xbf16>
func.func @softmax_staged(%x: tensor<2048x50257xbf16>) -> tensor<2048x50257xbf16> {
  %y = "prim.softmax"(%x) {dim = 1 : i64} : (tensor<2048x50257xbf16>) -> tensor<2048x50257xbf16>
  return %y : tensor<2048x50257xbf16>
}

// -----

// On chip (4097 columns in a block of 8192) the frame is taken for a row of no weights:
// its load mask has a static bound at the frame's span, N + 7, under which LLVM folds
// the groups wholly past it.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: %[[BASE:.*]] = arith.andi %{{.*}}, %c-8_i32 : i32
// CHECK: %[[LT:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<8192xi32>
// CHECK: %[[SPAN:.*]] = arith.cmpi slt, %{{.*}}, %cst{{.*}} : tensor<8192xi32>
// CHECK: %[[LOAD:.*]] = arith.andi %[[SPAN]], %[[LT]] : tensor<8192xi1>
// CHECK: "tile.load"(%arg0, %{{.*}}, %[[LOAD]], %{{.*}}) {tile.early}
// OFF-LABEL: func.func @fused_0_kernel
// OFF-NOT: arith.andi %{{.*}}, %c-8_i32
// OFF: "tile.store"
func.func @softmax_on_chip(%x: tensor<4096x4097xbf16>) -> tensor<4096x4097xbf16> {
  %y = "prim.softmax"(%x) {dim = 1 : i64} : (tensor<4096x4097xbf16>) -> tensor<4096x4097xbf16>
  return %y : tensor<4096x4097xbf16>
}

// -----

// On chip with a weight (rms_norm) it is not: the frame would read the weight lane by
// lane, off alignment, in every row.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: arith.andi %{{.*}}, %c-8_i32
// CHECK: "tile.store"
func.func @rms_norm_on_chip(%x: tensor<4096x4097xbf16>, %w: tensor<4097xbf16>) -> tensor<4096x4097xbf16> {
  %y = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32} : (tensor<4096x4097xbf16>, tensor<4097xbf16>) -> tensor<4096x4097xbf16>
  return %y : tensor<4096x4097xbf16>
}

// -----

// layer_norm reads two weights at the row's own columns against one input and one
// output: the frame would put as many accesses off alignment as it aligns, and is not
// taken, staged or looped (where a variance pair's one loop, welford.c, counts a lane's
// elements as a prefix of the chunks, which the masked head would break).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: arith.andi %{{.*}}, %c-8_i32
// CHECK: "tile.store"
// WELF-LABEL: func.func @fused_0_kernel
// WELF-NOT: arith.andi %{{.*}}, %c-8_i32
// WELF: scf.for
func.func @layer_norm_rows(%x: tensor<1000x70001xbf16>, %w: tensor<70001xbf16>, %b: tensor<70001xbf16>) -> tensor<1000x70001xbf16> {
  %y = "prim.layer_norm"(%x, %w, %b) {eps = 1.0e-5 : f32} : (tensor<1000x70001xbf16>, tensor<70001xbf16>, tensor<70001xbf16>) -> tensor<1000x70001xbf16>
  return %y : tensor<1000x70001xbf16>
}
