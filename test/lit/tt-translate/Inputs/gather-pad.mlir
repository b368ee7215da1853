func.func @gpi(%x: tensor<3x1000x7xf16>, %i: tensor<3x37x7xi32>) -> tensor<4x40x7xf16> {
  %g = "prim.gather"(%x, %i) {dim = 1 : i64} : (tensor<3x1000x7xf16>, tensor<3x37x7xi32>) -> tensor<3x37x7xf16>
  %p = "prim.pad"(%g) {low = array<i64: 1, 1, 0>, high = array<i64: 0, 2, 0>, value = -2.5 : f64} : (tensor<3x37x7xf16>) -> tensor<4x40x7xf16>
  %r = "prim.iota"() {dimension = 1 : i64} : () -> tensor<4x40x7xf16>
  %y = "prim.add"(%p, %r) : (tensor<4x40x7xf16>, tensor<4x40x7xf16>) -> tensor<4x40x7xf16>
  return %y : tensor<4x40x7xf16>
}
