// RUN: tt-opt %s --split-input-file --verify-diagnostics --convert-tile-to-gpu
// Without the verifier the diagnostics print as file:line:col, the exit status is 1 and no
// chunk crashes.
// RUN: not tt-opt %s --split-input-file --convert-tile-to-gpu 2>&1 | FileCheck %s --check-prefix=DIAG

// An arith op with two results.
func.func @two_results(%a: i32, %b: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error@+1 {{convert-tile-to-gpu: cannot lower 'arith.addui_extended' in a tile kernel}}
  %s, %o = arith.addui_extended %a, %b : i32, i1
  return
}

// -----

func.func @non_splat_constant() attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error@+1 {{convert-tile-to-gpu: only splat tile constants are supported}}
  %c = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]> : tensor<32xi32>
  return
}

// -----

// A tile.trans outside a dot is an exchange through shared memory in 16-byte runs (trans.c):
// both dims must be multiples of VEC (8 f16 elements here, from the f16 store).
func.func @trans_small(%p: !tile.ptr<f16>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %a = arith.constant dense<1.0> : tensor<4x128xf16>
  // expected-error@+1 {{convert-tile-to-gpu: tile.trans outside a dot needs both dims to be multiples of 8 (16-byte runs)}}
  %t = "tile.trans"(%a) : (tensor<4x128xf16>) -> tensor<128x4xf16>
  %f = tensor.collapse_shape %t [[0, 1]] : tensor<128x4xf16> into tensor<512xf16>
  %o = "tile.range"() {start = 0 : i32, end = 512 : i32} : () -> tensor<512xi32>
  %m = arith.constant dense<true> : tensor<512xi1>
  "tile.store"(%p, %o, %f, %m) : (!tile.ptr<f16>, tensor<512xi32>, tensor<512xf16>, tensor<512xi1>) -> ()
  return
}

// -----

// The exchange's XOR swizzle keeps a row's 16-byte chunks in the row only for a power of
// two of them: 48 columns are 6 chunks.
func.func @trans_chunks(%p: !tile.ptr<f16>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %a = arith.constant dense<1.0> : tensor<16x48xf16>
  // expected-error@+1 {{convert-tile-to-gpu: tile.trans outside a dot needs both dims to be multiples of 8 (16-byte runs), the columns a power of two of them}}
  %t = "tile.trans"(%a) : (tensor<16x48xf16>) -> tensor<48x16xf16>
  %f = tensor.collapse_shape %t [[0, 1]] : tensor<48x16xf16> into tensor<768xf16>
  %o = "tile.range"() {start = 0 : i32, end = 768 : i32} : () -> tensor<768xi32>
  %m = arith.constant dense<true> : tensor<768xi1>
  "tile.store"(%p, %o, %f, %m) : (!tile.ptr<f16>, tensor<768xi32>, tensor<768xf16>, tensor<768xi1>) -> ()
  return
}

// -----

func.func @three_dims() attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error@+1 {{convert-tile-to-gpu: only 1-D and 2-D tiles are supported}}
  %c = arith.constant dense<0.0> : tensor<4x8x32xf32>
  return
}

// -----

// The accumulator of a tile.dot starts from a splat constant (made as mma fragments).
func.func @dot_acc(%p: !tile.ptr<f16>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %o = "tile.range"() {start = 0 : i32, end = 1024 : i32} : () -> tensor<1024xi32>
  %m = arith.constant dense<true> : tensor<1024xi1>
  %a = arith.constant dense<1.0> : tensor<16x64xf16>
  %b = arith.constant dense<1.0> : tensor<64x64xf16>
  %z = arith.constant dense<0.0> : tensor<1024xf16>
  %h = "tile.load"(%p, %o, %m, %z) : (!tile.ptr<f16>, tensor<1024xi32>, tensor<1024xi1>, tensor<1024xf16>) -> tensor<1024xf16>
  %c0 = arith.extf %h : tensor<1024xf16> to tensor<1024xf32>
  %c = tensor.expand_shape %c0 [[0, 1]] output_shape [16, 64] : tensor<1024xf32> into tensor<16x64xf32>
  // expected-error@+1 {{convert-tile-to-gpu: a tile.dot accumulator must start from a splat constant or another tile.dot}}
  %d = "tile.dot"(%a, %b, %c) {mma = "wgmma"} : (tensor<16x64xf16>, tensor<64x64xf16>, tensor<16x64xf32>) -> tensor<16x64xf32>
  return
}

// -----

func.func @dot_types() attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %a = arith.constant dense<1.0> : tensor<16x64xf32>
  %b = arith.constant dense<1.0> : tensor<64x64xf32>
  %c = arith.constant dense<0.0> : tensor<16x64xf32>
  // expected-error@+1 {{'tile.dot' needs f16, bf16 or fp8 operands (one type, or two fp8 formats) and an f32 accumulator}}
  %d = "tile.dot"(%a, %b, %c) {mma = "wgmma"} : (tensor<16x64xf32>, tensor<64x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  return
}

// -----

// 100 elements over 128 threads.
// expected-error@+1 {{convert-tile-to-gpu: tile size 100 does not fit 128 threads (it must be a multiple of 32 * num_warps, with at most 64 runs of 16 bytes per thread)}}
func.func @not_a_multiple() attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %a = arith.constant dense<0.0> : tensor<100xf32>
  return
}

// -----

// 16384 elements over 32 threads: 512 groups of one element per thread, above 64 groups.
// expected-error@+1 {{convert-tile-to-gpu: tile size 16384 does not fit 32 threads (it must be a multiple of 32 * num_warps, with at most 64 runs of 16 bytes per thread)}}
func.func @too_many_per_thread() attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %a = arith.constant dense<0.0> : tensor<16384xf32>
  return
}

// -----

// expected-error@+1 {{'func.func' needs tile.num_warps, an integer from 1 to 32}}
func.func @no_warps(%a: i32) attributes {tile.kernel, tile.num_warps = 0 : i32} {
  return
}

// -----

// expected-error@+1 {{'func.func' needs tile.num_warps, an integer from 1 to 32}}
func.func @negative_warps(%a: i32) attributes {tile.kernel, tile.num_warps = -1 : i32} {
  return
}

// -----

// A bodiless function stops at parsing (issue 22, rows 1-2), before any pass.
// expected-error@+1 {{function @bodiless has no body: a tt program defines every function it declares}}
func.func private @bodiless(!tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32}

// -----

func.func @many_attrs(%a: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error@+1 {{convert-tile-to-gpu: 'arith.addi' has 21 attributes; at most 16 are supported}}
  %b = arith.addi %a, %a {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19} : i32
  return
}

// -----

func.func @reduce_kind(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %t = "tile.splat"(%a) : (f32) -> tensor<32xf32>
  // expected-error@+1 {{'tile.reduce' kind must be "sum", "max" or "min"}}
  %r = "tile.reduce"(%t) {axis = 0 : i32, kind = "prod"} : (tensor<32xf32>) -> f32
  return
}

// -----

func.func @cluster_reduce_size(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error@+1 {{'tile.cluster_reduce' needs size, an integer from 2 to 8}}
  %r = "tile.cluster_reduce"(%a) {kind = "sum", size = 16 : i32} : (f32) -> f32
  return
}

// -----

func.func @cluster_reduce_kind(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error@+1 {{'tile.cluster_reduce' kind must be "sum", "max" or "min"}}
  %r = "tile.cluster_reduce"(%a) {kind = "prod", size = 2 : i32} : (f32) -> f32
  return
}

// -----

func.func @cluster_reduce_tile_kind(%x: f32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %a = "tile.splat"(%x) : (f32) -> tensor<16x64xf32>
  // expected-error@+1 {{'tile.cluster_reduce' of a tile needs kind "sum" and a 2-D f32 tile, its result of the same type}}
  %r = "tile.cluster_reduce"(%a) {kind = "max", size = 2 : i32} : (tensor<16x64xf32>) -> tensor<16x64xf32>
  return
}

// -----

func.func @cluster_reduce_tile_type(%x: f32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %a = "tile.splat"(%x) : (f32) -> tensor<16x64xf32>
  // expected-error@+1 {{expected 'tensor<16x64xf32>' but got 'tensor<64x16xf32>'}}
  %r = "tile.cluster_reduce"(%a) {kind = "sum", size = 2 : i32} : (tensor<16x64xf32>) -> tensor<64x16xf32>
  return
}

// -----

func.func @cluster_reduce_tile_flat(%x: f32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %a = "tile.splat"(%x) : (f32) -> tensor<16x64xf32>
  // expected-error@+1 {{convert-tile-to-gpu: tile.cluster_reduce of a tile needs a dot's accumulator}}
  %r = "tile.cluster_reduce"(%a) {kind = "sum", size = 2 : i32} : (tensor<16x64xf32>) -> tensor<16x64xf32>
  return
}

// -----

// expected-error@+1 {{a tile.kernel's argument 0 must be a !tile.ptr, an integer, a float or a !hopper.tma_desc}}
func.func @tile_argument(%t: tensor<128xf32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  return
}

// -----

// One warp over 512 rows: 32 fragments of 16 rows per warp, above 16.
func.func @dot_too_tall(%p: !tile.ptr<f16>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %o = "tile.range"() {start = 0 : i32, end = 256 : i32} : () -> tensor<256xi32>
  %m = arith.constant dense<true> : tensor<256xi1>
  %z = arith.constant dense<0.0> : tensor<256xf16>
  %l = "tile.load"(%p, %o, %m, %z) : (!tile.ptr<f16>, tensor<256xi32>, tensor<256xi1>, tensor<256xf16>) -> tensor<256xf16>
  %a = arith.constant dense<1.0> : tensor<512x16xf16>
  %b = arith.constant dense<1.0> : tensor<16x16xf16>
  %c = arith.constant dense<0.0> : tensor<512x16xf32>
  // expected-error@+1 {{convert-tile-to-gpu: a 512x16x16 tile.dot does not fit 1 warps of 16x8 mma fragments (at most 16 rows and 64 fragments per warp, operands in 16-byte runs)}}
  %d = "tile.dot"(%a, %b, %c) {mma = "sync"} : (tensor<512x16xf16>, tensor<16x16xf16>, tensor<512x16xf32>) -> tensor<512x16xf32>
  return
}

// -----

// The recorded form must fit the dot: 16x64x64 on 4 warps takes the swapped form, not the
// direct one (whose M is 64 per warpgroup).
func.func @dot_form(%p: !tile.ptr<f16>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %o = "tile.range"() {start = 0 : i32, end = 1024 : i32} : () -> tensor<1024xi32>
  %m = arith.constant dense<true> : tensor<1024xi1>
  %z = arith.constant dense<0.0> : tensor<1024xf16>
  %l = "tile.load"(%p, %o, %m, %z) : (!tile.ptr<f16>, tensor<1024xi32>, tensor<1024xi1>, tensor<1024xf16>) -> tensor<1024xf16>
  %a = arith.constant dense<1.0> : tensor<16x64xf16>
  %b = arith.constant dense<1.0> : tensor<64x64xf16>
  %c = arith.constant dense<0.0> : tensor<16x64xf32>
  // expected-error@+1 {{convert-tile-to-gpu: tile.dot's mma = "wgmma-direct" does not fit this 16x64x64 dot on 4 warps with its operands where they are (--tile and --pipeline record the form that fits)}}
  %d = "tile.dot"(%a, %b, %c) {mma = "wgmma-direct"} : (tensor<16x64xf16>, tensor<64x64xf16>, tensor<16x64xf32>) -> tensor<16x64xf32>
  return
}

// -----

// A ring must be a static memref<S x R x C x T, 3> with rows of whole 16-byte chunks.
func.func @ring_rank(%p: !tile.ptr<f16>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error@+1 {{'tile.local_alloc' gives a static memref<S x R x C x T, 3> whose rows are a multiple of 16 bytes}}
  %r = "tile.local_alloc"() : () -> memref<16x20xf16, 3>
  return
}

// -----

func.func @ring_row_bytes(%p: !tile.ptr<f16>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error@+1 {{'tile.local_alloc' gives a static memref<S x R x C x T, 3> whose rows are a multiple of 16 bytes}}
  %r = "tile.local_alloc"() : () -> memref<2x16x12xf16, 3>
  return
}

// -----

// tile.local_load gives one whole slot: its tile is R x C of the ring's element type.
func.func @local_load_shape(%i: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = "tile.local_alloc"() : () -> memref<2x16x16xf16, 3>
  // expected-error@+1 {{'tile.local_load' gives a static tile of one slot of its memref<S x R x C x T, 3> (R * C elements of T)}}
  %t = "tile.local_load"(%r, %i) : (memref<2x16x16xf16, 3>, i32) -> tensor<16x32xf16>
  return
}

// -----

// tile.async_copy moves runs of 4, 8 or a multiple of 16 bytes: a 32-element i8 tile over one warp has
// runs of 1.
func.func @async_copy_run(%p: !tile.ptr<i8>, %i: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = "tile.local_alloc"() : () -> memref<2x2x16xi8, 3>
  %o = "tile.range"() {start = 0 : i32, end = 32 : i32} : () -> tensor<32xi32>
  %m = arith.constant dense<true> : tensor<32xi1>
  // expected-error@+1 {{convert-tile-to-gpu: tile.async_copy needs a tile.local_alloc buffer and runs of 4, 8 or a multiple of 16 bytes}}
  "tile.async_copy"(%p, %o, %m, %r, %i) : (!tile.ptr<i8>, tensor<32xi32>, tensor<32xi1>, memref<2x2x16xi8, 3>, i32) -> ()
  return
}

// -----

// hopper.mbarrier_alloc makes 1 to 64 mbarriers.
func.func @mbarriers() attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error@+1 {{'hopper.mbarrier_alloc' needs count, an integer from 1 to 64}}
  %b = "hopper.mbarrier_alloc"() {count = 0 : i32} : () -> !hopper.mbarrier
  return
}

// -----

// A ring that TMA fills holds 128-byte swizzled rows of 64 two-byte elements.
func.func @tma_ring(%d: !hopper.tma_desc, %i: i32, %p: i1) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = "tile.local_alloc"() : () -> memref<2x8x32xf32, 3>
  %b = "hopper.mbarrier_alloc"() {count = 2 : i32} : () -> !hopper.mbarrier
  %o = "tile.range"() {start = 0 : i32, end = 256 : i32} : () -> tensor<256xi32>
  // expected-error@+1 {{'hopper.tma_load' needs a static memref<S x R x C x T, 3> ring of 1- or 2-byte T, R a multiple of 8 and rows of a multiple of 128 bytes}}
  "hopper.tma_load"(%d, %r, %i, %b, %o, %p) {dims = array<i64: 8, 32>} : (!hopper.tma_desc, memref<2x8x32xf32, 3>, i32, !hopper.mbarrier, tensor<256xi32>, i1) -> ()
  return
}

// -----

// A buffer marked tile.swizzled (--pipeline's resident copy) is laid out as a TMA ring:
// 1- or 2-byte elements, rows of a multiple of 128 bytes, 8 rows at a time.
func.func @swizzled_rows() attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error@+1 {{convert-tile-to-gpu: a ring that hopper.tma_load fills (or marked tile.swizzled) needs 1- or 2-byte elements, a multiple of 8 rows and rows of a multiple of 128 bytes}}
  %r = "tile.local_alloc"() {tile.swizzled} : () -> memref<2x4x64xf16, 3>
  return
}

// -----

// hopper.tma_load copies into a tile.local_alloc ring and completes on the mbarriers of
// a hopper.mbarrier_alloc (a kernel argument cannot be one); dims is [D0, D1] or
// [B, D0, D1].
// expected-error@+1 {{a tile.kernel's argument 1 must be a !tile.ptr, an integer, a float or a !hopper.tma_desc}}
func.func @tma_barriers(%d: !hopper.tma_desc, %b: !hopper.mbarrier, %i: i32, %p: i1) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = "tile.local_alloc"() : () -> memref<2x8x64xf16, 3>
  %o = "tile.range"() {start = 0 : i32, end = 512 : i32} : () -> tensor<512xi32>
  // expected-error@+1 {{'hopper.tma_load' needs a static memref<S x R x C x T, 3> ring}}
  "hopper.tma_load"(%d, %r, %i, %b, %o, %p) {dims = array<i64: 8, 64, 1, 1>} : (!hopper.tma_desc, memref<2x8x64xf16, 3>, i32, !hopper.mbarrier, tensor<512xi32>, i1) -> ()
  return
}

// -----

// A batched map's dims [B, D0, D1] are each at least 1, D0 x D1 within i32 (the offsets).
func.func @tma_batched_dims(%d: !hopper.tma_desc, %i: i32, %p: i1) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = "tile.local_alloc"() : () -> memref<2x8x64xf16, 3>
  %b = "hopper.mbarrier_alloc"() {count = 2 : i32} : () -> !hopper.mbarrier
  %o = "tile.range"() {start = 0 : i32, end = 512 : i32} : () -> tensor<512xi32>
  // expected-error@+1 {{'hopper.tma_load' needs a static memref<S x R x C x T, 3> ring}}
  "hopper.tma_load"(%d, %r, %i, %b, %o, %p) {dims = array<i64: 0, 1000, 64>} : (!hopper.tma_desc, memref<2x8x64xf16, 3>, i32, !hopper.mbarrier, tensor<512xi32>, i1) -> ()
  // expected-error@+1 {{'hopper.tma_load' needs a static memref<S x R x C x T, 3> ring}}
  "hopper.tma_load"(%d, %r, %i, %b, %o, %p) {dims = array<i64: 2, 65536, 65536>} : (!hopper.tma_desc, memref<2x8x64xf16, 3>, i32, !hopper.mbarrier, tensor<512xi32>, i1) -> ()
  return
}

// -----

// A TMA slot holds its tile 128-byte swizzled, for wgmma: no other op reads it.
func.func @tma_slot_use(%d: !hopper.tma_desc, %i: i32, %p: i1) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = "tile.local_alloc"() : () -> memref<2x16x64xf16, 3>
  %b = "hopper.mbarrier_alloc"() {count = 2 : i32} : () -> !hopper.mbarrier
  %o = "tile.range"() {start = 0 : i32, end = 1024 : i32} : () -> tensor<1024xi32>
  "hopper.tma_load"(%d, %r, %i, %b, %o, %p) {dims = array<i64: 16, 64>} : (!hopper.tma_desc, memref<2x16x64xf16, 3>, i32, !hopper.mbarrier, tensor<1024xi32>, i1) -> ()
  %t = "tile.local_load"(%r, %i) : (memref<2x16x64xf16, 3>, i32) -> tensor<16x64xf16>
  // expected-error@+1 {{convert-tile-to-gpu: a TMA slot (128-byte swizzled) can only feed tile.dot}}
  %n = arith.negf %t : tensor<16x64xf16>
  return
}

// -----

// hopper.wgmma_wait waits for warpgroup MMA groups: a target without wgmma has none.
func.func @wgmma_wait_sync() attributes {tile.kernel, tile.num_warps = 4 : i32} {
  // DIAG: {{^}}{{.*}}convert-tile-to-gpu/invalid.mlir:[[@LINE+2]]:3: error: convert-tile-to-gpu: hopper.wgmma_wait needs mma=wgmma (sm_90a){{$}}
  // expected-error@+1 {{convert-tile-to-gpu: hopper.wgmma_wait needs mma=wgmma (sm_90a)}}
  "hopper.wgmma_wait"() {pending = 1 : i32} : () -> ()
  return
}

// -----

// scf.if in a tile kernel (split-K's last slice) takes a scalar condition, no results and
// no else-branch.
func.func @if_with_else(%c: i1, %p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error@+1 {{convert-tile-to-gpu: scf.if needs a lowered scalar condition, no results and no else-branch}}
  scf.if %c {
    "tile.barrier"() : () -> ()
  } else {
    "tile.barrier"() : () -> ()
  }
  return
}


// -----

// A multicast box (--tile multicast) splits the ring's R rows over C blocks in whole
// 8-row groups of the swizzle: C from 2 to 8 dividing R / 8, a 2-D map.
func.func @tma_multicast(%d: !hopper.tma_desc, %i: i32, %p: i1) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = "tile.local_alloc"() : () -> memref<2x16x64xf16, 3>
  %b = "hopper.mbarrier_alloc"() {count = 2 : i32} : () -> !hopper.mbarrier
  %o = "tile.range"() {start = 0 : i32, end = 1024 : i32} : () -> tensor<1024xi32>
  // expected-error@+1 {{'hopper.tma_load' multicast needs an integer from 2 to 8, dims of rank 2 and ring rows a multiple of 8 times it}}
  "hopper.tma_load"(%d, %r, %i, %b, %o, %p) {dims = array<i64: 16, 64>, multicast = 4 : i32} : (!hopper.tma_desc, memref<2x16x64xf16, 3>, i32, !hopper.mbarrier, tensor<1024xi32>, i1) -> ()
  // expected-error@+1 {{'hopper.tma_load' multicast needs an integer from 2 to 8}}
  "hopper.tma_load"(%d, %r, %i, %b, %o, %p) {dims = array<i64: 16, 64>, multicast = 1 : i32} : (!hopper.tma_desc, memref<2x16x64xf16, 3>, i32, !hopper.mbarrier, tensor<1024xi32>, i1) -> ()
  // expected-error@+1 {{'hopper.tma_load' multicast needs an integer from 2 to 8}}
  "hopper.tma_load"(%d, %r, %i, %b, %o, %p) {dims = array<i64: 1, 16, 64>, multicast = 2 : i32} : (!hopper.tma_desc, memref<2x16x64xf16, 3>, i32, !hopper.mbarrier, tensor<1024xi32>, i1) -> ()
  // expected-error@+1 {{'hopper.tma_load' multicast needs an integer from 2 to 8}}
  "hopper.tma_load"(%d, %r, %i, %b, %o, %p) {dims = array<i64: 16, 64>, multicast = "two"} : (!hopper.tma_desc, memref<2x16x64xf16, 3>, i32, !hopper.mbarrier, tensor<1024xi32>, i1) -> ()
  return
}

// -----

// hopper.producer_warp names the warp a kernel runs after its tile.num_warps: the kernel
// must have one (tile.producer_warps = 1, or 4: a warpgroup).
func.func @no_producer() attributes {tile.kernel, tile.num_warps = 4 : i32} {
  // expected-error@+1 {{convert-tile-to-gpu: hopper.producer_warp needs its kernel's tile.producer_warps = 1 or 4}}
  %p = "hopper.producer_warp"() : () -> i1
  return
}

// -----

// 32 warps and a producer warp pass the 1024 threads of a block.
// expected-error@+1 {{convert-tile-to-gpu: tile.num_warps = 32 is out of range (1 to 32, with tile.producer_warps)}}
func.func @too_many_warps() attributes {tile.kernel, tile.num_warps = 32 : i32, tile.producer_warps = 1 : i32} {
  return
}

// -----

// tile.producer_warps = 1 goes with exactly one split on hopper.producer_warp: without it
// the extra warp would run the whole kernel as a copy of warp 0.
// expected-error@+1 {{convert-tile-to-gpu: a kernel with tile.producer_warps (1 or 4) splits once on hopper.producer_warp (a top-level scf.if), and only such a kernel (it has 0 such splits)}}
func.func @no_split() attributes {tile.kernel, tile.num_warps = 4 : i32, tile.producer_warps = 1 : i32} {
  return
}

// -----

// The producer warp's region takes no barrier of the block: only it would reach one.
func.func @producer_barrier() attributes {tile.kernel, tile.num_warps = 4 : i32, tile.producer_warps = 1 : i32} {
  %p = "hopper.producer_warp"() : () -> i1
  scf.if %p {
    // expected-error@+1 {{convert-tile-to-gpu: 'tile.barrier' cannot run in the producer warp's region (index math, loops, mbarrier waits and arrivals and TMA copies only)}}
    "tile.barrier"() : () -> ()
  } else {
  }
  return
}

// -----

// hopper.producer_warp is only the split's condition.
func.func @producer_value(%a: i32) attributes {tile.kernel, tile.num_warps = 4 : i32, tile.producer_warps = 1 : i32} {
  // expected-error@+1 {{convert-tile-to-gpu: hopper.producer_warp may only be the condition of an scf.if (the kernel's split)}}
  %p = "hopper.producer_warp"() : () -> i1
  %s = arith.select %p, %a, %a : i32
  scf.if %p {
  } else {
  }
  return
}

// -----

// The split is a top-level op of its kernel: nested in a loop, some warps would take it
// more often than the others.
func.func @nested_split(%n: i32) attributes {tile.kernel, tile.num_warps = 4 : i32, tile.producer_warps = 1 : i32} {
  %p = "hopper.producer_warp"() : () -> i1
  scf.if %p {
  } else {
  }
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error@+1 {{convert-tile-to-gpu: the scf.if on hopper.producer_warp must be a top-level op of its kernel}}
    scf.if %p {
    } else {
    }
  }
  return
}
