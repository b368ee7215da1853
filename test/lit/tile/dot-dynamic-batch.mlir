// RUN: tt-opt %s --split-input-file --fuse --tile --mlir-print-debuginfo=false | FileCheck %s
// A batched matmul with a dynamic batch (the leading dim of both 3-D operands; M, N and K
// static): the kernel is the static batch's (batch pid_b = program id 2 offsets each
// operand by pid_b times its matrix), and the grid's third axis is dim(a, 0) at run time.
// The tuning key names the batch "?". No TMA boxes (their matrix is [B * M, K]).

// Attention scores with a dynamic batch x heads: Q [?, 128, 64] @ K^T.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.tune_key = "dot ?x128x128x64 f16xf16 nk"
// CHECK: "tile.program_id"() {axis = 2 : i32}
// CHECK: arith.muli %{{.*}}, %c8192_i32
// CHECK-NOT: tile.box
// CHECK: func.func private @fused_0
// CHECK-SAME: grid = ["{{[0-9]+}}", "1", "dim(%i{{[01]}},0)"]
func.func @scores(%q: tensor<?x128x64xf16>, %k: tensor<?x128x64xf16>) -> tensor<?x128x128xf16> {
  %kt = "prim.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<?x128x64xf16>) -> tensor<?x64x128xf16>
  %s = "prim.matmul"(%q, %kt) : (tensor<?x128x64xf16>, tensor<?x64x128xf16>) -> tensor<?x128x128xf16>
  return %s : tensor<?x128x128xf16>
}

// -----

// P [?, 100, 128] @ V [?, 128, 64] with a bias epilogue (broadcast along the batch).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.tune_key = "dot ?x100x64x128 bf16xbf16 kn"
// CHECK: func.func private @fused_0
// CHECK-SAME: grid = ["{{[0-9]+}}", "1", "dim(%i0,0)"]
func.func @pv(%p: tensor<?x100x128xbf16>, %v: tensor<?x128x64xbf16>, %b: tensor<64xbf16>) -> tensor<?x100x64xbf16> {
  %o = "prim.matmul"(%p, %v) : (tensor<?x100x128xbf16>, tensor<?x128x64xbf16>) -> tensor<?x100x64xbf16>
  %bb = "prim.broadcast_in_dim"(%b) {broadcast_dimensions = array<i64: 2>} : (tensor<64xbf16>) -> tensor<?x100x64xbf16>
  %y = "prim.add"(%o, %bb) : (tensor<?x100x64xbf16>, tensor<?x100x64xbf16>) -> tensor<?x100x64xbf16>
  return %y : tensor<?x100x64xbf16>
}
