// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile --splitk --pipeline=stage-in=auto | FileCheck %s
// The mixed form carries only a load --tile marked tile.carry (A read in place past a K
// pad, mixed.mlir): B = w [4096, 1001] used as is has rows of 2002 bytes, which no TMA map
// strides, and is no K pad; the loop keeps the registers form for both operands.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_stages = 2
// CHECK-NOT: hopper.tma_load
// CHECK-NOT: tile.carry
// CHECK: scf.for {{.*}} iter_args
// CHECK-NOT: hopper.tma_load
// CHECK: return
func.func @main(%x: tensor<64x4096xf16>, %w: tensor<4096x1001xf16>) -> tensor<64x1001xf16> {
  %y = "prim.matmul"(%x, %w) : (tensor<64x4096xf16>, tensor<4096x1001xf16>) -> tensor<64x1001xf16>
  return %y : tensor<64x1001xf16>
}
