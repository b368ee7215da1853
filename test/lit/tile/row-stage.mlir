// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile=row-stage=0 | FileCheck %s --check-prefix=OFF
// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile=row-stage=2 | FileCheck %s --check-prefix=ON
// RUN: awk '/^func.func @softmax/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --decompose --fuse --splitk | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// The staged form (passes/tile/rows.c, 3'): a softmax row of 32768 bf16 would hold one
// 512-thread block an SM on chip (64 f32 registers a thread of its row); its 64 KB (and
// 8 x 16 bytes of pad) fit three an SM's shared memory. Each of its 8 chunks of 4096 is
// copied to its slot once (cp.async), waited for, and the max, sum and output loops read
// the slots, one chunk a step: no tile.load of the row, one global read of it.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 16 : i32
// CHECK: "tile.local_alloc"() : () -> memref<8x1x4096xbf16, 3>
// CHECK-COUNT-8: "tile.async_copy"(%arg0,
// CHECK: "tile.async_commit"
// CHECK: "tile.async_wait"() {pending = 0 : i32}
// CHECK: scf.for
// CHECK: arith.divui
// CHECK: "tile.local_load"({{.*}}) : (memref<8x1x4096xbf16, 3>, i32) -> tensor<4096xbf16>
// CHECK: tile.reduce{{.*}}kind = "max"
// CHECK: scf.for
// CHECK: "tile.local_load"
// CHECK: tile.reduce{{.*}}kind = "sum"
// CHECK: scf.for
// CHECK: "tile.local_load"
// CHECK: "tile.store"
// CHECK-NOT: "tile.load"
// CHECK-LABEL: func.func private @fused_0
// row-stage=0: the on-chip form (one 32768 tile, loaded once).
// OFF-LABEL: func.func @fused_0_kernel
// OFF-NOT: tile.local_alloc
// OFF: "tile.load"{{.*}} -> tensor<32768xbf16>
// ON-LABEL: func.func @fused_0_kernel
// ON: "tile.local_alloc"() : () -> memref<8x1x4096xbf16, 3>
// The PTX (this first function): 8 cp.async of 16 bytes a thread, their group waited for, 64 KB of dynamic
// shared memory (and the alignment's 1 KB) on the launch, 3 programs an SM asked of ptxas.
// PTX: //@launch fused_0_kernel grid 4096 1 1 block 512 1 1 shared 66688
// PTX: .minnctapersm 3
// PTX-COUNT-8: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, 16;
// PTX: cp.async.wait_group 0;
// PTX: ld.shared.v4
func.func @softmax(%x: tensor<4096x32768xbf16>) -> tensor<4096x32768xbf16> {
  %y = "prim.softmax"(%x) {dim = 1 : i64} : (tensor<4096x32768xbf16>) -> tensor<4096x32768xbf16>
  return %y : tensor<4096x32768xbf16>
}

// -----

// Rows the registers hold two of an SM (16384 bf16) stay on chip; row-stage=2 stages
// them (for A/B runs).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: tile.local_alloc
// CHECK-LABEL: func.func private @fused_0
// ON-LABEL: func.func @fused_0_kernel
// ON: "tile.local_alloc"() : () -> memref<4x1x4096xbf16, 3>
func.func @rms_norm(%x: tensor<4096x16384xbf16>, %w: tensor<16384xbf16>) -> tensor<4096x16384xbf16> {
  %y = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32} : (tensor<4096x16384xbf16>, tensor<16384xbf16>) -> tensor<4096x16384xbf16>
  return %y : tensor<4096x16384xbf16>
}

// -----

// A row past the on-chip limit (40000 bf16: 10 chunks, the last one 3136 columns, zero
// filled past the row) that two fit an SM's shared memory: staged (the looped form reads
// it three times, twice from L2). The weight (one row, every program's) is read from
// global memory where used; only the row-space input is staged.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.local_alloc"() : () -> memref<10x1x4096xbf16, 3>
// CHECK-NOT: tile.local_alloc
// CHECK-COUNT-10: "tile.async_copy"(%arg0,
// CHECK: "tile.load"(%arg1
// ON-LABEL: func.func @fused_0_kernel
// ON: "tile.local_alloc"() : () -> memref<10x1x4096xbf16, 3>
func.func @rms_norm(%x: tensor<1000x40000xbf16>, %w: tensor<40000xbf16>) -> tensor<1000x40000xbf16> {
  %y = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32} : (tensor<1000x40000xbf16>, tensor<40000xbf16>) -> tensor<1000x40000xbf16>
  return %y : tensor<1000x40000xbf16>
}

// -----

// Rows off 16-byte alignment (33001 bf16) are staged too (stage-odd, default 1; their copy
// loads element by element: stage-odd.mlir), here few rows split over a cluster of 2;
// row-stage=0 keeps the looped form.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.local_alloc"() : () -> memref<5x1x4096xbf16, 3>
// CHECK: "tile.cluster_reduce"
// CHECK-LABEL: func.func private @fused_0
// ON-LABEL: func.func @fused_0_kernel
// ON: tile.local_alloc
// ON-LABEL: func.func private @fused_0
func.func @softmax(%x: tensor<8x33001xbf16>) -> tensor<8x33001xbf16> {
  %y = "prim.softmax"(%x) {dim = 1 : i64} : (tensor<8x33001xbf16>) -> tensor<8x33001xbf16>
  return %y : tensor<8x33001xbf16>
}

// -----

// 65536 bf16 columns (128 KB: one row an SM's shared memory; 132 rows in flight hold
// 17 MB, within the looped form's L2 budget): the default stages its first 13 chunks and
// holds the last 3 in registers, so two blocks fit an SM (rows.c, 3''; tile/stage-regs.mlir);
// row-stage=2 splits the row over a cluster of 2 blocks, each staging its
// 32768 columns (8 slots), its reductions combined across the cluster.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.local_alloc"() : () -> memref<13x1x4096xbf16, 3>
// CHECK-LABEL: func.func private @fused_0
// ON-LABEL: func.func @fused_0_kernel
// ON: arith.remui
// ON: "tile.local_alloc"() : () -> memref<8x1x4096xbf16, 3>
// ON-COUNT-8: "tile.async_copy"
// ON: "tile.reduce"{{.*}}kind = "max"
// ON-NEXT: "tile.cluster_reduce"{{.*}}kind = "max", size = 2
// ON: "tile.cluster_reduce"{{.*}}kind = "sum", size = 2
// ON-LABEL: func.func private @fused_0
// ON-SAME: cluster = 2
// ON-SAME: grid = ["4096"
func.func @softmax(%x: tensor<2048x65536xbf16>) -> tensor<2048x65536xbf16> {
  %y = "prim.softmax"(%x) {dim = 1 : i64} : (tensor<2048x65536xbf16>) -> tensor<2048x65536xbf16>
  return %y : tensor<2048x65536xbf16>
}

// -----

// Rows whose rows in flight pass the L2 budget (131072 bf16: 132 x 256 KB = 34 MB) are
// staged by default, split over the fewest cluster blocks whose parts two fit an SM (4
// blocks of 32768 columns: 64 KB each), where row-stage=0 keeps the register form of the
// split (4 blocks of 32768 columns on chip).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.local_alloc"() : () -> memref<8x1x4096xbf16, 3>
// CHECK: "tile.cluster_reduce"{{.*}}kind = "sum", size = 4
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: cluster = 4
// CHECK-SAME: grid = ["4096"
// OFF-LABEL: func.func @fused_0_kernel
// OFF-NOT: tile.local_alloc
// OFF: "tile.cluster_reduce"{{.*}}kind = "sum", size = 4
func.func @rms_norm_long(%x: tensor<1024x131072xbf16>, %w: tensor<131072xbf16>) -> tensor<1024x131072xbf16> {
  %y = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32} : (tensor<1024x131072xbf16>, tensor<131072xbf16>) -> tensor<1024x131072xbf16>
  return %y : tensor<1024x131072xbf16>
}

// -----

// The same rows with M dynamic: the rows in flight are not known, so no split over a
// cluster (staged or in registers) and a whole row (256 KB) does not fit: the looped
// form, reading global memory.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: tile.local_alloc
// CHECK-NOT: tile.cluster_reduce
// CHECK: scf.for
// CHECK: "tile.load"
// CHECK-LABEL: func.func private @fused_0
// CHECK-NOT: cluster =
// CHECK: return
func.func @rms_norm_long_dyn(%x: tensor<?x131072xbf16>, %w: tensor<131072xbf16>) -> tensor<?x131072xbf16> {
  %y = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32} : (tensor<?x131072xbf16>, tensor<131072xbf16>) -> tensor<?x131072xbf16>
  return %y : tensor<?x131072xbf16>
}

// -----

// Few long rows (16 rows: under 3/8 of the SMs) are staged over the fewest cluster blocks
// that give a program an SM (8: 128 programs), parts of two 4096-element chunks; row-stage=0
// keeps one looped program a row.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.local_alloc"() : () -> memref<2x1x4096xbf16, 3>
// CHECK: "tile.cluster_reduce"{{.*}}kind = "max", size = 8
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: cluster = 8
// CHECK-SAME: grid = ["128"
// OFF: func.func private @fused_0(%arg0: tensor<16x65536xbf16>) {{.*}}tile.launch = {args = [], grid = ["16"
func.func @softmax_few(%x: tensor<16x65536xbf16>) -> tensor<16x65536xbf16> {
  %y = "prim.softmax"(%x) {dim = 1 : i64} : (tensor<16x65536xbf16>) -> tensor<16x65536xbf16>
  return %y : tensor<16x65536xbf16>
}

// -----

// 32 rows of 32768: 8 blocks would hold one chunk each, so 4 (parts of two chunks).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.local_alloc"() : () -> memref<2x1x4096xbf16, 3>
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: cluster = 4
// CHECK-SAME: grid = ["128"
func.func @rms_norm_few(%x: tensor<32x32768xbf16>, %w: tensor<32768xbf16>) -> tensor<32x32768xbf16> {
  %y = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32} : (tensor<32x32768xbf16>, tensor<32768xbf16>) -> tensor<32x32768xbf16>
  return %y : tensor<32x32768xbf16>
}

// -----

// 64 rows (48% of the SMs) are not few: not split; staged with 3 chunks in registers.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.local_alloc"() : () -> memref<13x1x4096xbf16, 3>
// CHECK: scf.for
// CHECK: func.func private @fused_0(%arg0: tensor<64x65536xbf16>) {{.*}}tile.launch = {args = [], grid = ["64"
func.func @softmax_64(%x: tensor<64x65536xbf16>) -> tensor<64x65536xbf16> {
  %y = "prim.softmax"(%x) {dim = 1 : i64} : (tensor<64x65536xbf16>) -> tensor<64x65536xbf16>
  return %y : tensor<64x65536xbf16>
}

// -----

// A looped row of 70000 (three chunks of 32768, the last partial, one a reduction step) is
// staged over a cluster of 2 (parts of 36864 columns: 9 chunks); row-stage=0 keeps it looped.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.local_alloc"() : () -> memref<9x1x4096xbf16, 3>
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: cluster = 2
// CHECK-SAME: grid = ["1024"
// OFF: func.func private @fused_0(%arg0: tensor<512x70000xbf16>{{.*}}tile.launch = {args = [], grid = ["512"
func.func @layer_norm_tail(%x: tensor<512x70000xbf16>, %w: tensor<70000xbf16>, %b: tensor<70000xbf16>) -> tensor<512x70000xbf16> {
  %y = "prim.layer_norm"(%x, %w, %b) {eps = 1.0e-5 : f32} : (tensor<512x70000xbf16>, tensor<70000xbf16>, tensor<70000xbf16>) -> tensor<512x70000xbf16>
  return %y : tensor<512x70000xbf16>
}

// -----

// Rows of 60000 (four chunks of 16384, all in one reduction step: layer_norm's loop
// carries Welford's two values a lane, tile/online-var.mlir) are not split over a
// cluster: they stay looped, as rows of 98304 (whole chunks) do.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: tile.local_alloc
// CHECK: func.func private @fused_0(%arg0: tensor<512x60000xbf16>{{.*}}tile.launch = {args = [], grid = ["512"
func.func @layer_norm_two_chunks(%x: tensor<512x60000xbf16>, %w: tensor<60000xbf16>, %b: tensor<60000xbf16>) -> tensor<512x60000xbf16> {
  %y = "prim.layer_norm"(%x, %w, %b) {eps = 1.0e-5 : f32} : (tensor<512x60000xbf16>, tensor<60000xbf16>, tensor<60000xbf16>) -> tensor<512x60000xbf16>
  return %y : tensor<512x60000xbf16>
}

// -----

// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: tile.local_alloc
// CHECK: func.func private @fused_0(%arg0: tensor<512x98304xbf16>{{.*}}tile.launch = {args = [], grid = ["512"
func.func @layer_norm_whole_chunks(%x: tensor<512x98304xbf16>, %w: tensor<98304xbf16>, %b: tensor<98304xbf16>) -> tensor<512x98304xbf16> {
  %y = "prim.layer_norm"(%x, %w, %b) {eps = 1.0e-5 : f32} : (tensor<512x98304xbf16>, tensor<98304xbf16>, tensor<98304xbf16>) -> tensor<512x98304xbf16>
  return %y : tensor<512x98304xbf16>
}

// -----

// Three rows of 32768 share an SM's shared memory (40 registers a thread): the output
// loop's loads of a step (the weight's and the staged row's, as registers) stay within
// 5/8 of those: two chunks a step for rms_norm (16 registers; four, 32, spilled), two
// for layer_norm (weight and bias: 24).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: scf.for %{{.*}} step %c8192_i32  : i32 {
// CHECK-COUNT-2: "tile.load"(%arg1
// CHECK-NOT: "tile.load"
// CHECK: return
func.func @rms_norm_three(%x: tensor<4096x32768xbf16>, %w: tensor<32768xbf16>) -> tensor<4096x32768xbf16> {
  %y = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32} : (tensor<4096x32768xbf16>, tensor<32768xbf16>) -> tensor<4096x32768xbf16>
  return %y : tensor<4096x32768xbf16>
}

// -----

// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: scf.for %{{.*}} step %c8192_i32  : i32 {
// CHECK-COUNT-2: "tile.load"(%arg1
func.func @layer_norm_three(%x: tensor<4096x32768xbf16>, %w: tensor<32768xbf16>, %b: tensor<32768xbf16>) -> tensor<4096x32768xbf16> {
  %y = "prim.layer_norm"(%x, %w, %b) {eps = 1.0e-5 : f32} : (tensor<4096x32768xbf16>, tensor<32768xbf16>, tensor<32768xbf16>) -> tensor<4096x32768xbf16>
  return %y : tensor<4096x32768xbf16>
}
