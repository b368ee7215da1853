// The sum-of-squares step of an RMSNorm as PyTorch writes it (x.pow(2)), scaled by 1/8
// as a division: --prim-simplify makes it x * x * 0.125.
func.func @rms(%x: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  %two = "prim.full"() {value = 2.0 : f32} : () -> tensor<64x4096xf32>
  %eight = "prim.full"() {value = 8.0 : f32} : () -> tensor<64x4096xf32>
  %p = "prim.pow"(%x, %two) : (tensor<64x4096xf32>, tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %d = "prim.div"(%p, %eight) : (tensor<64x4096xf32>, tensor<64x4096xf32>) -> tensor<64x4096xf32>
  return %d : tensor<64x4096xf32>
}
