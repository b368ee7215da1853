// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile=persistent=1 | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile=persistent=1 --pipeline | FileCheck %s --check-prefix=PIPE
// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile | FileCheck %s --check-prefix=OFF
// RUN: awk '/^func.func @rms_norm/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --decompose --fuse --tile=persistent=1 --splitk | tt-translate --ptx -o %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// --tile persistent=1: rms_norm's rows of 32768 bf16 (300 of them), which the staged
// form would copy to shared memory, stay on chip, on a persistent grid of 132 programs
// (sm_90's SMs, one program an SM: 512 threads of 128 registers): each loops over rows
// pid, pid + 132, ... < 300 (the loop marked tile.row_loop), the row's load, its
// reduction, the weight's load at its first use after it, the store.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: tile.local_alloc
// CHECK: [[PID:%[0-9]+]] = "tile.program_id"
// CHECK: scf.for %[[ROW:.*]] = [[PID]] to %c300_i32 step %c132_i32 : i32 {
// CHECK: arith.muli %[[ROW]], %c32768_i32
// CHECK: "tile.load"(%arg0
// CHECK: "tile.reduce"
// CHECK: "tile.load"(%arg1
// CHECK: "tile.store"(%arg2
// CHECK: } {tile.row_loop}
// CHECK: grid = ["132", "1", "1"]

// --pipeline then carries the row's load a row ahead (registers, two stages): row pid's
// before the loop, each iteration the next row's (row + 132, masked past row 299) at
// its top, yielded; the weight, the same every row, is copied to shared memory once
// before the loop (64 KB: one program an SM, 2.3 rows a program) and read there each
// row (--pipeline's resident.c), not carried.
// PIPE-LABEL: func.func @fused_0_kernel
// PIPE-SAME: tile.num_stages = 2
// PIPE: [[W:%[0-9]+]] = "tile.local_alloc"() : () -> memref<1x1x32768xbf16, 3>
// PIPE: "tile.async_copy"(%arg1, %{{[0-9]+}}, %{{[0-9]+}}, [[W]], %c0_i32)
// PIPE: "tile.async_commit"
// PIPE: "tile.async_wait"() {pending = 0 : i32}
// PIPE: [[X0:%[0-9]+]] = "tile.load"(%arg0
// PIPE: scf.for %[[ROW:.*]] = %{{[0-9]+}} to %c300_i32 step %c132_i32 iter_args(%[[X:.*]] = [[X0]]) -> (tensor<32768xbf16>)
// PIPE: [[NEXT:%[0-9]+]] = arith.addi %[[ROW]]
// PIPE: arith.cmpi slt, [[NEXT]], %c300_i32
// PIPE: [[XN:%[0-9]+]] = "tile.load"(%arg0
// PIPE: arith.extf %[[X]]
// PIPE: "tile.reduce"
// PIPE-NOT: "tile.load"(%arg1
// PIPE: "tile.local_load"([[W]]
// PIPE: scf.yield [[XN]] : tensor<32768xbf16>
// PIPE-NEXT: } {tile.row_loop}

// By default (persistent=0) the row is staged, a program a row.
// OFF-LABEL: func.func @fused_0_kernel
// OFF: tile.local_alloc
// OFF-NOT: tile.row_loop
// OFF: grid = ["300", "1", "1"]
func.func @rms_norm(%x: tensor<300x32768xbf16>, %w: tensor<32768xbf16>) -> tensor<300x32768xbf16> {
  %y = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32}
      : (tensor<300x32768xbf16>, tensor<32768xbf16>) -> tensor<300x32768xbf16>
  return %y : tensor<300x32768xbf16>
}

// -----

// Outputs of one value per row (an argmax and a sum of the same rows, one kernel): in the
// row loop, lane 0 of each stores at the loop's row. The row's load is carried a row
// ahead as above.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: scf.for %[[ROW:.*]] = %{{[0-9]+}} to %c300_i32 step %c132_i32 : i32 {
// CHECK: "tile.reduce"
// CHECK: "tile.splat"(%[[ROW]])
// CHECK: "tile.store"(%arg1
// CHECK: "tile.splat"(%[[ROW]])
// CHECK: "tile.store"(%arg2
// CHECK: } {tile.row_loop}
// PIPE-LABEL: func.func @fused_0_kernel
// PIPE: scf.for %{{.*}} iter_args(%{{.*}} = %{{[0-9]+}}) -> (tensor<32768xbf16>)
// PIPE: "tile.store"(%arg1
// PIPE: "tile.store"(%arg2
// PIPE: scf.yield
// OFF-LABEL: func.func @fused_0_kernel
// OFF-NOT: tile.row_loop
// OFF: grid = ["300", "1", "1"]
func.func @argmax_and_sum(%x: tensor<300x32768xbf16>) -> (tensor<300xi64>, tensor<300xf32>) {
  %i = "prim.argmax"(%x) {dim = 1 : i64} : (tensor<300x32768xbf16>) -> tensor<300xi64>
  %c = "prim.convert"(%x) : (tensor<300x32768xbf16>) -> tensor<300x32768xf32>
  %s = "prim.sum"(%c) {dims = array<i64: 1>, keepdim = false} : (tensor<300x32768xf32>) -> tensor<300xf32>
  return %i, %s : tensor<300xi64>, tensor<300xf32>
}

// -----

// layer_norm's weight and bias both resident (2 x 64 KB); and where a program has one row
// (7 rows, 7 programs) nothing is copied: the weights are read once either way.
// RUN: awk '/^func.func @layer_norm/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --decompose --fuse --tile=persistent=1 --splitk | tt-translate --ptx -o %t.ln.ptx
// RUN: FileCheck %s --check-prefix=LNPTX < %t.ln.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ln.ptx -o %t.ln.cubin %}
// LNPTX: //@launch fused_0_kernel grid 132 1 1 block 512 1 1 shared {{1[0-9][0-9][0-9][0-9][0-9]}}
// LNPTX: cp.async
// LNPTX: cp.async.wait_group 0
// LNPTX: ld.shared
// PIPE-LABEL: func.func @fused_0_kernel
// PIPE: "tile.local_alloc"() : () -> memref<1x1x32768xbf16, 3>
// PIPE: "tile.async_copy"(%arg1
// PIPE: "tile.local_alloc"() : () -> memref<1x1x32768xbf16, 3>
// PIPE: "tile.async_copy"(%arg2
// PIPE: scf.for
// PIPE: "tile.local_load"
// PIPE: "tile.local_load"
// PIPE: scf.yield
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: } {tile.row_loop}
// OFF-LABEL: func.func @fused_0_kernel
func.func @layer_norm(%x: tensor<300x32768xbf16>, %w: tensor<32768xbf16>, %b: tensor<32768xbf16>) -> tensor<300x32768xbf16> {
  %y = "prim.layer_norm"(%x, %w, %b) {normalized_shape = array<i64: 32768>, eps = 1.0e-5 : f32}
      : (tensor<300x32768xbf16>, tensor<32768xbf16>, tensor<32768xbf16>) -> tensor<300x32768xbf16>
  return %y : tensor<300x32768xbf16>
}

// -----

// PIPE-LABEL: func.func @fused_0_kernel
// PIPE-NOT: tile.local_alloc
// PIPE: scf.for
// PIPE-NOT: tile.local_load
// PIPE: scf.yield
// CHECK-LABEL: func.func @fused_0_kernel
// OFF-LABEL: func.func @fused_0_kernel
func.func @few_rows(%x: tensor<7x1000xbf16>, %w: tensor<1000xbf16>, %b: tensor<1000xbf16>) -> tensor<7x1000xbf16> {
  %y = "prim.layer_norm"(%x, %w, %b) {normalized_shape = array<i64: 1000>, eps = 1.0e-5 : f32}
      : (tensor<7x1000xbf16>, tensor<1000xbf16>, tensor<1000xbf16>) -> tensor<7x1000xbf16>
  return %y : tensor<7x1000xbf16>
}

// -----

// Weights of fewer than 16 bytes a thread stay loads (1024 bf16 columns on 32 warps: 2
// bytes a thread; tile.async_copy's runs must be 4, 8 or 16 bytes, which failed before).
// RUN: awk '/^func.func @thin_rows/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --decompose --fuse --tile='persistent=1 num-warps=32' --pipeline --mlir-print-debuginfo=false | FileCheck %s --check-prefix=THIN
// RUN: awk '/^func.func @thin_rows/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --decompose --fuse --tile='persistent=1 num-warps=32' | tt-translate --ptx -o %t.thin.ptx
// THIN-NOT: tile.local_alloc
// THIN: scf.for
// THIN: "tile.load"(%arg1
// THIN: } {tile.row_loop}
// PIPE-LABEL: func.func @fused_0_kernel
// CHECK-LABEL: func.func @fused_0_kernel
// OFF-LABEL: func.func @fused_0_kernel
func.func @thin_rows(%x: tensor<2000x1024xbf16>, %w: tensor<1024xbf16>, %b: tensor<1024xbf16>) -> tensor<2000x1024xbf16> {
  %y = "prim.layer_norm"(%x, %w, %b) {normalized_shape = array<i64: 1024>, eps = 1.0e-5 : f32}
      : (tensor<2000x1024xbf16>, tensor<1024xbf16>, tensor<1024xbf16>) -> tensor<2000x1024xbf16>
  return %y : tensor<2000x1024xbf16>
}
