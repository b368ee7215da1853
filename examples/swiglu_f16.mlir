// SwiGLU's elementwise part on f16: y = silu(a) * b = a / (1 + exp(-a)) * b.
func.func @swiglu(%a: tensor<1048576xf16>, %b: tensor<1048576xf16>) -> tensor<1048576xf16> {
  %one = "prim.full"() {value = 1.0 : f32} : () -> tensor<1048576xf16>
  %na = "prim.neg"(%a) : (tensor<1048576xf16>) -> tensor<1048576xf16>
  %e = "prim.exp"(%na) : (tensor<1048576xf16>) -> tensor<1048576xf16>
  %d = "prim.add"(%one, %e) : (tensor<1048576xf16>, tensor<1048576xf16>) -> tensor<1048576xf16>
  %s = "prim.div"(%a, %d) : (tensor<1048576xf16>, tensor<1048576xf16>) -> tensor<1048576xf16>
  %y = "prim.mul"(%s, %b) : (tensor<1048576xf16>, tensor<1048576xf16>) -> tensor<1048576xf16>
  return %y : tensor<1048576xf16>
}
