// y = tanh(x) on an f16 vector. The result needs only f16 accuracy, so --tile marks the
// tanh `afn` and the lowering uses a short exp2-based formula instead of libdevice's tanhf.
// Run: tt-opt --fuse --splitk examples/tanh_f16.mlir | tt-translate --ptx -o tanh_f16.ptx
func.func @tanh_f16(%x: tensor<1048576xf16>) -> tensor<1048576xf16> {
  %y = "prim.tanh"(%x) : (tensor<1048576xf16>) -> tensor<1048576xf16>
  return %y : tensor<1048576xf16>
}
