func.func @main(%q: tensor<7x1000xf8E4M3FN>, %r: tensor<5x999xf8E5M2>) -> (tensor<7x1000xf8E4M3FN>, tensor<5x999xf8E5M2>) {
  %a = "prim.convert"(%q) : (tensor<7x1000xf8E4M3FN>) -> tensor<7x1000xf32>
  %b = "prim.exp"(%a) : (tensor<7x1000xf32>) -> tensor<7x1000xf32>
  %y = "prim.convert"(%b) : (tensor<7x1000xf32>) -> tensor<7x1000xf8E4M3FN>
  %c = "prim.convert"(%r) : (tensor<5x999xf8E5M2>) -> tensor<5x999xf32>
  %d = "prim.exp"(%c) : (tensor<5x999xf32>) -> tensor<5x999xf32>
  %z = "prim.convert"(%d) : (tensor<5x999xf32>) -> tensor<5x999xf8E5M2>
  return %y, %z : tensor<7x1000xf8E4M3FN>, tensor<5x999xf8E5M2>
}
