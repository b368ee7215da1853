// A chain that rounds in the middle: y = bf16(exp(x) * 3) - x, computed in f32 with an
// explicit convert back to bf16 before the subtraction.
func.func @rounding(%x: tensor<1048576xf32>) -> tensor<1048576xf32> {
  %three = "prim.full"() {value = 3.0 : f32} : () -> tensor<1048576xf32>
  %e = "prim.exp"(%x) : (tensor<1048576xf32>) -> tensor<1048576xf32>
  %m = "prim.mul"(%e, %three) : (tensor<1048576xf32>, tensor<1048576xf32>) -> tensor<1048576xf32>
  %h = "prim.convert"(%m) : (tensor<1048576xf32>) -> tensor<1048576xbf16>
  %f = "prim.convert"(%h) : (tensor<1048576xbf16>) -> tensor<1048576xf32>
  %y = "prim.sub"(%f, %x) : (tensor<1048576xf32>, tensor<1048576xf32>) -> tensor<1048576xf32>
  return %y : tensor<1048576xf32>
}
