// RUN: tt-opt %s --split-input-file --verify-diagnostics --fuse --tile

func.func @i32(%x: tensor<8xi32>) -> tensor<8xi32> {
  // expected-error@+1 {{tile: the result of dtype i32 is not supported by the elementwise lowering (f32, f16, bf16)}}
  %y = "prim.neg"(%x) : (tensor<8xi32>) -> tensor<8xi32>
  return %y : tensor<8xi32>
}

// -----

func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error@+1 {{tile: dynamic dimensions are not supported yet (the result)}}
  %y = "prim.neg"(%x) : (tensor<?xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}
