func.func @main(%q: tensor<?x128x64xf16>, %k: tensor<?x128x64xf16>) -> tensor<?x128x128xf16> {
  %kt = "prim.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<?x128x64xf16>) -> tensor<?x64x128xf16>
  %s = "prim.matmul"(%q, %kt) : (tensor<?x128x64xf16>, tensor<?x64x128xf16>) -> tensor<?x128x128xf16>
  return %s : tensor<?x128x128xf16>
}
