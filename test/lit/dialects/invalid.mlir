// RUN: tt-opt %s --split-input-file --verify-diagnostics

func.func @mixed(%x: tensor<4xf32>, %y: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error@+1 {{expected 'tensor<4xf32>' but got 'tensor<4xf16>'}}
  %0 = "prim.add"(%x, %y) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @no_attr(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{attribute "direction" is expected but not provided}}
  %0 = "prim.compare"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %x : tensor<4xf32>
}

// -----

func.func @pid() -> i64 {
  // expected-error@+1 {{expected 'i32' but got 'i64'}}
  %p = "tile.program_id"() {axis = 0 : i32} : () -> i64
  return %p : i64
}

// -----

// tile.dot's `mma` names one of the three tensor-core forms.
func.func @dot_form(%a: tensor<16x64xf16>, %b: tensor<64x64xf16>, %c: tensor<16x64xf32>) {
  // expected-error@+1 {{'"tensor"' does not satisfy the constraint}}
  %d = "tile.dot"(%a, %b, %c) {mma = "tensor"} : (tensor<16x64xf16>, tensor<64x64xf16>, tensor<16x64xf32>) -> tensor<16x64xf32>
  return
}
