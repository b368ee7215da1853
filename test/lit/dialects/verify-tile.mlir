// RUN: tt-opt %s --split-input-file --verify-diagnostics
// RUN: not tt-opt %s --split-input-file 2>&1 | FileCheck %s
// The tile and hopper verifiers (dialects/tile/verify.c, dialects/hopper/verify.c): what
// IRDL cannot state, checked when the program is parsed, before any pass. One case per
// rule; the last chunk verifies.

// CHECK: {{^}}{{.*}}verify-tile.mlir:[[@LINE+3]]:8: error: 'tile.range' gives a 1-D i32 tile of end - start = 64 elements{{$}}
func.func @range_size() attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error@+1 {{'tile.range' gives a 1-D i32 tile of end - start = 64 elements}}
  %r = "tile.range"() {start = 0 : i32, end = 64 : i32} : () -> tensor<32xi32>
  return
}

// -----

func.func @range_order() attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error@+1 {{'tile.range' needs end, an integer from 33 to 2147483647}}
  %r = "tile.range"() {start = 32 : i32, end = 0 : i32} : () -> tensor<32xi32>
  return
}

// -----

func.func @splat_type(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error@+1 {{'tile.splat' gives a static tile of its operand's type}}
  %t = "tile.splat"(%a) : (f32) -> tensor<32xf16>
  return
}

// -----

func.func @broadcast_dims(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %t = "tile.splat"(%a) : (f32) -> tensor<2x32xf32>
  // expected-error@+1 {{'tile.broadcast' needs a static tile of the result's rank and element type whose dims are 1 or the result's}}
  %b = "tile.broadcast"(%t) : (tensor<2x32xf32>) -> tensor<4x32xf32>
  return
}

// -----

func.func @expand_axis(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %t = "tile.splat"(%a) : (f32) -> tensor<32xf32>
  // expected-error@+1 {{'tile.expand_dims' needs axis, an integer from 0 to 1}}
  %b = "tile.expand_dims"(%t) {axis = 2 : i32} : (tensor<32xf32>) -> tensor<32x1xf32>
  return
}

// -----

func.func @expand_shape(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %t = "tile.splat"(%a) : (f32) -> tensor<32xf32>
  // expected-error@+1 {{'tile.expand_dims' gives its operand's tile with a dim of 1 at axis 0}}
  %b = "tile.expand_dims"(%t) {axis = 0 : i32} : (tensor<32xf32>) -> tensor<32x1xf32>
  return
}

// -----

// A store writes elements of its pointer's type.
func.func @store_ptr(%p: !tile.ptr<f16>, %v: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %o = "tile.range"() {start = 0 : i32, end = 32 : i32} : () -> tensor<32xi32>
  %m = arith.constant dense<true> : tensor<32xi1>
  %t = "tile.splat"(%v) : (f32) -> tensor<32xf32>
  // expected-error@+1 {{'tile.store' reads or writes elements of another type than its pointer's}}
  "tile.store"(%p, %o, %t, %m) : (!tile.ptr<f16>, tensor<32xi32>, tensor<32xf32>, tensor<32xi1>) -> ()
  return
}

// -----

func.func @atomic_offsets(%p: !tile.ptr<f32>, %v: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %o = arith.constant dense<0> : tensor<32xi64>
  %m = arith.constant dense<true> : tensor<32xi1>
  %t = "tile.splat"(%v) : (f32) -> tensor<32xf32>
  // expected-error@+1 {{'tile.atomic_add' needs i32 offsets and an i1 mask}}
  "tile.atomic_add"(%p, %o, %t, %m) : (!tile.ptr<f32>, tensor<32xi64>, tensor<32xf32>, tensor<32xi1>) -> ()
  return
}

// -----

func.func @atomic_extent(%p: !tile.ptr<f32>, %v: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %o = "tile.range"() {start = 0 : i32, end = 32 : i32} : () -> tensor<32xi32>
  %m = arith.constant dense<true> : tensor<32xi1>
  %t = "tile.splat"(%v) : (f32) -> tensor<32xf32>
  // expected-error@+1 {{'tile.atomic_add' needs tile.extent, an integer from 1 to 2147483647}}
  "tile.atomic_add"(%p, %o, %t, %m) {tile.extent = 0 : i64} : (!tile.ptr<f32>, tensor<32xi32>, tensor<32xf32>, tensor<32xi1>) -> ()
  return
}

// -----

func.func @load_early(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %o = "tile.range"() {start = 0 : i32, end = 32 : i32} : () -> tensor<32xi32>
  %m = arith.constant dense<true> : tensor<32xi1>
  %z = arith.constant dense<0.0> : tensor<32xf32>
  // expected-error@+1 {{'tile.load' takes `tile.early` as a unit attribute}}
  %x = "tile.load"(%p, %o, %m, %z) {tile.early = 1 : i32} : (!tile.ptr<f32>, tensor<32xi32>, tensor<32xi1>, tensor<32xf32>) -> tensor<32xf32>
  return
}

// -----

func.func @arrive_count(%p: !tile.ptr<f32>, %i: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error@+1 {{'tile.arrive' needs count, an integer from 2 to 65535}}
  %l = "tile.arrive"(%p, %i) {count = 1 : i32} : (!tile.ptr<f32>, i32) -> i1
  return
}

// -----

func.func @k(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %w: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  return
}
// expected-error@+1 {{tile.launch: workspace = S (an integer, 1 to 65535) goes with reduce = @kernel (a tile.kernel function) or with counters (a unit attribute), not both}}
func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {prim.fusion = "dot", tile.launch = {args = [], counters, grid = ["1", "2", "1"], kernel = @k, reduce = @k, workspace = 2 : i32}} {
  return %x : tensor<4xf32>
}

// -----

func.func @reduce_result(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %t = "tile.splat"(%a) : (f32) -> tensor<4x32xf32>
  // expected-error@+1 {{'tile.reduce' gives the operand's tile without dim 1}}
  %r = "tile.reduce"(%t) {axis = 1 : i32, kind = "sum"} : (tensor<4x32xf32>) -> tensor<32xf32>
  return
}

// -----

func.func @trans_shape(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %t = "tile.splat"(%a) : (f32) -> tensor<4x32xf32>
  // expected-error@+1 {{'tile.trans' gives a static 2-D tile's transpose}}
  %r = "tile.trans"(%t) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  return
}

// -----

func.func @dot_k(%x: f16, %z: f32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %a = "tile.splat"(%x) : (f16) -> tensor<16x64xf16>
  %b = "tile.splat"(%x) : (f16) -> tensor<32x16xf16>
  %c = "tile.splat"(%z) : (f32) -> tensor<16x16xf32>
  // expected-error@+1 {{'tile.dot' needs static 2-D tiles a MxK, b KxN and acc MxN}}
  %d = "tile.dot"(%a, %b, %c) {mma = "sync"} : (tensor<16x64xf16>, tensor<32x16xf16>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @async_copy_slot(%p: !tile.ptr<f16>, %i: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = "tile.local_alloc"() : () -> memref<2x16x16xf16, 3>
  %o = "tile.range"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %m = arith.constant dense<true> : tensor<128xi1>
  // expected-error@+1 {{'tile.async_copy' needs i32 offsets and an i1 mask of one static shape, as many elements as a slot of its memref<S x R x C x T, 3>, and a pointer to T}}
  "tile.async_copy"(%p, %o, %m, %r, %i) : (!tile.ptr<f16>, tensor<128xi32>, tensor<128xi1>, memref<2x16x16xf16, 3>, i32) -> ()
  return
}

// -----

func.func @async_wait() attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error@+1 {{'tile.async_wait' needs pending, an integer from 0 to 64}}
  "tile.async_wait"() {pending = -1 : i32} : () -> ()
  return
}

// -----

// expected-error@+1 {{a tile.kernel function returns nothing (it stores through its pointers)}}
func.func @kernel_result(%a: i32) -> i32 attributes {tile.kernel, tile.num_warps = 1 : i32} {
  return %a : i32
}

// -----

// expected-error@+1 {{'func.func' needs tile.num_stages, an integer from 1 to 64}}
func.func @stages(%a: i32) attributes {tile.kernel, tile.num_warps = 1 : i32, tile.num_stages = 0 : i32} {
  return
}

// -----

// expected-error@+1 {{'func.func' needs tile.programs_per_sm, an integer from 1 to 32}}
func.func @programs(%a: i32) attributes {tile.kernel, tile.num_warps = 1 : i32, tile.programs_per_sm = 33 : i32} {
  return
}

// -----

func.func @k(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %n: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  return
}
// expected-error@+1 {{tile.launch: unknown key 'gird'}}
func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {prim.fusion = "elementwise", tile.launch = {args = ["numel(%r0)"], grid = ["1", "1", "1"], gird = ["1"], kernel = @k}} {
  return %x : tensor<4xf32>
}

// -----

func.func @k(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %n: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  return
}
// A dim() past the tensor's rank, and an expression the runtime cannot read.
// expected-error@+2 {{tile.launch: args must be an array of launch expressions}}
// expected-error@+1 {{tile.launch: grid must be three launch expressions}}
func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {prim.fusion = "elementwise", tile.launch = {args = ["dim(%i0,1)"], grid = ["cdiv(numel(%i0),0-1)", "1", "1"], kernel = @k}} {
  return %x : tensor<4xf32>
}

// -----

func.func @k(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %n: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  return
}
// expected-error@+1 {{tile.launch: when (a launch expression) needs when_range = array<i64: lo, hi> (lo >= 1; hi >= lo, or 0: no upper bound)}}
func.func private @f(%x: tensor<?xf32>) -> tensor<?xf32> attributes {prim.fusion = "elementwise", tile.launch = {args = ["numel(%r0)"], grid = ["1", "1", "1"], kernel = @k, when = "dim(%i0,0)", when_range = array<i64: 17, 16>}} {
  return %x : tensor<?xf32>
}

// -----

func.func @k(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %n: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  return
}
// expected-error@+1 {{tile.launch: programs (the grid a symbolic one is sized for) must be an integer from 1 to 2^31 - 1}}
func.func private @f(%x: tensor<?xf32>) -> tensor<?xf32> attributes {prim.fusion = "elementwise", tile.launch = {args = ["numel(%r0)"], grid = ["cdiv(numel(%r0),1024)", "1", "1"], kernel = @k, programs = 0}} {
  return %x : tensor<?xf32>
}

// -----

// expected-error@+1 {{tile.variant_of must name a fused function, on a function with tile.when}}
func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {prim.fusion = "dot", tile.variant_of = @g} {
  return %x : tensor<4xf32>
}

// -----

func.func @wgmma_shape(%c: f32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %m = "tile.local_alloc"() : () -> memref<1x64x64xf16, 3>
  %a = "hopper.wgmma_descriptor"(%m) {swizzle = 128 : i32} : (memref<1x64x64xf16, 3>) -> !hopper.wgmma_desc
  %acc = "tile.splat"(%c) : (f32) -> tensor<64x24xf32>
  // expected-error@+1 {{'hopper.wgmma' needs m = 64, n a multiple of 8 from 8 to 256 and k 8, 16 or 32}}
  %r = "hopper.wgmma"(%a, %a, %acc) {m = 64 : i32, n = 20 : i32, k = 16 : i32} : (!hopper.wgmma_desc, !hopper.wgmma_desc, tensor<64x24xf32>) -> tensor<64x24xf32>
  return
}

// -----

func.func @swizzle() attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %m = "tile.local_alloc"() : () -> memref<1x64x64xf16, 3>
  // expected-error@+1 {{'hopper.wgmma_descriptor' needs swizzle 0, 32, 64 or 128}}
  %d = "hopper.wgmma_descriptor"(%m) {swizzle = 16 : i32} : (memref<1x64x64xf16, 3>) -> !hopper.wgmma_desc
  return
}

// -----

func.func @cluster() attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error@+1 {{'hopper.cluster_ctaid' needs axis, an integer from 0 to 2}}
  %c = "hopper.cluster_ctaid"() {axis = 3 : i32} : () -> i32
  return
}

// -----

func.func @arrivals() attributes {tile.kernel, tile.num_warps = 4 : i32} {
  // expected-error@+1 {{'hopper.mbarrier_alloc' arrivals must be an integer from 1 to 1024}}
  %b = "hopper.mbarrier_alloc"() {count = 4 : i32, arrivals = 0 : i32} : () -> !hopper.mbarrier
  return
}

// -----

func.func @arrive(%s: i32, %p: i1) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %b = "hopper.mbarrier_alloc"() {count = 4 : i32, arrivals = 128 : i32} : () -> !hopper.mbarrier
  // expected-error@+1 {{'hopper.mbarrier_arrive' multicast must be an integer from 2 to 8}}
  "hopper.mbarrier_arrive"(%b, %s, %p) {multicast = 9 : i32} : (!hopper.mbarrier, i32, i1) -> ()
  return
}

// -----

// A kernel whose ops share data over a cluster of 2 (a multicast arrival) launched without
// one.
func.func @mc_kernel(%s: i32, %p: i1) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %b = "hopper.mbarrier_alloc"() {count = 4 : i32, arrivals = 8 : i32} : () -> !hopper.mbarrier
  "hopper.mbarrier_arrive"(%b, %s, %p) {multicast = 2 : i32} : (!hopper.mbarrier, i32, i1) -> ()
  return
}
// expected-error@+1 {{tile.launch: cluster must be the cluster size its kernel's ops share data over (tile.cluster_reduce's size, a hopper.tma_load's or mbarrier_arrive's multicast: 2; the launch has 1)}}
func.func private @mc_launch(%x: tensor<8xf32>) -> tensor<8xf32> attributes {prim.fusion = "elementwise", tile.launch = {args = ["1", "1"], grid = ["1", "1", "1"], kernel = @mc_kernel}} {
  return %x : tensor<8xf32>
}

// -----

// expected-error@+1 {{'func.func' needs tile.producer_warps 0, 1 (a producer warp) or 4 (a producer warpgroup); it has 2}}
func.func @producers() attributes {tile.kernel, tile.num_warps = 4 : i32, tile.producer_warps = 2 : i32} {
  return
}

// -----

// expected-error@+1 {{'func.func' needs tile.producer_warps, an integer from 0 to 4}}
func.func @producers_many() attributes {tile.kernel, tile.num_warps = 4 : i32, tile.producer_warps = 5 : i32} {
  return
}

// -----

// A batched tma entry [input, batch, D0, D1, box rows, box columns]: every size at least
// 1 (a dynamic D0, -1, only without a batch).
func.func @k(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %n: i32, %d: !hopper.tma_desc) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  return
}
// expected-error@+1 {{tile.launch: each tma entry is array<i64: input, [batch,] D0, D1, box rows, box columns> of an input of the function (D0 -1: a dynamic M, without a batch)}}
func.func private @f(%x: tensor<2x64x64xf16>) -> tensor<2x64x64xf16> attributes {prim.fusion = "elementwise", tile.launch = {args = ["numel(%r0)"], grid = ["1", "1", "1"], kernel = @k, tma = [array<i64: 0, 0, 64, 64, 64, 64>]}} {
  return %x : tensor<2x64x64xf16>
}

// -----

func.func @k(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %n: i32, %d: !hopper.tma_desc) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  return
}
// expected-error@+1 {{tile.launch: each tma entry is array<i64: input, [batch,] D0, D1, box rows, box columns>}}
func.func private @f(%x: tensor<2x64x64xf16>) -> tensor<2x64x64xf16> attributes {prim.fusion = "elementwise", tile.launch = {args = ["numel(%r0)"], grid = ["1", "1", "1"], kernel = @k, tma = [array<i64: 0, 2, -1, 64, 64, 64>]}} {
  return %x : tensor<2x64x64xf16>
}

// -----

// zero_kernel (--pdl's zero kernel of a split-K result) names a kernel (!tile.ptr<T>, i32)
// of the result's element type, and goes with zero_result: here f16 for an f32 result.
func.func @k(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %n: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  return
}
func.func @z(%p: !tile.ptr<f16>, %n: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  return
}
// expected-error@+1 {{tile.launch: zero_kernel must name a tile.kernel function (!tile.ptr<T>, i32) of the result's element type T, with zero_result, for one result}}
func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {prim.fusion = "elementwise", tile.launch = {args = ["numel(%r0)"], grid = ["1", "1", "1"], kernel = @k, zero_result, zero_kernel = @z}} {
  return %x : tensor<4xf32>
}

// -----

// ... and without zero_result.
func.func @k(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %n: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  return
}
func.func @z(%p: !tile.ptr<f32>, %n: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  return
}
// expected-error@+1 {{tile.launch: zero_kernel must name a tile.kernel function}}
func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {prim.fusion = "elementwise", tile.launch = {args = ["numel(%r0)"], grid = ["1", "1", "1"], kernel = @k, zero_kernel = @z}} {
  return %x : tensor<4xf32>
}

// -----

// A dynamic M's buckets (tile.when on a fused function and on each copy whose
// tile.variant_of names it) cover every M >= 1 exactly once: a gap would run no kernel at
// some M, an overlap two.
// expected-error@+4 {{tile.when [20, 0] leaves a gap before it: the buckets of @f and its variants must cover every M >= 1 once}}
func.func private @f(%x: tensor<?x8xf16>) -> tensor<?x8xf16> attributes {prim.fusion = "dot", tile.when = array<i64: 1, 16>} {
  return %x : tensor<?x8xf16>
}
func.func private @f_m20up(%x: tensor<?x8xf16>) -> tensor<?x8xf16> attributes {prim.fusion = "dot", tile.variant_of = @f, tile.when = array<i64: 20, 0>} {
  return %x : tensor<?x8xf16>
}

// -----

// expected-error@+4 {{tile.when [10, 0] overlaps the one before it: the buckets of @f and its variants must cover every M >= 1 once}}
func.func private @f(%x: tensor<?x8xf16>) -> tensor<?x8xf16> attributes {prim.fusion = "dot", tile.when = array<i64: 1, 16>} {
  return %x : tensor<?x8xf16>
}
func.func private @f_m10up(%x: tensor<?x8xf16>) -> tensor<?x8xf16> attributes {prim.fusion = "dot", tile.variant_of = @f, tile.when = array<i64: 10, 0>} {
  return %x : tensor<?x8xf16>
}

// -----

// expected-error@+1 {{tile.when [1, 16] is the last but not open (hi 0): larger M run no kernel: the buckets of @f and its variants must cover every M >= 1 once}}
func.func private @f(%x: tensor<?x8xf16>) -> tensor<?x8xf16> attributes {prim.fusion = "dot", tile.when = array<i64: 1, 16>} {
  return %x : tensor<?x8xf16>
}

// -----

// expected-error@+1 {{tile.when [17, 0] follows an open bucket (hi 0)}}
func.func private @f(%x: tensor<?x8xf16>) -> tensor<?x8xf16> attributes {prim.fusion = "dot", tile.when = array<i64: 17, 0>} {
  return %x : tensor<?x8xf16>
}
func.func private @f_m1up(%x: tensor<?x8xf16>) -> tensor<?x8xf16> attributes {prim.fusion = "dot", tile.variant_of = @f, tile.when = array<i64: 1, 0>} {
  return %x : tensor<?x8xf16>
}

// -----

// expected-error@+1 {{tile.when must be array<i64: lo, hi> (a bucket of M: 1 <= lo <= hi < 2^31, or hi 0: every M from lo on)}}
func.func private @f(%x: tensor<?x8xf16>) -> tensor<?x8xf16> attributes {prim.fusion = "dot", tile.when = array<i64: 300, 200>} {
  return %x : tensor<?x8xf16>
}

// -----

// expected-error@+1 {{tile.when must be array<i64: lo, hi> (a bucket of M: 1 <= lo <= hi < 2^31, or hi 0: every M from lo on)}}
func.func private @f(%x: tensor<?x8xf16>) -> tensor<?x8xf16> attributes {prim.fusion = "dot", tile.when = array<i64: 1, 9223372036854775807>} {
  return %x : tensor<?x8xf16>
}

// -----

// Verifies: a launch with every key, over a kernel that takes what it passes.
func.func @k(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %w: !tile.ptr<f32>, %n: i32) attributes {tile.kernel, tile.num_warps = 4 : i32, tile.split_k = 2 : i32} {
  return
}
func.func @r(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %w: !tile.ptr<f32>, %n: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  return
}
func.func @z(%p: !tile.ptr<f32>, %n: i32) attributes {tile.kernel, tile.num_warps = 4 : i32, tile.zero_fill} {
  return
}
func.func private @f(%x: tensor<?x8xf32>) -> tensor<?x8xf32> attributes {prim.fusion = "elementwise", tile.launch = {args = ["dim(%i0,0)*8"], grid = ["cdiv(numel(%r0),1024)+(2*dim(%r0,1))", "2", "1"], kernel = @k, reduce = @r, workspace = 2 : i32, zero_result, zero_kernel = @z, when = "dim(%i0,0)", when_range = array<i64: 1, 0>}, tile.when = array<i64: 1, 0>} {
  return %x : tensor<?x8xf32>
}

// -----

// A producer warpgroup needs whole warpgroups before it (setmaxnreg runs in every warp of one).
// expected-error@+1 {{'func.func' with tile.producer_warps = 4 (a warpgroup) needs tile.num_warps a multiple of 4 (whole warpgroups: setmaxnreg runs in every warp of one); it has 2}}
func.func @producer_group_split() attributes {tile.kernel, tile.num_warps = 2 : i32, tile.producer_warps = 4 : i32} {
  return
}
