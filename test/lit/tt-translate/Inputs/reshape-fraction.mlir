func.func @main(%x: tensor<?x64xf32>) -> tensor<?x8x64xf32> {
  %r = "prim.reshape"(%x) : (tensor<?x64xf32>) -> tensor<?x8x64xf32>
  %e = "prim.exp"(%r) : (tensor<?x8x64xf32>) -> tensor<?x8x64xf32>
  return %e : tensor<?x8x64xf32>
}
