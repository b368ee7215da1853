// y = gelu_tanh(x * a + b) on a bf16 matrix, with a per-column scale a and bias b,
// written in prim ops: 0.5 * v * (1 + tanh(sqrt(2/pi) * (v + 0.044715 * v^3))).
// Run: tt-opt --fuse --splitk examples/bias_gelu.mlir | tt-translate --ptx -o bias_gelu.ptx
func.func @bias_gelu(%x: tensor<8192x8192xbf16>, %a: tensor<8192xbf16>,
                     %b: tensor<8192xbf16>) -> tensor<8192x8192xbf16> {
  %ab = "prim.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 1>}
      : (tensor<8192xbf16>) -> tensor<8192x8192xbf16>
  %bb = "prim.broadcast_in_dim"(%b) {broadcast_dimensions = array<i64: 1>}
      : (tensor<8192xbf16>) -> tensor<8192x8192xbf16>
  %xa = "prim.mul"(%x, %ab) : (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  %v = "prim.add"(%xa, %bb) : (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  %half = "prim.full"() {value = 0.5 : f32} : () -> tensor<8192x8192xbf16>
  %one = "prim.full"() {value = 1.0 : f32} : () -> tensor<8192x8192xbf16>
  %k0 = "prim.full"() {value = 0.7978845608028654 : f32} : () -> tensor<8192x8192xbf16>
  %k1 = "prim.full"() {value = 0.044715 : f32} : () -> tensor<8192x8192xbf16>
  %v2 = "prim.mul"(%v, %v) : (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  %v3 = "prim.mul"(%v2, %v) : (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  %c = "prim.mul"(%k1, %v3) : (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  %in = "prim.add"(%v, %c) : (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  %s = "prim.mul"(%k0, %in) : (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  %t = "prim.tanh"(%s) : (tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  %t1 = "prim.add"(%one, %t) : (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  %hv = "prim.mul"(%half, %v) : (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  %y = "prim.mul"(%hv, %t1) : (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  return %y : tensor<8192x8192xbf16>
}
