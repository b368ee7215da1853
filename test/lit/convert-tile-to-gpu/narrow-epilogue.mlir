// The swapped wgmma form's accumulator converted to f16 / bf16 and nothing else (5c's
// narrow form, tgWgmmaToFlatNarrow): converted in registers, one xor-4 shuffle a pair of
// rows, stored to shared memory as packed 2 x 16-bit words (half the f32 staging's bytes
// and stores), read back flat. After wgmma.wait_group 0, through an empty inline asm, so
// the conversion cannot be scheduled before it: ptxas then keeps the wgmma unserialized.
// With a bias (an f32 add first) the f32 staging stays.
// RUN: tt-opt %s --decompose --fuse --splitk | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: tt-run --ref-only --seed 1 %t.ptx | FileCheck %s --check-prefix=REF

// CHECK-LABEL: .entry fused_0_kernel(
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK-NOT: st.shared.b32
// CHECK: cvt.rn.f16x2.f32
// CHECK: shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
// CHECK: st.shared.v2.b16
// CHECK: ld.shared.v4.b32
// CHECK: st.global.v4.b32
// PTXAS-NOT: C7514
// PTXAS: Compiling entry function
// PTXAS-NOT: C7514
// REF: output %{{[0-9]+}} f16 2x128x128
func.func @scores(%a: tensor<2x128x64xf16>, %w: tensor<2x128x64xf16>) -> tensor<2x128x128xf16> {
  %wt = "prim.transpose"(%w) {permutation = array<i64: 0, 2, 1>} : (tensor<2x128x64xf16>) -> tensor<2x64x128xf16>
  %p = "prim.matmul"(%a, %wt) : (tensor<2x128x64xf16>, tensor<2x64x128xf16>) -> tensor<2x128x128xf16>
  return %p : tensor<2x128x128xf16>
}
