// --splitk's reduce=cluster (step 7): the K slices of an output tile are the consecutive
// programs of one thread-block cluster along x, and sum their accumulators through
// distributed shared memory (tile.cluster_reduce); slice 0 stores. reduce=auto takes it for
// tiles of up to 32 rows split at most 4 ways (bench/2026-11-27-h200-splitk-cluster.md),
// and for 64-row tiles split 4 ways or more whose clusters of 4 fit (step 2f,
// bench/2026-11-28-h200-m64-cluster.md).
// RUN: tt-opt %s --split-input-file --decompose --fuse --splitk --mlir-print-debuginfo=false | FileCheck %s
// RUN: tt-opt %s --split-input-file --decompose --fuse --splitk=reduce=cluster --mlir-print-debuginfo=false | FileCheck %s --check-prefix=FORCED
// RUN: tt-opt %s --split-input-file --decompose --fuse --splitk=cluster=1 --mlir-print-debuginfo=false | FileCheck %s --check-prefix=NONE
// RUN: not tt-opt %s --split-input-file --decompose --fuse --splitk='reduce=cluster cluster=1' 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not tt-opt %s --split-input-file --decompose --fuse --splitk='reduce=cluster split-k=16' 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: tt-opt %S/Inputs/cluster-linear.mlir --decompose --fuse --splitk | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// Below sm_90: tt-translate's own split-K keeps atomics; tt-opt's cluster form is refused.
// RUN: tt-translate --ptx --arch=sm_80 %S/Inputs/cluster-linear.mlir | FileCheck %s --check-prefix=SM80
// RUN: tt-opt %S/Inputs/cluster-linear.mlir --decompose --fuse --splitk -o %t.cl.mlir
// RUN: not tt-translate --ptx --arch=sm_80 %t.cl.mlir -o %t.80.ptx 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not test -e %t.80.ptx
// SM80: //@launch fused_0_kernel grid 64 2 1
// SM80-NOT: cluster
// OLD: error: tt-translate: {{.*}}split-K's slices summed in one (tile.cluster_reduce), needs --arch=sm_90 or later; run --tile='cluster=1' and --splitk='cluster=1' for older targets

// A decode GEMM on 16-row tiles, split 2 ways: clusters of 2 along x, program ids x / 2
// (the tile) and x mod 2 (the slice), the sum after the K loop, the store masked to slice 0.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: %[[PID:.*]] = "tile.program_id"() {axis = 0 : i32}
// CHECK: %[[TILE:.*]] = arith.divui %[[PID]], %[[S:.*]] : i32
// CHECK: %[[SLICE:.*]] = arith.remui %[[PID]], %[[S]] : i32
// CHECK-NOT: "tile.program_id"() {axis = 1
// CHECK: %[[LOOP:.*]] = scf.for
// CHECK: %[[SUM:.*]] = "tile.cluster_reduce"(%[[LOOP]]) {kind = "sum", size = 2 : i32} : (tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK: tensor.collapse_shape %[[SUM]]
// CHECK: arith.cmpi eq, %[[SLICE]]
// CHECK: "tile.store"
// CHECK: tile.launch = {args = [], cluster = 2 : i64, grid = ["128", "1", "1"], kernel = @fused_0_kernel}
// NONE-NOT: tile.cluster_reduce
// NONE: grid = ["64", "2", "1"], kernel = @fused_0_kernel, zero_result}
// PTX: //@launch fused_0_kernel grid 128 1 1 {{.*}} cluster 2
// PTX: barrier.cluster.arrive
// PTX: mapa.shared::cluster
// PTX: barrier.cluster.arrive
func.func @linear(%x: tensor<16x4096xf16>, %w: tensor<4096x4096xf16> {tt.invariant}) -> tensor<16x4096xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x4096xf16>, tensor<4096x4096xf16>) -> tensor<16x4096xf16>
  return %y : tensor<16x4096xf16>
}

// -----

// 64-row tiles whose slices walk 256 KB keep last-slice under auto (step 2f: no); reduce=cluster forces
// it, any epilogue (a GELU: no workspace, no second kernel).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: tile.cluster_reduce
// CHECK: tile.launch = {args = [], counters, grid = ["16", "8", "1"], kernel = @fused_0_kernel, workspace = 8 : i32}
// FORCED-LABEL: func.func @fused_0_kernel
// FORCED: "tile.cluster_reduce"({{.*}}) {kind = "sum", size = 8 : i32} : (tensor<64x64xf32>) -> tensor<64x64xf32>
// FORCED: math.exp2
// FORCED: tile.launch = {args = [], cluster = 8 : i64, grid = ["128", "1", "1"], kernel = @fused_0_kernel}
// ERR: error: splitk: reduce=cluster needs split-k of at most the cluster option
func.func @linear_gelu(%x: tensor<64x4096xf16>, %w: tensor<1024x4096xf16> {tt.invariant}, %b: tensor<1024xf16>) -> tensor<64x1024xf16> {
  %y = "prim.linear"(%x, %w, %b) : (tensor<64x4096xf16>, tensor<1024x4096xf16>, tensor<1024xf16>) -> tensor<64x1024xf16>
  %z = "prim.gelu"(%y) {approximate = "tanh"} : (tensor<64x1024xf16>) -> tensor<64x1024xf16>
  return %z : tensor<64x1024xf16>
}

// -----

// Step 2e: a walk over K under the floor (no split with atomics: 16 x 1024 x 1536 f16,
// 5.5 us estimated) but past the cluster sum's (2000 ns less) splits in a pair; without
// clusters it stays whole.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.cluster_reduce"({{.*}}) {kind = "sum", size = 2 : i32}
// CHECK: tile.launch = {args = [], cluster = 2 : i64, grid = ["32", "1", "1"], kernel = @fused_0_kernel}
// NONE: tile.split_k = 1 : i32, tile.tune_key = "dot 1x16x1024x1536 f16xf16 nk"
// NONE: grid = ["16", "1", "1"], kernel = @fused_0_kernel}
func.func @short_walk(%x: tensor<16x1536xf16>, %w: tensor<1024x1536xf16> {tt.invariant}) -> tensor<16x1024xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x1536xf16>, tensor<1024x1536xf16>) -> tensor<16x1024xf16>
  return %y : tensor<16x1024xf16>
}

// -----

// Step 2f: 64-row tiles that step 2 splits 4 ways or more sum in clusters of 4 where the
// clusters' programs fill at most three quarters of the SMs and a slice walks at most
// 192 KB of A and B: fp8 64 x 1024 x 4096 (16 tiles, slices of 128 KB) in 16 clusters of
// 4 instead of 8 slices with atomics; without clusters, atomics.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.geometry = "block-m=64 block-n=64
// CHECK: "tile.cluster_reduce"({{.*}}) {kind = "sum", size = 4 : i32} : (tensor<64x64xf32>) -> tensor<64x64xf32>
// CHECK: tile.launch = {args = [], cluster = 4 : i64, grid = ["64", "1", "1"], kernel = @fused_0_kernel}
// NONE: grid = ["16", "8", "1"], kernel = @fused_0_kernel, zero_result}
func.func @tall_fp8(%x: tensor<64x4096xf8E4M3FN>, %w: tensor<1024x4096xf8E4M3FN> {tt.invariant}, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<64x1024xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<1024x4096xf8E4M3FN>) -> tensor<4096x1024xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<64x4096xf8E4M3FN>, tensor<4096x1024xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<64x1024xbf16>
  return %y : tensor<64x1024xbf16>
}

// -----

// Not step 2f: 32 tiles in clusters of 4 would fill 128 of 132 SMs (fp8 64 x 2048 x 4096:
// 1.28x slower than atomics, a cluster of 4 left for a second wave).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-NOT: tile.cluster_reduce
// CHECK: tile.launch = {args = [], grid = ["32", "4", "1"], kernel = @fused_0_kernel, zero_result}
func.func @tall_wide(%x: tensor<64x4096xf8E4M3FN>, %w: tensor<2048x4096xf8E4M3FN> {tt.invariant}, %sx: tensor<f32>, %sw: tensor<f32>) -> tensor<64x2048xbf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<2048x4096xf8E4M3FN>) -> tensor<4096x2048xf8E4M3FN>
  %y = "prim.scaled_mm"(%x, %wt, %sx, %sw) : (tensor<64x4096xf8E4M3FN>, tensor<4096x2048xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<64x2048xbf16>
  return %y : tensor<64x2048xbf16>
}
