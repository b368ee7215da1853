func.func @main(%x: tensor<16x2x4097xbf16>, %y: tensor<5x4097xf32>) -> (tensor<16x1x4097xbf16>, tensor<2x1365xf32>) {
  %g = "prim.slice"(%x) {start = array<i64: 0, 0, 0>, stop = array<i64: 16, 1, 4097>, step = array<i64: 1, 1, 1>} : (tensor<16x2x4097xbf16>) -> tensor<16x1x4097xbf16>
  %u = "prim.slice"(%x) {start = array<i64: 0, 1, 0>, stop = array<i64: 16, 2, 4097>, step = array<i64: 1, 1, 1>} : (tensor<16x2x4097xbf16>) -> tensor<16x1x4097xbf16>
  %s = "prim.silu"(%g) : (tensor<16x1x4097xbf16>) -> tensor<16x1x4097xbf16>
  %o = "prim.mul"(%s, %u) : (tensor<16x1x4097xbf16>, tensor<16x1x4097xbf16>) -> tensor<16x1x4097xbf16>
  %t = "prim.slice"(%y) {start = array<i64: 1, 2>, stop = array<i64: 5, 4097>, step = array<i64: 3, 3>} : (tensor<5x4097xf32>) -> tensor<2x1365xf32>
  return %o, %t : tensor<16x1x4097xbf16>, tensor<2x1365xf32>
}
