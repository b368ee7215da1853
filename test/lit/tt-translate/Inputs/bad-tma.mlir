// tile.launch with a TMA descriptor entry naming an input the call does not have.
module {
  func.func @k(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>, %arg2: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
    return
  }
  func.func private @fused_0(%x: tensor<4xf32>) -> tensor<4xf32> attributes {prim.fusion = "elementwise", tile.launch = {args = ["numel(%r0)"], grid = ["1", "1", "1"], kernel = @k, tma = [array<i64: 3, 4, 1, 4, 1>]}} {
    %n = "prim.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %n : tensor<4xf32>
  }
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = call @fused_0(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
