// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile='stage-odd=0 peel-last=0' | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose --fuse --tile='online-var=0 stage-regs=0 stage-odd=0 peel-last=0' | FileCheck %s --check-prefix=OFF
// RUN: awk '/^func.func @layer_norm_looped/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --decompose --fuse --splitk | tt-translate --ptx -o %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// RUN: awk '/^func.func @not_pairs/{p=1} p{print} p&&/^}/{exit}' %s | tt-opt --mlir-print-debuginfo=false --decompose --fuse --tile='row-stage=0 cluster=1 peel-last=0' | FileCheck %s --check-prefix=NOTPAIR

// --tile online-var=1 (the default; passes/tile/welford.c): layer_norm's sum of squared
// deviations sum((x - b(sum(x) / N))^2) joins the loop of its mean's sum(x). Each lane
// keeps Welford's mean and m2 (16 elements a thread: two values a lane, as an argmax's
// loop); chunk c (0-based) is the (c + 1)-th element of every lane still in the row:
// d = x - mean, mean += d * (1 / (c + 1)), m2 += d * (x - mean), x = mean where masked.
// After the loop each lane's count n = min(max((N + B - 1 - column) / B, 0), chunks),
// the row's sum(x) = sum(n * mean) and its m2 = sum(m2 + n * (mean - sum(x) / N)^2):
// one loop over the row for both reductions, then the output's.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.num_warps = 32 : i32
// CHECK: %[[COL:.*]] = "tile.range"() {end = 16384 : i32, start = 0 : i32}
// CHECK: %[[ZM:.*]] = arith.constant dense<0.000000e+00> : tensor<16384xf32>
// CHECK: %[[ZQ:.*]] = arith.constant dense<0.000000e+00> : tensor<16384xf32>
// CHECK: %[[ACC:.*]]:2 = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[MEAN:.*]] = %[[ZM]], %[[M2:.*]] = %[[ZQ]]) -> (tensor<16384xf32>, tensor<16384xf32>)
// CHECK:   %[[MASK:.*]] = arith.cmpi slt
// CHECK:   %[[C:.*]] = arith.divui %[[K]], %{{.*}} : i32
// CHECK:   %[[X:.*]] = arith.extf
// CHECK:   %[[C1:.*]] = arith.addi %[[C]], %{{.*}} : i32
// CHECK:   %[[KF:.*]] = arith.uitofp %[[C1]] : i32 to f32
// CHECK:   %[[INV:.*]] = arith.divf %{{.*}}, %[[KF]] : f32
// CHECK:   %[[XM:.*]] = arith.select %[[MASK]], %[[X]], %[[MEAN]] : tensor<16384xi1>, tensor<16384xf32>
// CHECK:   %[[D:.*]] = arith.subf %[[XM]], %[[MEAN]] fastmath<contract>
// CHECK:   %[[INVS:.*]] = "tile.splat"(%[[INV]])
// CHECK:   %[[STEP:.*]] = arith.mulf %[[D]], %[[INVS]] fastmath<contract>
// CHECK:   %[[NEXT:.*]] = arith.addf %[[MEAN]], %[[STEP]] fastmath<contract>
// CHECK:   %[[D2:.*]] = arith.subf %[[XM]], %[[NEXT]] fastmath<contract>
// CHECK:   %[[P:.*]] = arith.mulf %[[D]], %[[D2]] fastmath<contract>
// CHECK:   arith.addf %[[M2]], %[[P]] fastmath<contract>
// CHECK:   scf.yield
// CHECK: %[[LEFT:.*]] = arith.subi %{{.*}}, %[[COL]] : tensor<16384xi32>
// CHECK: %[[NC:.*]] = arith.divsi %[[LEFT]], %{{.*}} : tensor<16384xi32>
// CHECK: %[[NP:.*]] = arith.maxsi %[[NC]], %{{.*}} : tensor<16384xi32>
// CHECK: %[[NN:.*]] = arith.minsi %[[NP]], %{{.*}} : tensor<16384xi32>
// CHECK: %[[N:.*]] = arith.sitofp %[[NN]] : tensor<16384xi32> to tensor<16384xf32>
// CHECK: %[[NM:.*]] = arith.mulf %[[N]], %[[ACC]]#0
// CHECK: %[[S:.*]] = "tile.reduce"(%[[NM]]) {axis = 0 : i32, kind = "sum"}
// CHECK: %[[SS:.*]] = "tile.splat"(%[[S]])
// CHECK: %[[MU:.*]] = arith.mulf %[[SS]], %{{.*}}
// CHECK: %[[DEV:.*]] = arith.subf %[[ACC]]#0, %[[MU]]
// CHECK: %[[ND:.*]] = arith.mulf %[[N]], %[[DEV]]
// CHECK: %[[NDD:.*]] = arith.mulf %[[ND]], %[[DEV]]
// CHECK: %[[Q:.*]] = arith.addf %[[ACC]]#1, %[[NDD]]
// CHECK: "tile.reduce"(%[[Q]]) {axis = 0 : i32, kind = "sum"}
// CHECK: scf.for
// CHECK:   "tile.store"
// CHECK-NOT: scf.for
// CHECK: return
// online-var=0: the mean's loop, the squared deviations' loop, the output's.
// OFF-LABEL: func.func @fused_0_kernel
// OFF: "tile.range"() {end = 32768 : i32, start = 0 : i32}
// OFF-COUNT-3: scf.for
// OFF-NOT: scf.for
// OFF: return
func.func @layer_norm_looped(%x: tensor<2048x65536xbf16>, %w: tensor<65536xbf16>, %b: tensor<65536xbf16>) -> tensor<2048x65536xbf16> {
  %y = "prim.layer_norm"(%x, %w, %b) {eps = 1.0e-5 : f32} : (tensor<2048x65536xbf16>, tensor<65536xbf16>, tensor<65536xbf16>) -> tensor<2048x65536xbf16>
  return %y : tensor<2048x65536xbf16>
}

// -----

// A var over long rows (prim.var decomposes to the same pair), a masked last chunk (70001 =
// 8 chunks of 8192 - rows off 16-byte alignment take blocks of 8192 under stage-odd=0 (the
// RUN lines'; by default they are staged) - and 4465 columns):
// the lanes past 4465 see eight chunks, the others nine.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK: "tile.range"() {end = 8192 : i32, start = 0 : i32}
// CHECK: scf.for {{.*}} -> (tensor<8192xf32>, tensor<8192xf32>)
// CHECK: arith.constant dense<78192> : tensor<8192xi32>
// CHECK: arith.constant dense<9> : tensor<8192xi32>
// CHECK-COUNT-2: "tile.reduce"
// CHECK-NOT: scf.for
// CHECK: return
// OFF-LABEL: func.func @fused_0_kernel
// OFF-COUNT-2: scf.for
// OFF-NOT: scf.for
// OFF: return
func.func @var_masked(%x: tensor<7x70001xf32>) -> tensor<7xf32> {
  %y = "prim.var"(%x) {dims = array<i64: 1>} : (tensor<7x70001xf32>) -> tensor<7xf32>
  return %y : tensor<7xf32>
}

// -----

// Not a pair (looped here: row-stage=0, cluster=1): the deviations from sum(x) / 39999
// (not the row's length: not the mean), and from the mean of row j taken along column j
// (broadcast_dimensions = [1]): the squared deviations keep a loop of their own.
// NOTPAIR-LABEL: func.func @fused_0_kernel
// NOTPAIR: "tile.range"() {end = 32768 : i32, start = 0 : i32}
// NOTPAIR-COUNT-2: scf.for {{.*}} -> (tensor<32768xf32>, tensor<32768xf32>)
// NOTPAIR-NOT: scf.for
// NOTPAIR: return
func.func @not_pairs(%x: tensor<40000x40000xf32>) -> (tensor<40000xf32>, tensor<40000xf32>) {
  %s = "prim.sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<40000x40000xf32>) -> tensor<40000xf32>
  %n = "prim.full"() {value = 39999.0 : f32} : () -> tensor<40000xf32>
  %m = "prim.div"(%s, %n) : (tensor<40000xf32>, tensor<40000xf32>) -> tensor<40000xf32>
  %mb = "prim.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<40000xf32>) -> tensor<40000x40000xf32>
  %v = "prim.sub"(%x, %mb) : (tensor<40000x40000xf32>, tensor<40000x40000xf32>) -> tensor<40000x40000xf32>
  %q = "prim.mul"(%v, %v) : (tensor<40000x40000xf32>, tensor<40000x40000xf32>) -> tensor<40000x40000xf32>
  %r = "prim.sum"(%q) {dims = array<i64: 1>, keepdim = false} : (tensor<40000x40000xf32>) -> tensor<40000xf32>
  %s2 = "prim.sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<40000x40000xf32>) -> tensor<40000xf32>
  %n2 = "prim.full"() {value = 40000.0 : f32} : () -> tensor<40000xf32>
  %m2 = "prim.div"(%s2, %n2) : (tensor<40000xf32>, tensor<40000xf32>) -> tensor<40000xf32>
  %mb2 = "prim.broadcast_in_dim"(%m2) {broadcast_dimensions = array<i64: 1>} : (tensor<40000xf32>) -> tensor<40000x40000xf32>
  %v2 = "prim.sub"(%x, %mb2) : (tensor<40000x40000xf32>, tensor<40000x40000xf32>) -> tensor<40000x40000xf32>
  %q2 = "prim.mul"(%v2, %v2) : (tensor<40000x40000xf32>, tensor<40000x40000xf32>) -> tensor<40000x40000xf32>
  %r2 = "prim.sum"(%q2) {dims = array<i64: 1>, keepdim = false} : (tensor<40000x40000xf32>) -> tensor<40000xf32>
  return %r, %r2 : tensor<40000xf32>, tensor<40000xf32>
}
