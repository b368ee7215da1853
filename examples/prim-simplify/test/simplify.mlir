// Each rule of --prim-simplify, and the cases each one must leave alone.
// RUN: tt-opt --load-pass-plugin=%plugin %s --split-input-file --mlir-print-debuginfo=false --prim-simplify | FileCheck %s

// CHECK-LABEL: func.func @identities
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[C:.*]]: tensor<4x8xi1>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]]
func.func @identities(%x: tensor<4x8xf32>, %c: tensor<4x8xi1>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %one = "prim.full"() {value = 1.0 : f32} : () -> tensor<4x8xf32>
  %pz = "prim.full"() {value = 0.0 : f32} : () -> tensor<4x8xf32>
  %nz = "prim.full"() {value = -0.0 : f32} : () -> tensor<4x8xf32>
  %a = "prim.mul"(%one, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = "prim.div"(%x, %one) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %d = "prim.add"(%nz, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = "prim.sub"(%x, %pz) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = "prim.neg"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %nn = "prim.neg"(%n) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = "prim.max"(%x, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %w = "prim.where"(%c, %x, %x) : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = "prim.transpose"(%x) {permutation = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "prim.reshape"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %a, %b, %d, %e, %nn, %m, %w, %t, %r : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// x + (+0.0) is not x at x = -0.0, nor is the transpose that swaps two dims of one size:
// both stay; an integer add of 0 goes.
// CHECK-LABEL: func.func @kept
// CHECK-SAME: (%[[X:.*]]: tensor<4x4xf32>, %[[I:.*]]: tensor<4x4xi32>)
// CHECK: %[[ADD:.*]] = "prim.add"(%[[X]],
// CHECK: %[[T:.*]] = "prim.transpose"(%[[X]])
// CHECK: return %[[ADD]], %[[T]], %[[I]]
func.func @kept(%x: tensor<4x4xf32>, %i: tensor<4x4xi32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xi32>) {
  %pz = "prim.full"() {value = 0.0 : f32} : () -> tensor<4x4xf32>
  %iz = "prim.full"() {value = 0 : i32} : () -> tensor<4x4xi32>
  %a = "prim.add"(%x, %pz) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %t = "prim.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %j = "prim.add"(%i, %iz) : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi32>
  return %a, %t, %j : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xi32>
}

// -----

// Division by a power of two becomes a multiplication by its inverse when both are normal
// numbers of the element type: 1/8 is, in f16; 2^15 is not (f16's normal numbers run from
// 2^-14: 2^-15 is subnormal), and 3 is no power of two.
// CHECK-LABEL: func.func @div_pow2
// CHECK-SAME: (%[[X:.*]]: tensor<16xf16>)
// CHECK: %[[INV:.*]] = "prim.full"() {value = 1.250000e-01 : f64}
// CHECK: %[[M:.*]] = "prim.mul"(%[[X]], %[[INV]])
// CHECK: %[[BIG:.*]] = "prim.div"(%[[X]],
// CHECK: %[[THREE:.*]] = "prim.div"(%[[X]],
// CHECK: return %[[M]], %[[BIG]], %[[THREE]]
func.func @div_pow2(%x: tensor<16xf16>) -> (tensor<16xf16>, tensor<16xf16>, tensor<16xf16>) {
  %c8 = "prim.full"() {value = 8.0 : f32} : () -> tensor<16xf16>
  %big = "prim.full"() {value = 32768.0 : f32} : () -> tensor<16xf16>
  %c3 = "prim.full"() {value = 3.0 : f32} : () -> tensor<16xf16>
  %a = "prim.div"(%x, %c8) : (tensor<16xf16>, tensor<16xf16>) -> tensor<16xf16>
  %b = "prim.div"(%x, %big) : (tensor<16xf16>, tensor<16xf16>) -> tensor<16xf16>
  %c = "prim.div"(%x, %c3) : (tensor<16xf16>, tensor<16xf16>) -> tensor<16xf16>
  return %a, %b, %c : tensor<16xf16>, tensor<16xf16>, tensor<16xf16>
}

// -----

// pow with the scalar exponents PyTorch's pow kernel special-cases; 3 stays pow.
// CHECK-LABEL: func.func @pow
// CHECK-SAME: (%[[X:.*]]: tensor<16xbf16>)
// CHECK-DAG: %[[SQ:.*]] = "prim.mul"(%[[X]], %[[X]])
// CHECK-DAG: %[[RCP:.*]] = "prim.reciprocal"(%[[X]])
// CHECK-DAG: %[[SQRT:.*]] = "prim.sqrt"(%[[X]])
// CHECK-DAG: %[[RSQRT:.*]] = "prim.rsqrt"(%[[X]])
// CHECK-DAG: %[[CUBE:.*]] = "prim.pow"(%[[X]],
// CHECK: return %[[X]], %[[SQ]], %[[RCP]], %[[SQRT]], %[[RSQRT]], %[[CUBE]]
func.func @pow(%x: tensor<16xbf16>) -> (tensor<16xbf16>, tensor<16xbf16>, tensor<16xbf16>, tensor<16xbf16>, tensor<16xbf16>, tensor<16xbf16>) {
  %e1 = "prim.full"() {value = 1.0 : f32} : () -> tensor<16xbf16>
  %e2 = "prim.full"() {value = 2.0 : f32} : () -> tensor<16xbf16>
  %em1 = "prim.full"() {value = -1.0 : f32} : () -> tensor<16xbf16>
  %eh = "prim.full"() {value = 0.5 : f32} : () -> tensor<16xbf16>
  %emh = "prim.full"() {value = -0.5 : f32} : () -> tensor<16xbf16>
  %e3 = "prim.full"() {value = 3.0 : f32} : () -> tensor<16xbf16>
  %a = "prim.pow"(%x, %e1) : (tensor<16xbf16>, tensor<16xbf16>) -> tensor<16xbf16>
  %b = "prim.pow"(%x, %e2) : (tensor<16xbf16>, tensor<16xbf16>) -> tensor<16xbf16>
  %c = "prim.pow"(%x, %em1) : (tensor<16xbf16>, tensor<16xbf16>) -> tensor<16xbf16>
  %d = "prim.pow"(%x, %eh) : (tensor<16xbf16>, tensor<16xbf16>) -> tensor<16xbf16>
  %e = "prim.pow"(%x, %emh) : (tensor<16xbf16>, tensor<16xbf16>) -> tensor<16xbf16>
  %f = "prim.pow"(%x, %e3) : (tensor<16xbf16>, tensor<16xbf16>) -> tensor<16xbf16>
  return %a, %b, %c, %d, %e, %f : tensor<16xbf16>, tensor<16xbf16>, tensor<16xbf16>, tensor<16xbf16>, tensor<16xbf16>, tensor<16xbf16>
}

// -----

// Converts: bf16 -> f32 -> bf16 is bf16's value back; f32 -> bf16 -> f32 rounds and stays.
// abs(neg(x)) is abs(x), and the abs(abs(.)) of it folds too.
// CHECK-LABEL: func.func @converts
// CHECK-SAME: (%[[B:.*]]: tensor<8xbf16>, %[[F:.*]]: tensor<8xf32>)
// CHECK: %[[DOWN:.*]] = "prim.convert"(%[[F]])
// CHECK: %[[UP:.*]] = "prim.convert"(%[[DOWN]])
// CHECK: %[[ABS:.*]] = "prim.abs"(%[[F]])
// CHECK-NOT: prim.abs
// CHECK: return %[[B]], %[[UP]], %[[ABS]]
func.func @converts(%b: tensor<8xbf16>, %f: tensor<8xf32>) -> (tensor<8xbf16>, tensor<8xf32>, tensor<8xf32>) {
  %w = "prim.convert"(%b) : (tensor<8xbf16>) -> tensor<8xf32>
  %n = "prim.convert"(%w) : (tensor<8xf32>) -> tensor<8xbf16>
  %d = "prim.convert"(%f) : (tensor<8xf32>) -> tensor<8xbf16>
  %u = "prim.convert"(%d) : (tensor<8xbf16>) -> tensor<8xf32>
  %ng = "prim.neg"(%f) : (tensor<8xf32>) -> tensor<8xf32>
  %a1 = "prim.abs"(%ng) : (tensor<8xf32>) -> tensor<8xf32>
  %a2 = "prim.abs"(%a1) : (tensor<8xf32>) -> tensor<8xf32>
  return %n, %u, %a2 : tensor<8xbf16>, tensor<8xf32>, tensor<8xf32>
}
