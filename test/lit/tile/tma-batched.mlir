// --tile=tma-batched=1 (the default): batched (3-D) matmuls on TMA boxes. Each operand is viewed as its
// batches' rows stacked (tile.box = [B * M, K], [B * N, K] for a transposed B, [B * K, N]
// for a [B, K, N] one), so batch pid_b's tile starts at the element its index space names.
// RUN: tt-opt %s --split-input-file --fuse --tile='tma-batched=1' | FileCheck %s
// tma-batched=0 marks no batched box: the register path.
// RUN: tt-opt %s --split-input-file --fuse --tile='tma-batched=0' | FileCheck %s --check-prefix=OFF
// Through the pipeline (stage-in=auto, tt-translate's): TMA rings and wgmma.
// RUN: tt-opt %s --split-input-file --fuse --tile='tma-batched=1' --pipeline='stage-in=auto' | FileCheck %s --check-prefix=RINGS
// A given block-k that does not divide K makes a [B, K, N] operand a batched box.
// RUN: tt-opt %s --split-input-file --fuse --tile='tma-batched=1 block-k=128' | FileCheck %s --check-prefix=USERK

// Attention scores, Q [12, 200, 64] @ K^T (K [12, 200, 64] read transposed): the tiles'
// rows past 200 read the next batch's rows, which only reach masked rows and columns of C.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.program_id"() {axis = 2 : i32}
// CHECK: "tile.load"({{.*}}) {tile.box = array<i64: 2400, 64>}
// CHECK: "tile.load"({{.*}}) {tile.box = array<i64: 2400, 64>}
// OFF-LABEL: func.func @fused_0_kernel
// OFF-NOT: tile.box
// OFF: return
// RINGS-LABEL: func.func @fused_0_kernel
// RINGS-COUNT-2: "hopper.tma_load"
// RINGS: "tile.dot"({{.*}}) {mma = "wgmma"
// USERK-LABEL: func.func @fused_0_kernel
func.func @scores(%q: tensor<12x200x64xbf16>, %k: tensor<12x200x64xbf16>) -> tensor<12x200x200xbf16> {
  %kt = "prim.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<12x200x64xbf16>) -> tensor<12x64x200xbf16>
  %s = "prim.matmul"(%q, %kt) : (tensor<12x200x64xbf16>, tensor<12x64x200xbf16>) -> tensor<12x200x200xbf16>
  return %s : tensor<12x200x200xbf16>
}

// -----

// P [4, 300, 1024] @ V [4, 1024, 64]: V viewed as [4 * 1024, 64]; the K step divides 1024,
// so no step reads into the next batch.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.load"({{.*}}) {tile.box = array<i64: 1200, 1024>}
// CHECK: "tile.load"({{.*}}) {tile.box = array<i64: 4096, 64>}
// OFF-LABEL: func.func @fused_0_kernel
// OFF-NOT: tile.box
// OFF: return
// RINGS-LABEL: func.func @fused_0_kernel
// RINGS-COUNT-2: "hopper.tma_load"
// USERK-LABEL: func.func @fused_0_kernel
func.func @pv(%p: tensor<4x300x1024xf16>, %v: tensor<4x1024x64xf16>) -> tensor<4x300x64xf16> {
  %o = "prim.matmul"(%p, %v) : (tensor<4x300x1024xf16>, tensor<4x1024x64xf16>) -> tensor<4x300x64xf16>
  return %o : tensor<4x300x64xf16>
}

// -----

// A [B, K, N] operand whose K (200) no K step of 64 or more divides: a step of the
// stacked rows would read the next batch's, so that operand is a batched box [B, K, N]
// (a rank-3 tensor map: rows past K read zeros); A stays a box of the stacked rows.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.load"({{.*}}) {tile.box = array<i64: 15, 200>}
// CHECK: "tile.load"({{.*}}) {tile.box = array<i64: 3, 200, 64>}
// OFF-LABEL: func.func @fused_0_kernel
// RINGS-LABEL: func.func @fused_0_kernel
// RINGS: "hopper.tma_load"({{.*}}) {dims = array<i64: 15, 200>}
// RINGS: "hopper.tma_load"({{.*}}) {dims = array<i64: 3, 200, 64>}
// USERK-LABEL: func.func @fused_0_kernel
func.func @k200(%a: tensor<3x5x200xf16>, %b: tensor<3x200x64xf16>) -> tensor<3x5x64xf16> {
  %c = "prim.matmul"(%a, %b) : (tensor<3x5x200xf16>, tensor<3x200x64xf16>) -> tensor<3x5x64xf16>
  return %c : tensor<3x5x64xf16>
}

// -----

// K = 192 for a [B, K, N] operand: the K step the rules pick (128 or more) is halved until
// it divides K (64), so every box stays in its batch.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: scf.for {{.*}} step %c64_i32
// CHECK: "tile.load"({{.*}}) {tile.box = array<i64: 100, 192>}
// CHECK: "tile.load"({{.*}}) {tile.box = array<i64: 384, 128>}
// OFF-LABEL: func.func @fused_0_kernel
// RINGS-LABEL: func.func @fused_0_kernel
// RINGS-COUNT-2: "hopper.tma_load"
// USERK-LABEL: func.func @fused_0_kernel
// USERK: "tile.load"({{.*}}) {tile.box = array<i64: 100, 192>}
// USERK: "tile.load"({{.*}}) {tile.box = array<i64: 2, 192, 128>}
func.func @k192(%p: tensor<2x50x192xf16>, %v: tensor<2x192x128xf16>) -> tensor<2x50x128xf16> {
  %o = "prim.matmul"(%p, %v) : (tensor<2x50x192xf16>, tensor<2x192x128xf16>) -> tensor<2x50x128xf16>
  return %o : tensor<2x50x128xf16>
}
