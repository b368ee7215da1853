// tt-opt prints the IR with its locations by default (mlir-opt's --mlir-print-debuginfo), so
// that a later tool's errors name this file's lines: each op ends in loc(#locN), the #locN
// lines come after the module (those of function arguments, printed inline, before it).
// Ops keep the location they were parsed at; what a pass creates carries the location of
// the op it came from: the outlined function, its call and arguments and the kernels'
// frame (--tile, --splitk's reduce kernel, --pipeline's rings, --pdl's grid-dependency ops)
// the group's last op (the add); what a prim op becomes in a kernel, that op's: tile.dot
// the prim.linear's, the bias load the broadcast's. No unknown location.
// RUN: tt-opt %s --decompose --fuse --splitk='split-k=4 reduce=two-stage' --pipeline='stage-in=tma' --pdl > %t.out
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=NOUNKNOWN < %t.out
// RUN: tt-opt %s --decompose --fuse --splitk='split-k=4 reduce=two-stage' --pipeline='stage-in=tma' --pdl --mlir-print-debuginfo | FileCheck %s
// RUN: tt-opt %s --decompose --fuse --splitk='split-k=4 reduce=two-stage' --pipeline='stage-in=tma' --pdl --mlir-print-debuginfo=true | FileCheck %s
// --mlir-print-debuginfo=false (or =0) prints none.
// RUN: tt-opt %s --decompose --fuse --mlir-print-debuginfo=false | FileCheck %s --check-prefix=OFF
// RUN: tt-opt %s --decompose --fuse --mlir-print-debuginfo=0 | FileCheck %s --check-prefix=OFF
// The locations parse back: a second tt-opt still has this file's.
// RUN: tt-opt %s --decompose --fuse | tt-opt --splitk | FileCheck %s --check-prefix=AGAIN
// --mlir-print-ir-after-all prints without them unless --mlir-print-debuginfo is given.
// RUN: tt-opt %s --fuse --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: tt-opt %s --fuse --mlir-print-ir-after-all --mlir-print-debuginfo -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER-LOC

// CHECK: #[[ADD:loc[0-9]+]] = loc("{{.*}}debuginfo.mlir":76:8)
// CHECK: module {
// CHECK: func.func @fused_0_kernel(%arg0: !tile.ptr<f16> loc("{{.*}}debuginfo.mlir":76:8),
// CHECK: "hopper.mbarrier_alloc"() {{.*}} loc(#[[ADD]])
// CHECK: "hopper.griddep_wait"() : () -> () loc(#[[ADD]])
// CHECK: "tile.dot"({{.*}} loc(#[[LINEAR:loc[0-9]+]])
// CHECK: "hopper.griddep_launch_dependents"() : () -> () loc(#[[ADD]])
// CHECK: } loc(#[[ADD]])
// CHECK: func.func @fused_0_kernel_reduce(
// CHECK: "tile.load"(%arg2, {{.*}} loc(#[[BCAST:loc[0-9]+]])
// CHECK: "tile.store"({{.*}} loc(#[[ADD]])
// CHECK: func.func private @fused_0(
// CHECK: "prim.matmul"({{.*}} loc(#[[LINEAR]])
// CHECK: "prim.add"({{.*}} loc(#[[ADD]])
// CHECK: } loc(#[[ADD]])
// CHECK: func.func @mlp(%arg0: tensor<16x8192xf16> loc("{{.*}}debuginfo.mlir":72:16),
// CHECK: call @fused_0({{.*}} loc(#[[ADD]])
// CHECK: return {{.*}} loc(#[[RET:loc[0-9]+]])
// CHECK: } loc(#[[FUNC:loc[0-9]+]])
// CHECK: } loc(#[[MODULE:loc[0-9]*]])
// CHECK-DAG: #[[MODULE]] = loc("{{.*}}debuginfo.mlir":1:1)
// CHECK-DAG: #[[FUNC]] = loc("{{.*}}debuginfo.mlir":72:1)
// CHECK-DAG: #[[LINEAR]] = loc("{{.*}}debuginfo.mlir":74:8)
// CHECK-DAG: #[[BCAST]] = loc("{{.*}}debuginfo.mlir":75:9)
// CHECK-DAG: #[[RET]] = loc("{{.*}}debuginfo.mlir":77:3)

// NOUNKNOWN-NOT: unknown

// OFF-NOT: loc(
// OFF-NOT: #loc
// OFF: func.func private @fused_0(%arg0: tensor<8192x8192xf16>, %arg1: tensor<16x8192xf16>, %arg2: tensor<8192xf16>) -> tensor<16x8192xf16> attributes {prim.fusion = "dot"} {
// OFF-NOT: loc(
// OFF-NOT: #loc

// AGAIN: #[[ADD:loc[0-9]+]] = loc("{{.*}}debuginfo.mlir":76:8)
// AGAIN: func.func @fused_0_kernel(
// AGAIN: "tile.dot"({{.*}} loc(#[[LINEAR:loc[0-9]+]])
// AGAIN: func.func private @fused_0(
// AGAIN: "prim.matmul"({{.*}} loc(#[[LINEAR]])
// AGAIN: #[[LINEAR]] = loc("{{.*}}debuginfo.mlir":74:8)

// AFTER: IR Dump After fuse
// AFTER-NOT: loc(
// AFTER: func.func @mlp
// AFTER-NOT: loc(

// AFTER-LOC: IR Dump After fuse
// AFTER-LOC: "prim.add"({{.*}} loc(

func.func @mlp(%x: tensor<16x8192xf16>, %w: tensor<8192x8192xf16> {tt.invariant},
               %b: tensor<8192xf16>) -> tensor<16x8192xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x8192xf16>, tensor<8192x8192xf16>) -> tensor<16x8192xf16>
  %bb = "prim.broadcast_in_dim"(%b) {broadcast_dimensions = array<i64: 1>} : (tensor<8192xf16>) -> tensor<16x8192xf16>
  %z = "prim.add"(%y, %bb) : (tensor<16x8192xf16>, tensor<16x8192xf16>) -> tensor<16x8192xf16>
  return %z : tensor<16x8192xf16>
}
