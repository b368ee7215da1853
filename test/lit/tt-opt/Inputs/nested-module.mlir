// A module nested in the top one: a tt pass in `builtin.module(builtin.module(...))`
// runs on the inner one only.
module {
  module @inner {
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %y = "prim.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
      return %y : tensor<4xf32>
    }
  }
  func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
    %y = "prim.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}
