// RUN: tt-opt %s --split-input-file --fuse --mlir-print-debuginfo=false | FileCheck %s
// A constant operand of a matmul (issue 21, item 6): a dot kernel loads its operands
// from memory tile by tile, so the constant is stored by a kernel of its own and the dot
// group reads it as an input (elsewhere constants are copied into each group that uses
// them, never stored). Read directly, or through a transpose the dot reads in place.

// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: -> tensor<64x48xf16> attributes {prim.fusion = "elementwise"}
// CHECK-NEXT: "prim.full"
// CHECK-LABEL: func.func private @fused_1
// CHECK-SAME: (%{{.*}}: tensor<37x64xf16>, %{{.*}}: tensor<64x48xf16>) -> tensor<37x48xf16> attributes {prim.fusion = "dot"}
// CHECK-NOT: prim.full
// CHECK: func.func @weight_full
// CHECK-NEXT: %[[W:.*]] = call @fused_0()
// CHECK-NEXT: call @fused_1(%arg0, %[[W]])
func.func @weight_full(%a: tensor<37x64xf16>) -> tensor<37x48xf16> {
  %w = "prim.full"() {value = 0.5 : f32} : () -> tensor<64x48xf16>
  %y = "prim.matmul"(%a, %w) : (tensor<37x64xf16>, tensor<64x48xf16>) -> tensor<37x48xf16>
  return %y : tensor<37x48xf16>
}

// -----

// CHECK-LABEL: func.func private @fused_1
// CHECK-SAME: attributes {prim.fusion = "dot"}
// CHECK-NEXT: "prim.transpose"(%arg0)
// CHECK: func.func @weight_full_t
// CHECK-NEXT: %[[W:.*]] = call @fused_0()
// CHECK-NEXT: call @fused_1(%[[W]], %arg0)
func.func @weight_full_t(%a: tensor<37x64xbf16>) -> tensor<37x48xbf16> {
  %w = "prim.full"() {value = -0.25 : f32} : () -> tensor<48x64xbf16>
  %t = "prim.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<48x64xbf16>) -> tensor<64x48xbf16>
  %y = "prim.matmul"(%a, %t) : (tensor<37x64xbf16>, tensor<64x48xbf16>) -> tensor<37x48xbf16>
  return %y : tensor<37x48xbf16>
}
