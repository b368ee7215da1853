// A large GEMM (linear + bias, 4096^3 bf16): tt-translate/targets.test
func.func @main(%x: tensor<4096x4096xbf16>, %w: tensor<4096x4096xbf16> {tt.invariant}, %b: tensor<4096xbf16>) -> tensor<4096x4096xbf16> {
  %y = "prim.linear"(%x, %w, %b) : (tensor<4096x4096xbf16>, tensor<4096x4096xbf16>, tensor<4096xbf16>) -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}
