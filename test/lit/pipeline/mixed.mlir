// --pipeline's mixed form: a K loop whose loads TMA cannot all read (A read in place past
// its K pad, rows of 4100 f16 = 8200 bytes, no multiple of 16) keeps the TMA ring for the
// one it can (the weight, padded to 4160 once) and carries the other in registers, S - 1
// tiles ahead; the dot stages it into shared memory each step (wgmma from both).
// --pipeline's resident=0 asks for it (by default A's K range is copied to shared memory
// once a program where it fits, pipeline/resident.mlir; else --fuse keeps the pad a
// kernel: the mixed form was slower than the pad kernel on the H200,
// bench/2026-11-27-h200-k-pad-unaligned.md).
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse=k-pad=in-place --tile --splitk --pipeline='stage-in=auto resident=0' | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse=k-pad=in-place --tile --splitk --pipeline='stage-in=auto resident=0' | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// RUN: tt-run --ref-only %t.ptx | FileCheck %s --check-prefix=REF
// Under k-pad=kernel the pad is a kernel of its own and both operands take TMA rings.
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse=k-pad=kernel --tile --splitk --pipeline=stage-in=auto | FileCheck %s --check-prefix=KERNEL
// CHECK: func.func @fused_{{[0-9]+}}_kernel(%[[X:arg0]]: !tile.ptr<f16>{{.*}}, %{{.*}}: !hopper.tma_desc) attributes {{{.*}}tile.num_stages = 4
// CHECK: hopper.mbarrier_alloc
// CHECK: %[[A0:.*]] = "tile.load"(%[[X]], {{.*}}) {tile.box = array<i64: 7, 4100>, tile.carry}
// CHECK: hopper.tma_load
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[A0]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<16x64xf32>, tensor<4096xf16>, tensor<4096xf16>, tensor<4096xf16>)
// CHECK: "tile.load"(%[[X]]
// CHECK: hopper.tma_load
// CHECK: hopper.mbarrier_wait
// CHECK-NOT: hopper.mbarrier_wait
// CHECK: tile.local_load
// CHECK: "tile.dot"{{.*}}{mma = "wgmma"}
// CHECK: scf.yield
// CHECK: tile.launch = {{{.*}}tma = [array<i64: 1, 1000, 4160, 64, 64>]
// PTX: ld.global.v2.b32
// PTX: cp.async.bulk.tensor.2d
// PTX: wgmma.mma_async
// REF: output %{{[0-9]+}} f16 7x1000:
// KERNEL: func.func private @fused_{{[0-9]+}}(%{{.*}}: tensor<7x4100xf16>) -> tensor<7x4160xf16>
// KERNEL: tma = [array<i64: 1, 7, 4160, 16, 64>, array<i64: 0, 1000, 4160, 64, 64>]
func.func @main(%x: tensor<7x4100xf16>, %w: tensor<1000x4100xf16> {tt.invariant}) -> tensor<7x1000xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<7x4100xf16>, tensor<1000x4100xf16>) -> tensor<7x1000xf16>
  return %y : tensor<7x1000xf16>
}
