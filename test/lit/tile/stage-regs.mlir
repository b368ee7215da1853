// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile=peel-last=0 | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile=stage-regs=0 | FileCheck %s --check-prefix=OFF
// RUN: awk '/^func.func @softmax_regs/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --decompose --fuse --splitk | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// RUN: awk '/^func.func @layer_norm_regs/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --mlir-print-debuginfo=false --decompose --fuse --tile=online-var=0 | FileCheck %s --check-prefix=LNREGS
// RUN: awk '/^func.func @softmax_57344/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --decompose --fuse --splitk | tt-translate --ptx | FileCheck %s --check-prefix=PTX57

// The staged form with the row's last chunks in registers (passes/tile/rows.c, 3'';
// geometry-rows.c, stageWithRegisters): a softmax row of 65536 bf16 is 16 chunks of 4096
// (8 KB each); shared memory holds the whole row once but not twice, so its first 13
// chunks are staged (13 x 8208 bytes: two blocks an SM) and the last 3 are loaded into
// registers (48 bytes a thread) with the copies. Each pass walks the 13 slots in its
// loop, then takes the 3 register chunks after it, unrolled; the output's register
// chunks are stored after the output loop. stage-regs=0 keeps the looped form.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: [[R0:%[0-9]+]] = "tile.load"(%arg0
// CHECK: [[R1:%[0-9]+]] = "tile.load"(%arg0
// CHECK: [[R2:%[0-9]+]] = "tile.load"(%arg0
// CHECK: [[BUF:%[0-9]+]] = "tile.local_alloc"() : () -> memref<13x1x4096xbf16, 3>
// CHECK-COUNT-13: "tile.async_copy"(%arg0, %{{.*}}, %{{.*}}, [[BUF]]
// CHECK-NOT: "tile.async_copy"
// CHECK: "tile.async_commit"
// CHECK-NEXT: "tile.async_wait"
// the max: the slots, then the register chunks
// CHECK: scf.for %{{.*}} = %{{.*}} to %c53248_i32 step %c4096_i32
// CHECK: "tile.local_load"([[BUF]]
// CHECK: scf.yield
// CHECK: arith.extf [[R0]]
// CHECK: arith.extf [[R1]]
// CHECK: arith.extf [[R2]]
// CHECK: "tile.reduce"{{.*}}kind = "max"
// the sum of exp(x - max)
// CHECK: scf.for
// CHECK: "tile.local_load"([[BUF]]
// CHECK: math.exp
// CHECK: scf.yield
// CHECK: arith.extf [[R0]]
// CHECK: math.exp
// CHECK: arith.extf [[R1]]
// CHECK: math.exp
// CHECK: arith.extf [[R2]]
// CHECK: math.exp
// CHECK: "tile.reduce"{{.*}}kind = "sum"
// the output: the slots' chunks stored in the loop, the register chunks' after it
// CHECK: scf.for
// CHECK: "tile.local_load"([[BUF]]
// CHECK: "tile.store"(%arg1
// CHECK: }
// CHECK: arith.extf [[R0]]
// CHECK: "tile.store"(%arg1
// CHECK: arith.extf [[R1]]
// CHECK: "tile.store"(%arg1
// CHECK: arith.extf [[R2]]
// CHECK: "tile.store"(%arg1
// CHECK-NOT: "tile.store"
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: grid = ["2048"
// OFF-LABEL: func.func @fused_0_kernel
// OFF-NOT: tile.local_alloc
// OFF: scf.for %{{.*}} step %c65536_i32
// PTX: .maxntid 512, 1, 1
// PTX-NEXT: .minnctapersm 2
// PTX-COUNT-13: cp.async.cg.shared.global
// PTX-NOT: cp.async.cg.shared.global
// PTX: cp.async.wait_group 0
func.func @softmax_regs(%x: tensor<2048x65536xbf16>) -> tensor<2048x65536xbf16> {
  %y = "prim.softmax"(%x) {dim = 1 : i64} : (tensor<2048x65536xbf16>) -> tensor<2048x65536xbf16>
  return %y : tensor<2048x65536xbf16>
}

// -----

// layer_norm's variance joins its mean's loop (tile/online-var.mlir): one reduction loop
// a row, so the row stays looped, as rms_norm's. With online-var=0 (two loops) it takes
// the form, and reads its weight and bias in the output loop from global memory: that
// loop takes two chunks a step (their four loads in flight together, 64 bytes a thread),
// so the slots are a multiple of two: 12 staged, 4 in registers (64 bytes a thread).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: tile.local_alloc
// CHECK: func.func private @fused_0
// OFF-LABEL: func.func @fused_0_kernel
// OFF-NOT: tile.local_alloc
// OFF: func.func private @fused_0
// LNREGS-LABEL: func.func @fused_0_kernel
// LNREGS-COUNT-4: "tile.load"(%arg0
// LNREGS: "tile.local_alloc"() : () -> memref<12x1x4096xbf16, 3>
// LNREGS-COUNT-12: "tile.async_copy"
// LNREGS: scf.for %{{.*}} = %{{.*}} to %c49152_i32 step %c4096_i32
// LNREGS: scf.for %{{.*}} = %{{.*}} to %c49152_i32{{.*}} step %c4096_i32
// LNREGS: scf.for %{{.*}} = %{{.*}} to %c49152_i32{{.*}} step %c8192_i32
// LNREGS: "tile.load"(%arg1
// LNREGS: "tile.load"(%arg2
// LNREGS: "tile.load"(%arg1
// LNREGS: "tile.load"(%arg2
// LNREGS: "tile.local_load"
// LNREGS: "tile.store"
// LNREGS: "tile.local_load"
// LNREGS: "tile.store"
// LNREGS: }
// LNREGS-COUNT-4: "tile.store"(%arg3
// LNREGS-NOT: "tile.store"
func.func @layer_norm_regs(%x: tensor<2048x65536xbf16>, %w: tensor<65536xbf16>, %b: tensor<65536xbf16>) -> tensor<2048x65536xbf16> {
  %y = "prim.layer_norm"(%x, %w, %b) {eps = 1.0e-5 : f32} : (tensor<2048x65536xbf16>, tensor<65536xbf16>, tensor<65536xbf16>) -> tensor<2048x65536xbf16>
  return %y : tensor<2048x65536xbf16>
}

// -----

// f32 rows of 30000 (8 chunks, the last partial): 6 staged, 2 in registers (64 bytes a
// thread), the partial one among them, loaded under the row's mask (columns < 30000).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: arith.constant dense<30000> : tensor<4096xi32>
// CHECK: [[MASK:%[0-9]+]] = arith.cmpi slt
// CHECK: "tile.load"(%arg0, %{{[0-9]+}}, [[MASK]]
// CHECK: "tile.load"(%arg0
// CHECK: "tile.local_alloc"() : () -> memref<6x1x4096xf32, 3>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c24576_i32 step %c4096_i32
func.func @softmax_f32_tail(%x: tensor<1024x30000xf32>) -> tensor<1024x30000xf32> {
  %y = "prim.softmax"(%x) {dim = 1 : i64} : (tensor<1024x30000xf32>) -> tensor<1024x30000xf32>
  return %y : tensor<1024x30000xf32>
}

// -----

// rms_norm's one reduction: its looped form reads the row twice, and stays (the form with
// registers ran 0.96x-0.97x of it on an H200, bench/2026-11-27-h200-rows-regs.md).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: tile.local_alloc
// CHECK: scf.for %{{.*}} step %c65536_i32
func.func @rms_norm_one_level(%x: tensor<2048x65536xbf16>, %w: tensor<65536xbf16>) -> tensor<2048x65536xbf16> {
  %y = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32} : (tensor<2048x65536xbf16>, tensor<65536xbf16>) -> tensor<2048x65536xbf16>
  return %y : tensor<2048x65536xbf16>
}

// -----

// Rows not a multiple of 16 bytes (70001 bf16) are staged (stage-odd), and few rows are
// split over a cluster of staged programs: no chunk in registers (no tile.load before
// the slots).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: "tile.load"
// CHECK: "tile.local_alloc"() : () -> memref<5x1x4096xbf16, 3>
// CHECK: "tile.cluster_reduce"
func.func @softmax_unaligned(%x: tensor<3x70001xbf16>) -> tensor<3x70001xbf16> {
  %y = "prim.softmax"(%x) {dim = 1 : i64} : (tensor<3x70001xbf16>) -> tensor<3x70001xbf16>
  return %y : tensor<3x70001xbf16>
}

// -----

// 57344 columns: 14 chunks (114912 bytes) would fit two blocks an SM but for each block's
// reserved and static shared memory, which the lowering counts (ttTargetBlocksBySmem):
// the geometry counts the same way, so the row keeps its last chunk in registers and the
// kernel asks for two blocks an SM (before, it was staged whole while the lowering asked
// ptxas for one).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-COUNT-1: "tile.load"(%arg0
// CHECK: "tile.local_alloc"() : () -> memref<13x1x4096xbf16, 3>
// PTX57: .maxntid 512, 1, 1
// PTX57-NEXT: .minnctapersm 2
func.func @softmax_57344(%x: tensor<4096x57344xbf16>) -> tensor<4096x57344xbf16> {
  %y = "prim.softmax"(%x) {dim = 1 : i64} : (tensor<4096x57344xbf16>) -> tensor<4096x57344xbf16>
  return %y : tensor<4096x57344xbf16>
}
