// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --decompose | FileCheck %s

// softmax over the last dim (dim = -1) of a bf16 tensor: one convert in, the max-subtracted
// exp in f32, the reductions without the dim (keepdim false) broadcast back, one convert out.
// CHECK-LABEL: func.func @softmax_bf16
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xbf16>)
// CHECK-NEXT: %[[XC:.*]] = "prim.convert"(%[[X]]) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[M:.*]] = "prim.amax"(%[[XC]]) {dims = array<i64: 1>, keepdim = false} : (tensor<2x8xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[MB:.*]] = "prim.broadcast_in_dim"(%[[M]]) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[S:.*]] = "prim.sub"(%[[XC]], %[[MB]])
// CHECK-NEXT: %[[E:.*]] = "prim.exp"(%[[S]])
// CHECK-NEXT: %[[Z:.*]] = "prim.sum"(%[[E]]) {dims = array<i64: 1>, keepdim = false} : (tensor<2x8xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[ZB:.*]] = "prim.broadcast_in_dim"(%[[Z]]) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[Y:.*]] = "prim.div"(%[[E]], %[[ZB]])
// CHECK-NEXT: %[[R:.*]] = "prim.convert"(%[[Y]]) : (tensor<2x8xf32>) -> tensor<2x8xbf16>
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: prim.softmax
func.func @softmax_bf16(%x: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  %y = "prim.softmax"(%x) {dim = -1 : i64} : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// softmax over a leading dim of an f32 tensor: no converts; the reduced value is broadcast
// back along the other dims.
// CHECK-LABEL: func.func @softmax_dim0
// CHECK-NOT: prim.convert
// CHECK: "prim.amax"(%arg0) {dims = array<i64: 0>, keepdim = false} : (tensor<4x6xf32>) -> tensor<6xf32>
// CHECK: "prim.broadcast_in_dim"(%{{.*}}) {broadcast_dimensions = array<i64: 1>} : (tensor<6xf32>) -> tensor<4x6xf32>
// CHECK: "prim.exp"
// CHECK: "prim.sum"(%{{.*}}) {dims = array<i64: 0>, keepdim = false} : (tensor<4x6xf32>) -> tensor<6xf32>
// CHECK: "prim.div"
// CHECK-NOT: prim.convert
// CHECK-NOT: prim.softmax
func.func @softmax_dim0(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %y = "prim.softmax"(%x) {dim = 0 : i64} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

// log_softmax: (x - m) - log(sum(exp(x - m))), m = amax(x, dim).
// CHECK-LABEL: func.func @log_softmax
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[M:.*]] = "prim.amax"(%[[X]]) {dims = array<i64: 1>, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[MB:.*]] = "prim.broadcast_in_dim"(%[[M]]) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<2x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[S:.*]] = "prim.sub"(%[[X]], %[[MB]])
// CHECK-NEXT: %[[E:.*]] = "prim.exp"(%[[S]])
// CHECK-NEXT: %[[Z:.*]] = "prim.sum"(%[[E]]) {dims = array<i64: 1>, keepdim = false}
// CHECK-NEXT: %[[L:.*]] = "prim.log"(%[[Z]]) : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[LB:.*]] = "prim.broadcast_in_dim"(%[[L]]) {broadcast_dimensions = array<i64: 0, 2>}
// CHECK-NEXT: %[[Y:.*]] = "prim.sub"(%[[S]], %[[LB]])
// CHECK-NEXT: return %[[Y]]
func.func @log_softmax(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %y = "prim.log_softmax"(%x) {dim = -2 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}

// -----

// layer_norm of bf16 over the last dim: x, weight and bias are converted once each, the
// mean and the biased variance divide by N = 8, and one convert rounds the result.
// CHECK-LABEL: func.func @layer_norm_bf16
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x8xbf16>, %[[W:.*]]: tensor<8xbf16>, %[[B:.*]]: tensor<8xbf16>)
// CHECK-NEXT: %[[XC:.*]] = "prim.convert"(%[[X]]) : (tensor<2x3x8xbf16>) -> tensor<2x3x8xf32>
// CHECK-NEXT: %[[S:.*]] = "prim.sum"(%[[XC]]) {dims = array<i64: 2>, keepdim = false} : (tensor<2x3x8xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[N:.*]] = "prim.full"() {value = 8.000000e+00 : f32} : () -> tensor<2x3xf32>
// CHECK-NEXT: %[[MEAN:.*]] = "prim.div"(%[[S]], %[[N]])
// CHECK-NEXT: %[[MB:.*]] = "prim.broadcast_in_dim"(%[[MEAN]]) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT: %[[D:.*]] = "prim.sub"(%[[XC]], %[[MB]])
// CHECK-NEXT: %[[D2:.*]] = "prim.mul"(%[[D]], %[[D]])
// CHECK-NEXT: %[[S2:.*]] = "prim.sum"(%[[D2]]) {dims = array<i64: 2>, keepdim = false}
// CHECK-NEXT: %[[VAR:.*]] = "prim.div"(%[[S2]], %[[N]])
// CHECK-NEXT: %[[EPS:.*]] = "prim.full"() {value = 9.99999974E-6 : f32} : () -> tensor<2x3xf32>
// CHECK-NEXT: %[[VE:.*]] = "prim.add"(%[[VAR]], %[[EPS]])
// CHECK-NEXT: %[[RS:.*]] = "prim.rsqrt"(%[[VE]])
// CHECK-NEXT: %[[RSB:.*]] = "prim.broadcast_in_dim"(%[[RS]]) {broadcast_dimensions = array<i64: 0, 1>}
// CHECK-NEXT: %[[NORM:.*]] = "prim.mul"(%[[D]], %[[RSB]])
// CHECK-NEXT: %[[WC:.*]] = "prim.convert"(%[[W]]) : (tensor<8xbf16>) -> tensor<8xf32>
// CHECK-NEXT: %[[WB:.*]] = "prim.broadcast_in_dim"(%[[WC]]) {broadcast_dimensions = array<i64: 2>} : (tensor<8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT: %[[YW:.*]] = "prim.mul"(%[[NORM]], %[[WB]])
// CHECK-NEXT: %[[BC:.*]] = "prim.convert"(%[[B]]) : (tensor<8xbf16>) -> tensor<8xf32>
// CHECK-NEXT: %[[BB:.*]] = "prim.broadcast_in_dim"(%[[BC]]) {broadcast_dimensions = array<i64: 2>}
// CHECK-NEXT: %[[Y:.*]] = "prim.add"(%[[YW]], %[[BB]])
// CHECK-NEXT: %[[R:.*]] = "prim.convert"(%[[Y]]) : (tensor<2x3x8xf32>) -> tensor<2x3x8xbf16>
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: prim.layer_norm
func.func @layer_norm_bf16(%x: tensor<2x3x8xbf16>, %w: tensor<8xbf16>, %b: tensor<8xbf16>) -> tensor<2x3x8xbf16> {
  %y = "prim.layer_norm"(%x, %w, %b) {eps = 1.0e-5 : f32} : (tensor<2x3x8xbf16>, tensor<8xbf16>, tensor<8xbf16>) -> tensor<2x3x8xbf16>
  return %y : tensor<2x3x8xbf16>
}

// -----

// rms_norm: x * rsqrt(sum(x*x)/N + eps) * weight.
// CHECK-LABEL: func.func @rms_norm
// CHECK-SAME: (%[[X:.*]]: tensor<4x16xf32>, %[[W:.*]]: tensor<16xf32>)
// CHECK-NEXT: %[[X2:.*]] = "prim.mul"(%[[X]], %[[X]])
// CHECK-NEXT: %[[S:.*]] = "prim.sum"(%[[X2]]) {dims = array<i64: 1>, keepdim = false} : (tensor<4x16xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[N:.*]] = "prim.full"() {value = 1.600000e+01 : f32} : () -> tensor<4xf32>
// CHECK-NEXT: %[[MS:.*]] = "prim.div"(%[[S]], %[[N]])
// CHECK-NEXT: %[[EPS:.*]] = "prim.full"() {value = 9.99999997E-7 : f32} : () -> tensor<4xf32>
// CHECK-NEXT: %[[A:.*]] = "prim.add"(%[[MS]], %[[EPS]])
// CHECK-NEXT: %[[R:.*]] = "prim.rsqrt"(%[[A]])
// CHECK-NEXT: %[[RB:.*]] = "prim.broadcast_in_dim"(%[[R]]) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[Y:.*]] = "prim.mul"(%[[X]], %[[RB]])
// CHECK-NEXT: %[[WB:.*]] = "prim.broadcast_in_dim"(%[[W]]) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[YW:.*]] = "prim.mul"(%[[Y]], %[[WB]])
// CHECK-NEXT: return %[[YW]]
func.func @rms_norm(%x: tensor<4x16xf32>, %w: tensor<16xf32>) -> tensor<4x16xf32> {
  %y = "prim.rms_norm"(%x, %w) {eps = 1.0e-6 : f32} : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// gelu "none": x*0.5 * (1 + erf(x * (1/sqrt 2))).
// CHECK-LABEL: func.func @gelu_none
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>)
// CHECK-NEXT: %[[ONE:.*]] = "prim.full"() {value = 1.000000e+00 : f32}
// CHECK-NEXT: %[[HALF:.*]] = "prim.full"() {value = 5.000000e-01 : f32}
// CHECK-NEXT: %[[XH:.*]] = "prim.mul"(%[[X]], %[[HALF]])
// CHECK-NEXT: %[[K:.*]] = "prim.full"() {value = 0.707106769 : f32}
// CHECK-NEXT: %[[XK:.*]] = "prim.mul"(%[[X]], %[[K]])
// CHECK-NEXT: %[[E:.*]] = "prim.erf"(%[[XK]])
// CHECK-NEXT: %[[E1:.*]] = "prim.add"(%[[ONE]], %[[E]])
// CHECK-NEXT: %[[Y:.*]] = "prim.mul"(%[[XH]], %[[E1]])
// CHECK-NEXT: return %[[Y]]
func.func @gelu_none(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = "prim.gelu"(%x) {approximate = "none"} : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// gelu "tanh" of bf16: 0.5*x * (1 + tanh(sqrt(2/pi) * (x + 0.044715*x^3))) in f32.
// CHECK-LABEL: func.func @gelu_tanh_bf16
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xbf16>)
// CHECK-NEXT: %[[XC:.*]] = "prim.convert"(%[[X]]) : (tensor<4x8xbf16>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[ONE:.*]] = "prim.full"() {value = 1.000000e+00 : f32} : () -> tensor<4x8xf32>
// CHECK-NEXT: %[[HALF:.*]] = "prim.full"() {value = 5.000000e-01 : f32} : () -> tensor<4x8xf32>
// CHECK-NEXT: %[[X2:.*]] = "prim.mul"(%[[XC]], %[[XC]])
// CHECK-NEXT: %[[X3:.*]] = "prim.mul"(%[[X2]], %[[XC]])
// CHECK-NEXT: %[[KAPPA:.*]] = "prim.full"() {value = 4.471500e-02 : f32}
// CHECK-NEXT: %[[KX3:.*]] = "prim.mul"(%[[KAPPA]], %[[X3]])
// CHECK-NEXT: %[[IN:.*]] = "prim.add"(%[[XC]], %[[KX3]])
// CHECK-NEXT: %[[BETA:.*]] = "prim.full"() {value = 0.797884583 : f32}
// CHECK-NEXT: %[[S:.*]] = "prim.mul"(%[[BETA]], %[[IN]])
// CHECK-NEXT: %[[T:.*]] = "prim.tanh"(%[[S]])
// CHECK-NEXT: %[[T1:.*]] = "prim.add"(%[[ONE]], %[[T]])
// CHECK-NEXT: %[[HX:.*]] = "prim.mul"(%[[HALF]], %[[XC]])
// CHECK-NEXT: %[[Y:.*]] = "prim.mul"(%[[HX]], %[[T1]])
// CHECK-NEXT: %[[R:.*]] = "prim.convert"(%[[Y]]) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
// CHECK-NEXT: return %[[R]]
func.func @gelu_tanh_bf16(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %y = "prim.gelu"(%x) {approximate = "tanh"} : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %y : tensor<4x8xbf16>
}

// -----

// sigmoid of f16: reciprocal(1 + exp(-x)) in f32.
// CHECK-LABEL: func.func @sigmoid_f16
// CHECK-SAME: (%[[X:.*]]: tensor<8xf16>)
// CHECK-NEXT: %[[XC:.*]] = "prim.convert"(%[[X]]) : (tensor<8xf16>) -> tensor<8xf32>
// CHECK-NEXT: %[[ONE:.*]] = "prim.full"() {value = 1.000000e+00 : f32} : () -> tensor<8xf32>
// CHECK-NEXT: %[[N:.*]] = "prim.neg"(%[[XC]])
// CHECK-NEXT: %[[E:.*]] = "prim.exp"(%[[N]])
// CHECK-NEXT: %[[D:.*]] = "prim.add"(%[[ONE]], %[[E]])
// CHECK-NEXT: %[[Y:.*]] = "prim.reciprocal"(%[[D]])
// CHECK-NEXT: %[[R:.*]] = "prim.convert"(%[[Y]]) : (tensor<8xf32>) -> tensor<8xf16>
// CHECK-NEXT: return %[[R]]
func.func @sigmoid_f16(%x: tensor<8xf16>) -> tensor<8xf16> {
  %y = "prim.sigmoid"(%x) : (tensor<8xf16>) -> tensor<8xf16>
  return %y : tensor<8xf16>
}

// -----

// silu: x * sigmoid(x).
// CHECK-LABEL: func.func @silu
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>)
// CHECK-NEXT: %[[ONE:.*]] = "prim.full"() {value = 1.000000e+00 : f32}
// CHECK-NEXT: %[[N:.*]] = "prim.neg"(%[[X]])
// CHECK-NEXT: %[[E:.*]] = "prim.exp"(%[[N]])
// CHECK-NEXT: %[[D:.*]] = "prim.add"(%[[ONE]], %[[E]])
// CHECK-NEXT: %[[S:.*]] = "prim.reciprocal"(%[[D]])
// CHECK-NEXT: %[[Y:.*]] = "prim.mul"(%[[X]], %[[S]])
// CHECK-NEXT: return %[[Y]]
func.func @silu(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = "prim.silu"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// swiglu of bf16: silu(a) * b in f32, a and b converted once each.
// CHECK-LABEL: func.func @swiglu_bf16
// CHECK-SAME: (%[[A:.*]]: tensor<2x8xbf16>, %[[B:.*]]: tensor<2x8xbf16>)
// CHECK-NEXT: %[[AC:.*]] = "prim.convert"(%[[A]]) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[BC:.*]] = "prim.convert"(%[[B]]) : (tensor<2x8xbf16>) -> tensor<2x8xf32>
// CHECK-NEXT: "prim.full"
// CHECK-NEXT: "prim.neg"(%[[AC]])
// CHECK-NEXT: "prim.exp"
// CHECK-NEXT: "prim.add"
// CHECK-NEXT: %[[S:.*]] = "prim.reciprocal"
// CHECK-NEXT: %[[SILU:.*]] = "prim.mul"(%[[AC]], %[[S]])
// CHECK-NEXT: %[[Y:.*]] = "prim.mul"(%[[SILU]], %[[BC]])
// CHECK-NEXT: %[[R:.*]] = "prim.convert"(%[[Y]]) : (tensor<2x8xf32>) -> tensor<2x8xbf16>
// CHECK-NEXT: return %[[R]]
func.func @swiglu_bf16(%a: tensor<2x8xbf16>, %b: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  %y = "prim.swiglu"(%a, %b) : (tensor<2x8xbf16>, tensor<2x8xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// linear of 2-D f32 with a bias: matmul(x, transpose(w)) + broadcast(bias), the f32
// product as three bf16 ones of the operands' hi and lo parts (as prim.matmul's f32 rule,
// matmul.mlir), each reading its weight part through a transpose.
// CHECK-LABEL: func.func @linear
// CHECK-SAME: (%[[X:.*]]: tensor<6x8xf32>, %[[W:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[XH:.*]] = "prim.convert"(%[[X]]) : (tensor<6x8xf32>) -> tensor<6x8xbf16>
// CHECK: %[[WH:.*]] = "prim.convert"(%[[W]]) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
// CHECK: %[[WT:.*]] = "prim.transpose"(%[[WH]]) {permutation = array<i64: 1, 0>} : (tensor<4x8xbf16>) -> tensor<8x4xbf16>
// CHECK-NEXT: %[[MM:.*]] = "prim.matmul"(%[[XH]], %[[WT]]) : (tensor<6x8xbf16>, tensor<8x4xbf16>) -> tensor<6x4xf32>
// CHECK-COUNT-2: "prim.matmul"
// CHECK: %[[BB:.*]] = "prim.broadcast_in_dim"(%[[B]]) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: %[[Y:.*]] = "prim.add"(%{{.*}}, %[[BB]])
// CHECK-NEXT: return %[[Y]]
func.func @linear(%x: tensor<6x8xf32>, %w: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<6x4xf32> {
  %y = "prim.linear"(%x, %w, %b) : (tensor<6x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}

// -----

// linear of 3-D bf16 with a bias: x folds to [M, K]; the matmul reads bf16 and gives its
// f32 accumulator; the bias is added in f32, the product unfolded and rounded once.
// CHECK-LABEL: func.func @linear_bf16_3d
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x8xbf16>, %[[W:.*]]: tensor<4x8xbf16>, %[[B:.*]]: tensor<4xbf16>)
// CHECK-NEXT: %[[WT:.*]] = "prim.transpose"(%[[W]]) {permutation = array<i64: 1, 0>} : (tensor<4x8xbf16>) -> tensor<8x4xbf16>
// CHECK-NEXT: %[[X2:.*]] = "prim.reshape"(%[[X]]) : (tensor<2x3x8xbf16>) -> tensor<6x8xbf16>
// CHECK-NEXT: %[[MM:.*]] = "prim.matmul"(%[[X2]], %[[WT]]) : (tensor<6x8xbf16>, tensor<8x4xbf16>) -> tensor<6x4xf32>
// CHECK-NEXT: %[[BC:.*]] = "prim.convert"(%[[B]]) : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK-NEXT: %[[BB:.*]] = "prim.broadcast_in_dim"(%[[BC]]) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: %[[Y:.*]] = "prim.add"(%[[MM]], %[[BB]])
// CHECK-NEXT: %[[Y3:.*]] = "prim.reshape"(%[[Y]]) : (tensor<6x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[R:.*]] = "prim.convert"(%[[Y3]]) : (tensor<2x3x4xf32>) -> tensor<2x3x4xbf16>
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: prim.linear
func.func @linear_bf16_3d(%x: tensor<2x3x8xbf16>, %w: tensor<4x8xbf16>, %b: tensor<4xbf16>) -> tensor<2x3x4xbf16> {
  %y = "prim.linear"(%x, %w, %b) : (tensor<2x3x8xbf16>, tensor<4x8xbf16>, tensor<4xbf16>) -> tensor<2x3x4xbf16>
  return %y : tensor<2x3x4xbf16>
}

// -----

// linear of a 1-D bf16 x without a bias: the matmul gives bf16 directly (no converts).
// CHECK-LABEL: func.func @linear_1d_no_bias
// CHECK-NEXT: "prim.transpose"
// CHECK-NEXT: "prim.reshape"(%arg0) : (tensor<8xbf16>) -> tensor<1x8xbf16>
// CHECK-NEXT: "prim.matmul"(%{{.*}}, %{{.*}}) : (tensor<1x8xbf16>, tensor<8x4xbf16>) -> tensor<1x4xbf16>
// CHECK-NEXT: %[[Y:.*]] = "prim.reshape"(%{{.*}}) : (tensor<1x4xbf16>) -> tensor<4xbf16>
// CHECK-NEXT: return %[[Y]]
func.func @linear_1d_no_bias(%x: tensor<8xbf16>, %w: tensor<4x8xbf16>) -> tensor<4xbf16> {
  %y = "prim.linear"(%x, %w) : (tensor<8xbf16>, tensor<4x8xbf16>) -> tensor<4xbf16>
  return %y : tensor<4xbf16>
}

// -----

// f64 computes in f64, with f64 constants.
// CHECK-LABEL: func.func @sigmoid_f64
// CHECK-NOT: prim.convert
// CHECK: "prim.full"() {value = 1.000000e+00 : f64} : () -> tensor<8xf64>
// CHECK: "prim.reciprocal"
func.func @sigmoid_f64(%x: tensor<8xf64>) -> tensor<8xf64> {
  %y = "prim.sigmoid"(%x) : (tensor<8xf64>) -> tensor<8xf64>
  return %y : tensor<8xf64>
}

// -----

// Every composite of a function is rewritten, also one that uses another's result and one
// nested in a region; primitive ops are left alone.
// CHECK-LABEL: func.func @chain
// CHECK-NOT: prim.softmax
// CHECK-NOT: prim.gelu
// CHECK-NOT: prim.silu
// CHECK: "prim.amax"
// CHECK: "prim.erf"
// CHECK: "prim.neg"(%arg0)
// CHECK: scf.execute_region
// CHECK: "prim.reciprocal"
// CHECK: "prim.abs"
func.func @chain(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %s = "prim.softmax"(%x) {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %g = "prim.gelu"(%s) {approximate = "none"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = "prim.neg"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = scf.execute_region -> tensor<4x8xf32> {
    %t = "prim.silu"(%n) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %t : tensor<4x8xf32>
  }
  %a = "prim.abs"(%r) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %g, %a : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// var's divisor N - correction in double: a correction of INT64_MIN divides by 2^63 + 3
// (positive; in int64 it overflowed to a negative divisor and std gave NaN).
// CHECK-LABEL: func.func @std_correction_min
// CHECK: "prim.full"() {value = 9.22337203E+18 : f32}
func.func @std_correction_min(%x: tensor<4x3xf32>) -> tensor<4xf32> {
  %y = "prim.std"(%x) {dims = array<i64: 1>, keepdim = false, correction = -9223372036854775808} : (tensor<4x3xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
