// RUN: tt-opt %s --split-input-file --fuse --tile --mlir-print-debuginfo=false | FileCheck %s
// A batched matmul with a dynamic batch (the leading dim of both 3-D operands; M, N and K
// static): the kernel is the static batch's (batch pid_b = program id 2 offsets each
// operand by pid_b times its matrix), and the grid's third axis is dim(a, 0) at run time.
// The tuning key names the batch "?". No TMA boxes (their matrix is [B * M, K]).

// Attention scores with a dynamic batch x heads: Q [?, 96, 64] @ K^T (K [?, 160, 64]):
// batch pid_b starts at pid_b * 96 * 64 in Q, pid_b * 160 * 64 in K, pid_b * 96 * 160 in C.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.tune_key = "dot ?x96x160x64 f16xf16 nk"
// CHECK: %[[PB:.*]] = "tile.program_id"() {axis = 2 : i32}
// CHECK-DAG: arith.muli %[[PB]], %c6144_i32
// CHECK-DAG: arith.muli %[[PB]], %c10240_i32
// CHECK-NOT: tile.box
// CHECK: arith.muli %[[PB]], %c15360_i32
// CHECK: func.func private @fused_0
// CHECK-SAME: grid = ["{{[0-9]+}}", "1", "dim(%i{{[01]}},0)"]
func.func @scores(%q: tensor<?x96x64xf16>, %k: tensor<?x160x64xf16>) -> tensor<?x96x160xf16> {
  %kt = "prim.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<?x160x64xf16>) -> tensor<?x64x160xf16>
  %s = "prim.matmul"(%q, %kt) : (tensor<?x96x64xf16>, tensor<?x64x160xf16>) -> tensor<?x96x160xf16>
  return %s : tensor<?x96x160xf16>
}

// -----

// P [?, 100, 128] @ V [?, 128, 64] with a bias epilogue (broadcast along the batch):
// offsets pid_b * 12800 in P, * 8192 in V, * 6400 in the result.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.tune_key = "dot ?x100x64x128 bf16xbf16 kn"
// CHECK: %[[PB:.*]] = "tile.program_id"() {axis = 2 : i32}
// CHECK-DAG: arith.muli %[[PB]], %c12800_i32
// CHECK-DAG: arith.muli %[[PB]], %c8192_i32
// CHECK: arith.muli %[[PB]], %c6400_i32
// CHECK: func.func private @fused_0
// CHECK-SAME: grid = ["{{[0-9]+}}", "1", "dim(%i0,0)"]
func.func @pv(%p: tensor<?x100x128xbf16>, %v: tensor<?x128x64xbf16>, %b: tensor<64xbf16>) -> tensor<?x100x64xbf16> {
  %o = "prim.matmul"(%p, %v) : (tensor<?x100x128xbf16>, tensor<?x128x64xbf16>) -> tensor<?x100x64xbf16>
  %bb = "prim.broadcast_in_dim"(%b) {broadcast_dimensions = array<i64: 2>} : (tensor<64xbf16>) -> tensor<?x100x64xbf16>
  %y = "prim.add"(%o, %bb) : (tensor<?x100x64xbf16>, tensor<?x100x64xbf16>) -> tensor<?x100x64xbf16>
  return %y : tensor<?x100x64xbf16>
}
