// --pipeline's resident form: A read in place past its K pad (rows of 4100 f16 = 8200
// bytes, which no TMA map strides) is copied whole - the program's K range, one swizzled
// slot a K step, as a TMA slot of it would be laid out - into shared memory once, before
// the K loop (cp.async of 8-byte pieces: the rows' alignment), after the weight's first
// TMA boxes; the loop waits on the weight's ring alone and wgmma reads both in place.
// --fuse reads the pad in place by default where the copy fits (tileDotResidentFits).
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile --splitk --pipeline=stage-in=auto | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --splitk | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// RUN: tt-run --ref-only %t.ptx | FileCheck %s --check-prefix=REF
// resident=0: the mixed form (A carried in registers, staged by the dot each step).
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile --splitk --pipeline='stage-in=auto resident=0' | FileCheck %s --check-prefix=MIXED
// resident=2: the streamed form (each step's x tile by cp.async into a ring laid out as a
// TMA ring, waited for with the weight's box; slower than the copy once: not a default).
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile --splitk --pipeline='stage-in=auto resident=2' | FileCheck %s --check-prefix=STREAM
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile --splitk --pipeline='stage-in=auto resident=2' | tt-translate --ptx -o %t.stream.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.stream.ptx -o %t.stream.cubin %}
// STREAM: %[[XR:.*]] = "tile.local_alloc"() {tile.swizzled} : () -> memref<4x16x256xf16, 3>
// STREAM: "tile.async_copy"({{.*}}, %[[XR]], %c0_i32)
// STREAM: hopper.tma_load
// STREAM-NEXT: "tile.async_commit"
// STREAM: scf.for
// STREAM-NEXT: arith.subi
// STREAM: "tile.async_wait"() {pending = 2 : i32}
// STREAM: "tile.async_copy"({{.*}}, %[[XR]],
// STREAM: hopper.tma_load
// STREAM-NEXT: "tile.async_commit"
// STREAM-NEXT: hopper.mbarrier_wait
// STREAM-NEXT: "tile.local_load"(%[[XR]]
// CHECK: func.func @fused_{{[0-9]+}}_kernel(%[[X:arg0]]: !tile.ptr<f16>{{.*}}, %{{.*}}: !hopper.tma_desc) attributes {{{.*}}tile.resident = 24576 : i64
// CHECK: %[[W:.*]] = "tile.local_alloc"() : () -> memref<4x64x256xf16, 3>
// CHECK: %[[RES:.*]] = "tile.local_alloc"() {tile.swizzled} : () -> memref<3x16x256xf16, 3>
// CHECK: hopper.tma_load
// CHECK: scf.for %[[K:.*]] = %[[LB:.*]] to %{{.*}} step %[[STEP:.*]] : i32 {
// CHECK-NEXT: %[[D:.*]] = arith.subi %[[K]], %[[LB]]
// CHECK-NEXT: %[[J:.*]] = arith.divui %[[D]], %[[STEP]]
// CHECK-NOT: tma_load
// CHECK: "tile.async_copy"(%[[X]], %{{.*}}, %{{.*}}, %[[RES]], %[[J]])
// CHECK-NEXT: } {tile.resident_copy}
// CHECK-NEXT: "tile.async_commit"
// CHECK-NEXT: "tile.async_wait"() {pending = 0 : i32}
// CHECK: scf.for %[[K2:.*]] = %[[LB]] to
// CHECK-NOT: tile.load
// CHECK: %[[I:.*]] = arith.divui
// CHECK: hopper.tma_load
// CHECK: hopper.mbarrier_wait
// CHECK-NOT: hopper.mbarrier_wait
// CHECK: %[[A:.*]] = "tile.local_load"(%[[RES]], %[[I]]) : (memref<3x16x256xf16, 3>, i32) -> tensor<16x256xf16>
// CHECK: "tile.dot"(%[[A]], {{.*}}) {mma = "wgmma"}
// CHECK: tile.launch = {{{.*}}tma = [array<i64: 1, 1000, 4160, 64, 64>]
// PTX: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 8, %r{{[0-9]+}};
// PTX: cp.async.commit_group
// PTX-NEXT: cp.async.wait_group 0;
// PTX-NEXT: fence.proxy.async.shared::cta;
// PTX-NEXT: bar.sync 0;
// PTX: wgmma.mma_async
// REF: output %{{[0-9]+}} f16 7x1000:
// MIXED-NOT: tile.swizzled
// MIXED: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<16x64xf32>, tensor<4096xf16>, tensor<4096xf16>, tensor<4096xf16>)
func.func @main(%x: tensor<7x4100xf16>, %w: tensor<1000x4100xf16> {tt.invariant}) -> tensor<7x1000xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<7x4100xf16>, tensor<1000x4100xf16>) -> tensor<7x1000xf16>
  return %y : tensor<7x1000xf16>
}
