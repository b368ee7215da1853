// RUN: tt-opt %s --mlir-print-debuginfo=false --fuse --tile --convert-tile-to-gpu | FileCheck %s

// bf16 loads and stores of contiguous offsets become 16-byte vector accesses guarded by
// one lane of the mask; the tail takes the per-element path.
// CHECK: gpu.module @tt_kernels
// CHECK: gpu.func @fused_0_kernel(%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32) kernel
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 16 : i32
// CHECK: gpu.thread_id x
// CHECK: gpu.block_id x
// CHECK: scf.if
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xbf16>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<1>
// CHECK: gpu.return
func.func @neg(%x: tensor<1000xbf16>) -> tensor<1000xbf16> {
  %y = "prim.neg"(%x) : (tensor<1000xbf16>) -> tensor<1000xbf16>
  return %y : tensor<1000xbf16>
}

// f32 at the default tile: 4 elements (16 bytes) per access, so each thread holds two
// groups, and asks for 2048 / (128 threads x 2 groups) = 8 programs per SM.
// CHECK: gpu.func @fused_1_kernel
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 8 : i32
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
func.func @neg_f32(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %y = "prim.neg"(%x) : (tensor<1000xf32>) -> tensor<1000xf32>
  return %y : tensor<1000xf32>
}
