// RUN: tt-opt %s --convert-tile-to-gpu='sm=90' | FileCheck %s
// RUN: tt-opt %s --convert-tile-to-gpu | FileCheck %s --check-prefix=SM80
// RUN: not tt-opt %s --convert-tile-to-gpu='sm=60' 2>&1 | FileCheck %s --check-prefix=BAD

// tile.atomic_add of contiguous offsets: from sm=90 each 16-byte run is one vector red
// (8 halves as 4 f16x2 words, through nvvm.inline_ptx; PTX ISA 8.1); below it, and for
// the lanes the fast path's guard sends to the slow path, one atomicrmw per element. (The
// PTX, through ptxas: splitk/bias-reps.mlir.)
// CHECK-LABEL: gpu.func @add_f16
// CHECK: scf.if
// CHECK: vector.bitcast %{{.*}} : vector<8xf16> to vector<4xi32>
// CHECK: nvvm.inline_ptx "red.global.add.noftz.v4.f16x2 [$0], {$1, $2, $3, $4};" ro(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !llvm.ptr<1>, i32, i32, i32, i32)
// CHECK-NOT: nvvm.inline_ptx
// CHECK: } else {
// CHECK: llvm.atomicrmw fadd
// SM80-LABEL: gpu.func @add_f16
// SM80-NOT: nvvm.inline_ptx
// SM80-COUNT-8: llvm.atomicrmw fadd %{{.*}}, %{{.*}} monotonic : !llvm.ptr<1>, f16
// BAD: error: option 'sm' of pass 'convert-tile-to-gpu' is 60, out of range [70, 120]
func.func @add_f16(%p: !tile.ptr<f16>, %n: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = "tile.range"() {start = 0 : i32, end = 1024 : i32} : () -> tensor<1024xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<1024xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<1024xi32>
  %v = arith.constant dense<1.0> : tensor<1024xf16>
  "tile.atomic_add"(%p, %r, %v, %m) : (!tile.ptr<f16>, tensor<1024xi32>, tensor<1024xf16>, tensor<1024xi1>) -> ()
  return
}

// f32 and bf16 (runs of 8 elements: the kernel's narrowest element, bf16, sets the run):
// v4.f32 for each 16 bytes of f32 (two a run); bf16 as bf16x2 words.
// CHECK-LABEL: gpu.func @add_f32_bf16
// CHECK-COUNT-2: nvvm.inline_ptx "red.global.add.v4.f32 [$0], {$1, $2, $3, $4};"
// CHECK-NOT: red.global.add.v4.f32
// CHECK: nvvm.inline_ptx "red.global.add.noftz.v4.bf16x2 [$0], {$1, $2, $3, $4};"
func.func @add_f32_bf16(%p: !tile.ptr<f32>, %q: !tile.ptr<bf16>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = "tile.range"() {start = 0 : i32, end = 1024 : i32} : () -> tensor<1024xi32>
  %m = arith.constant dense<true> : tensor<1024xi1>
  %v = arith.constant dense<1.0> : tensor<1024xf32>
  "tile.atomic_add"(%p, %r, %v, %m) : (!tile.ptr<f32>, tensor<1024xi32>, tensor<1024xf32>, tensor<1024xi1>) -> ()
  %w = arith.constant dense<1.0> : tensor<1024xbf16>
  "tile.atomic_add"(%q, %r, %w, %m) : (!tile.ptr<bf16>, tensor<1024xi32>, tensor<1024xbf16>, tensor<1024xi1>) -> ()
  return
}

// Runs shorter than 16 bytes (256-element tiles on 128 threads: 2 elements a run): f32
// as .v2, a pair of halves as one f16x2 word (no braces).
// CHECK-LABEL: gpu.func @add_short
// CHECK: nvvm.inline_ptx "red.global.add.v2.f32 [$0], {$1, $2};"
// CHECK: nvvm.inline_ptx "red.global.add.noftz.f16x2 [$0], $1;"
func.func @add_short(%p: !tile.ptr<f32>, %q: !tile.ptr<f16>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = "tile.range"() {start = 0 : i32, end = 256 : i32} : () -> tensor<256xi32>
  %m = arith.constant dense<true> : tensor<256xi1>
  %v = arith.constant dense<1.0> : tensor<256xf32>
  "tile.atomic_add"(%p, %r, %v, %m) : (!tile.ptr<f32>, tensor<256xi32>, tensor<256xf32>, tensor<256xi1>) -> ()
  %w = arith.constant dense<1.0> : tensor<256xf16>
  "tile.atomic_add"(%q, %r, %w, %m) : (!tile.ptr<f16>, tensor<256xi32>, tensor<256xf16>, tensor<256xi1>) -> ()
  return
}
