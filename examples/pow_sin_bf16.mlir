// y = bf16(x^2 + sin(1000 x)), computed in f32 from a bf16 vector: exact forms even
// though the result is stored as bf16 (which marks the kernel's other math `afn`).
// pow's approximate form, exp2(2 * log2(x)), is NaN for every negative x (torch.compile
// hands tt rms_norm as pow(x, 2)); sin.approx loses all accuracy past |x| ~ 100 pi, the
// range of rotary embeddings' angles. So --tile leaves pow, sin and cos without `afn`.
// Run: tt-opt --fuse --splitk examples/pow_sin_bf16.mlir | tt-translate --ptx -o pow_sin_bf16.ptx
func.func @pow_sin_bf16(%x: tensor<1048576xbf16>) -> tensor<1048576xbf16> {
  %xf = "prim.convert"(%x) : (tensor<1048576xbf16>) -> tensor<1048576xf32>
  %two = "prim.full"() {value = 2.0 : f64} : () -> tensor<1048576xf32>
  %k = "prim.full"() {value = 1000.0 : f64} : () -> tensor<1048576xf32>
  %sq = "prim.pow"(%xf, %two) : (tensor<1048576xf32>, tensor<1048576xf32>) -> tensor<1048576xf32>
  %a = "prim.mul"(%xf, %k) : (tensor<1048576xf32>, tensor<1048576xf32>) -> tensor<1048576xf32>
  %s = "prim.sin"(%a) : (tensor<1048576xf32>) -> tensor<1048576xf32>
  %sum = "prim.add"(%sq, %s) : (tensor<1048576xf32>, tensor<1048576xf32>) -> tensor<1048576xf32>
  %y = "prim.convert"(%sum) : (tensor<1048576xf32>) -> tensor<1048576xbf16>
  return %y : tensor<1048576xbf16>
}
