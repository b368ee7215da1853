// x @ w^T in a fused function whose tile.launch asks for a zeroed result (as a split-K
// kernel does), then + b in one with zero_result = false. Both launch @copy, a stand-in (it
// copies %arg0 to %arg2): the test checks only the metadata.
module {
  func.func @copy(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>, %arg2: !tile.ptr<f32>, %arg3: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
    %0 = "tile.program_id"() {axis = 0 : i32} : () -> i32
    %1 = "tile.range"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
    %c1024_i32 = arith.constant 1024 : i32
    %2 = arith.muli %0, %c1024_i32 : i32
    %3 = "tile.splat"(%2) : (i32) -> tensor<1024xi32>
    %4 = arith.addi %3, %1 : tensor<1024xi32>
    %5 = "tile.splat"(%arg3) : (i32) -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %7 = "tile.load"(%arg0, %4, %6, %cst) : (!tile.ptr<f32>, tensor<1024xi32>, tensor<1024xi1>, tensor<1024xf32>) -> tensor<1024xf32>
    "tile.store"(%arg2, %4, %7, %6) : (!tile.ptr<f32>, tensor<1024xi32>, tensor<1024xf32>, tensor<1024xi1>) -> ()
    return
  }
  func.func private @fused_0(%x: tensor<16x64xf32>, %w: tensor<32x64xf32>) -> tensor<16x32xf32> attributes {prim.fusion = "dot", tile.launch = {args = ["numel(%r0)"], grid = ["cdiv(numel(%r0),1024)", "1", "1"], kernel = @copy, zero_result}} {
    %wt = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %y = "prim.matmul"(%x, %wt) : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    return %y : tensor<16x32xf32>
  }
  func.func private @fused_1(%y: tensor<16x32xf32>, %b: tensor<16x32xf32>) -> tensor<16x32xf32> attributes {prim.fusion = "elementwise", tile.launch = {args = ["numel(%r0)"], grid = ["cdiv(numel(%r0),1024)", "1", "1"], kernel = @copy, zero_result = false}} {
    %s = "prim.add"(%y, %b) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    return %s : tensor<16x32xf32>
  }
  func.func @linear(%x: tensor<16x64xf32>, %w: tensor<32x64xf32>, %b: tensor<16x32xf32>) -> tensor<16x32xf32> {
    %0 = call @fused_0(%x, %w) : (tensor<16x64xf32>, tensor<32x64xf32>) -> tensor<16x32xf32>
    %1 = call @fused_1(%0, %b) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    return %1 : tensor<16x32xf32>
  }
}
