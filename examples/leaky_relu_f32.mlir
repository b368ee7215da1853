// Leaky ReLU with a clamp on f32: y = min(where(x > 0, x, 0.01 * x), 6).
func.func @leaky_relu(%x: tensor<1048576xf32>) -> tensor<1048576xf32> {
  %zero = "prim.full"() {value = 0.0 : f32} : () -> tensor<1048576xf32>
  %k = "prim.full"() {value = 0.01 : f32} : () -> tensor<1048576xf32>
  %six = "prim.full"() {value = 6.0 : f32} : () -> tensor<1048576xf32>
  %pos = "prim.compare"(%x, %zero) {direction = "gt"} : (tensor<1048576xf32>, tensor<1048576xf32>) -> tensor<1048576xi1>
  %kx = "prim.mul"(%k, %x) : (tensor<1048576xf32>, tensor<1048576xf32>) -> tensor<1048576xf32>
  %r = "prim.where"(%pos, %x, %kx) : (tensor<1048576xi1>, tensor<1048576xf32>, tensor<1048576xf32>) -> tensor<1048576xf32>
  %y = "prim.min"(%r, %six) : (tensor<1048576xf32>, tensor<1048576xf32>) -> tensor<1048576xf32>
  return %y : tensor<1048576xf32>
}
