// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile --pipeline=row-loads=1 | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile --pipeline | FileCheck %s --check-prefix=OFF
// RUN: awk '/^func.func @layer_norm/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --decompose --fuse --tile --pipeline=row-loads=1 --splitk | tt-translate --ptx -o %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// --pipeline row-loads=1 on --tile's staged row form: layer_norm's row of 32768 bf16 is
// staged in shared memory (8 slots); its output loop reads the slots and loads the weight
// and bias from global memory, two chunks a step (4 loads). Under row-loads=1 that loop
// takes the registers form with two stages: step 0's loads before the loop (each mask
// and-ed with 0 < 32768), each step issues step k + 8192's loads at its top (and-ed with
// k + 8192 < 32768, so the last step loads nothing) and yields them, and the body reads
// the carried tiles. The reduction loops (slots only) are left as they are; so is the
// output loop by default (row-loads=0).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_stages = 2
// CHECK: "tile.local_alloc"() : () -> memref<8x1x4096xbf16, 3>
// CHECK: scf.for %{{.*}} -> (tensor<4096xf32>)
// CHECK-NOT: "tile.load"
// CHECK: scf.yield
// CHECK: scf.for %{{.*}} -> (tensor<4096xf32>)
// CHECK-NOT: "tile.load"
// CHECK: scf.yield
// CHECK: [[OK0:%[0-9]+]] = arith.cmpi slt, %c0_i32{{.*}}, %c32768_i32
// CHECK: [[W0:%[0-9]+]] = "tile.load"(%arg1
// CHECK: [[B0:%[0-9]+]] = "tile.load"(%arg2
// CHECK: [[W1:%[0-9]+]] = "tile.load"(%arg1
// CHECK: [[B1:%[0-9]+]] = "tile.load"(%arg2
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c32768_i32{{.*}} step %c8192_i32 iter_args(%[[CW0:.*]] = [[W0]], %[[CB0:.*]] = [[B0]], %[[CW1:.*]] = [[W1]], %[[CB1:.*]] = [[B1]])
// CHECK: [[NK:%[0-9]+]] = arith.addi %[[K]], %{{[0-9]+}} : i32
// CHECK: [[OK:%[0-9]+]] = arith.cmpi slt, [[NK]], %c32768_i32
// CHECK: [[NW0:%[0-9]+]] = "tile.load"(%arg1
// CHECK: [[NB0:%[0-9]+]] = "tile.load"(%arg2
// CHECK: [[NW1:%[0-9]+]] = "tile.load"(%arg1
// CHECK: [[NB1:%[0-9]+]] = "tile.load"(%arg2
// CHECK-NOT: "tile.load"
// CHECK: "tile.local_load"
// CHECK: arith.extf %[[CW0]]
// CHECK: "tile.store"(%arg3
// CHECK: scf.yield [[NW0]], [[NB0]], [[NW1]], [[NB1]]
// OFF-LABEL: func.func @fused_0_kernel
// OFF-NOT: iter_args(%{{.*}} = %{{.*}}) -> (tensor<4096xbf16>
// OFF-NOT: tile.num_stages
func.func @layer_norm(%x: tensor<4096x32768xbf16>, %w: tensor<32768xbf16>, %b: tensor<32768xbf16>) -> tensor<4096x32768xbf16> {
  %y = "prim.layer_norm"(%x, %w, %b) {eps = 1.0e-5 : f32} : (tensor<4096x32768xbf16>, tensor<32768xbf16>, tensor<32768xbf16>) -> tensor<4096x32768xbf16>
  return %y : tensor<4096x32768xbf16>
}

// -----

// Loops that load from global memory without reading slots (the looped form: rms_norm of
// 65536 columns, one reduction level) and rows on chip are left as they are.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: tile.num_stages
// CHECK-NOT: iter_args(%{{.*}} = %{{.*}}) -> (tensor<{{[0-9]+}}xbf16>
// CHECK-LABEL: func.func private @fused_0
func.func @rms_norm_looped(%x: tensor<2048x65536xbf16>, %w: tensor<65536xbf16>) -> tensor<2048x65536xbf16> {
  %y = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32} : (tensor<2048x65536xbf16>, tensor<65536xbf16>) -> tensor<2048x65536xbf16>
  return %y : tensor<2048x65536xbf16>
}

// The option is 0 or 1; anything else is refused before the pass runs, with no output.
// RUN: rm -f %t.bad
// RUN: not tt-opt %s --split-input-file --decompose --fuse --tile --pipeline=row-loads=2 -o %t.bad 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not test -e %t.bad
// BAD: error: option 'row-loads' of pass 'pipeline' is 2, out of range [0, 1]
