// torch.std(x, dim=-1, correction=0) and torch.clamp(torch.mean(x, 0), min=-0.5) of a
// 3x1000 bf16 tensor (test/lit/tt-translate/composites.test).
func.func @main(%x: tensor<3x1000xbf16>) -> (tensor<3xbf16>, tensor<1000xbf16>) {
  %s = "prim.std"(%x) {dims = array<i64: -1>, correction = 0 : i64} : (tensor<3x1000xbf16>) -> tensor<3xbf16>
  %m = "prim.mean"(%x) {dims = array<i64: 0>} : (tensor<3x1000xbf16>) -> tensor<1000xbf16>
  %c = "prim.clamp"(%m) {min = -0.5 : f32} : (tensor<1000xbf16>) -> tensor<1000xbf16>
  return %s, %c : tensor<3xbf16>, tensor<1000xbf16>
}
