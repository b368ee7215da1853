// RUN: tt-opt %s --split-input-file --mlir-print-debuginfo=false --convert-tile-to-gpu | FileCheck %s
// A tile.async_copy into a buffer marked tile.swizzled (--pipeline's resident form) lands
// in TMA's layout: each aligned run of the rows (here rows of 68 f16, 8-byte runs) is one
// cp.async of its bytes to the 128-byte-swizzled address (16-byte chunk ^ row % 8), its
// source size 0 where the mask is off; the wait then fences the copies to the async proxy
// (wgmma reads them) before the barrier.
// CHECK-LABEL: gpu.func @swizzled_copy
// CHECK: arith.xori
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache = ca, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-COUNT-3: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache = ca
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
func.func @swizzled_copy(%p: !tile.ptr<f16>, %i: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = "tile.local_alloc"() {tile.swizzled} : () -> memref<1x8x64xf16, 3>
  %e = "tile.range"() {start = 0 : i32, end = 512 : i32} : () -> tensor<512xi32>
  %c64 = arith.constant dense<64> : tensor<512xi32>
  %c68 = arith.constant dense<68> : tensor<512xi32>
  %row = arith.divui %e, %c64 : tensor<512xi32>
  %col = arith.remui %e, %c64 : tensor<512xi32>
  %rs = arith.muli %row, %c68 : tensor<512xi32>
  %o = arith.addi %rs, %col : tensor<512xi32>
  %c60 = arith.constant dense<60> : tensor<512xi32>
  %m = arith.cmpi slt, %col, %c60 : tensor<512xi32>
  "tile.async_copy"(%p, %o, %m, %r, %i) : (!tile.ptr<f16>, tensor<512xi32>, tensor<512xi1>, memref<1x8x64xf16, 3>, i32) -> ()
  "tile.async_commit"() : () -> ()
  "tile.async_wait"() {pending = 0 : i32} : () -> ()
  return
}

// -----

// Rows of 1-byte alignment (fp8 rows of 67): no cp.async piece fits; the lanes are
// loaded one by one without a branch and stored 8 at a time (groups of 8: the kernel's
// smallest tile, 256 elements over 32 threads) at their place in the 16-byte chunk (the
// chunk's offset + the column's offset in it: groups at columns 8 mod 16 in its upper
// half).
// CHECK-LABEL: gpu.func @swizzled_lanes
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: arith.andi %{{.*}}, %c15_i32
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<8xi8>, !llvm.ptr<3>
// CHECK: nvvm.fence.proxy
func.func @swizzled_lanes(%p: !tile.ptr<f8E4M3FN>, %i: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = "tile.local_alloc"() {tile.swizzled} : () -> memref<1x8x128xf8E4M3FN, 3>
  %small = "tile.range"() {start = 0 : i32, end = 256 : i32} : () -> tensor<256xi32>
  %e = "tile.range"() {start = 0 : i32, end = 1024 : i32} : () -> tensor<1024xi32>
  %c128 = arith.constant dense<128> : tensor<1024xi32>
  %c67 = arith.constant dense<67> : tensor<1024xi32>
  %row = arith.divui %e, %c128 : tensor<1024xi32>
  %col = arith.remui %e, %c128 : tensor<1024xi32>
  %rs = arith.muli %row, %c67 : tensor<1024xi32>
  %o = arith.addi %rs, %col : tensor<1024xi32>
  %m = arith.cmpi slt, %col, %c67 : tensor<1024xi32>
  "tile.async_copy"(%p, %o, %m, %r, %i) : (!tile.ptr<f8E4M3FN>, tensor<1024xi32>, tensor<1024xi1>, memref<1x8x128xf8E4M3FN, 3>, i32) -> ()
  "tile.async_commit"() : () -> ()
  "tile.async_wait"() {pending = 0 : i32} : () -> ()
  return
}
