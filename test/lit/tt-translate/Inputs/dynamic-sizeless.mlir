// A dynamic dimension no input sizes: the constant's rows.
func.func @f(%x: tensor<8xf32>) -> tensor<?x8xf32> {
  %c = "prim.full"() {value = 1.0 : f32} : () -> tensor<?x8xf32>
  %y = "prim.exp"(%c) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}
