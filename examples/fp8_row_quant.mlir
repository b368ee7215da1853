// Per-row dynamic fp8 quantization, as an fp8 inference stack quantizes a bf16 activation
// before an fp8 GEMM (torch._scaled_mm): s = amax(|x|, -1) / 448, q = (x / s).to(e4m3fn),
// returning q and the per-row scales s (448: E4M3FN's largest finite value).
// Run: tt-opt --decompose --fuse --splitk examples/fp8_row_quant.mlir | tt-translate --ptx
func.func @row_quant(%x: tensor<4096x4096xbf16>) -> (tensor<4096x4096xf8E4M3FN>, tensor<4096x1xf32>) {
  %a = "prim.convert"(%x) : (tensor<4096x4096xbf16>) -> tensor<4096x4096xf32>
  %b = "prim.abs"(%a) : (tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %m = "prim.amax"(%b) {dims = array<i64: 1>, keepdim = true}
      : (tensor<4096x4096xf32>) -> tensor<4096x1xf32>
  %k = "prim.constant"() {value = dense<448.0> : tensor<4096x1xf32>} : () -> tensor<4096x1xf32>
  %s = "prim.div"(%m, %k) : (tensor<4096x1xf32>, tensor<4096x1xf32>) -> tensor<4096x1xf32>
  %sb = "prim.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64: 0, 1>}
      : (tensor<4096x1xf32>) -> tensor<4096x4096xf32>
  %d = "prim.div"(%a, %sb) : (tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %q = "prim.convert"(%d) : (tensor<4096x4096xf32>) -> tensor<4096x4096xf8E4M3FN>
  return %q, %s : tensor<4096x4096xf8E4M3FN>, tensor<4096x1xf32>
}
