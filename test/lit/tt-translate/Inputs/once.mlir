// exp(w) (stored: a matmul reads it) and its row sums read the weight alone: --fuse marks
// both calls tt.invariant; the product with x and its epilogue read an activation.
func.func @chain(%x: tensor<8x32xf16>, %w: tensor<64x32xf16> {tt.invariant}) -> tensor<8x64xf16> {
  %e = "prim.exp"(%w) : (tensor<64x32xf16>) -> tensor<64x32xf16>
  %s = "prim.sum"(%e) {dims = array<i64: 1>, keepdim = false} : (tensor<64x32xf16>) -> tensor<64xf16>
  %et = "prim.transpose"(%e) {permutation = array<i64: 1, 0>} : (tensor<64x32xf16>) -> tensor<32x64xf16>
  %p = "prim.matmul"(%x, %et) : (tensor<8x32xf16>, tensor<32x64xf16>) -> tensor<8x64xf16>
  %b = "prim.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64: 1>} : (tensor<64xf16>) -> tensor<8x64xf16>
  %y = "prim.add"(%p, %b) : (tensor<8x64xf16>, tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}
