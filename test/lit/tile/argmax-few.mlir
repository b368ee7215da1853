// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile --splitk | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// RUN: tt-run --ref-only %t.ptx | FileCheck %s --check-prefix=REF
// RUN: tt-opt %s --mlir-print-debuginfo=false --decompose --fuse --tile=row-stage=0 | FileCheck %s --check-prefix=OFF

// Few long rows (4 of 152064: greedy decoding of a small batch) would keep 4 SMs busy:
// each row is split over the 8 blocks of a cluster (geometry.c's few-rows rule), a block
// copies its part (5 chunks of 4096) into shared memory at once, makes the one pass over
// it, and the row's max and then its least column are combined across the cluster.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.local_alloc"() : () -> memref<5x1x4096xbf16, 3>
// CHECK: "tile.async_copy"
// CHECK: "tile.async_wait"
// CHECK: scf.for {{.*}} -> (tensor<4096xf32>, tensor<4096xf32>)
// CHECK: "tile.local_load"
// CHECK: scf.yield
// CHECK: "tile.reduce"(%{{.*}}) {axis = 0 : i32, kind = "max"}
// CHECK: "tile.cluster_reduce"(%{{.*}}) {kind = "max", size = 8 : i32}
// CHECK: "tile.reduce"(%{{.*}}) {axis = 0 : i32, kind = "min"}
// CHECK: "tile.cluster_reduce"(%{{.*}}) {kind = "min", size = 8 : i32}
// CHECK: arith.fptosi
// PTX: //@launch fused_0_kernel grid 32 1 1 block 512 1 1 shared 0 pdl cluster 8
// REF: output %1 i64 4:
// With row-stage=0 one program a row, reading it from global memory.
// OFF-LABEL: func.func @fused_0_kernel
// OFF-NOT: tile.cluster_reduce
// OFF-NOT: tile.local_alloc
// OFF: scf.for
func.func @few_rows(%x: tensor<4x152064xbf16>) -> tensor<4xi64> {
  %y = "prim.argmax"(%x) {dim = 1 : i64} : (tensor<4x152064xbf16>) -> tensor<4xi64>
  return %y : tensor<4xi64>
}
