// RUN: tt-opt %s --decompose --fuse --tile --convert-tile-to-gpu=mma=wgmma --mlir-print-debuginfo=false | FileCheck %s
// RUN: tt-opt %s --decompose --fuse --splitk | tt-translate --ptx | FileCheck %s --check-prefix=PTX
// fp8 through kernels that only move data (tile/kernel.c moveOnly): LLVM has no fp8 type,
// so every load and store of fp8 values goes through i8 (common.c tgLoadPtr / tgStore):
// a transpose's rows into shared memory 16 lanes (16 bytes) at a time, its columns out of
// it element by element into a vector begun as poison (tgPoison: an i8 poison cast to fp8;
// an fp8 poison crashed LLVM's translation, a fuzzer find), the result stored 16 bytes at
// a time.
// CHECK-LABEL: gpu.func @fused_0_kernel
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<16xi8>
// CHECK-NEXT: arith.bitcast %{{.*}} : vector<16xi8> to vector<16xf8E4M3FN>
// CHECK: arith.bitcast %{{.*}} : vector<16xf8E4M3FN> to vector<16xi8>
// CHECK-NEXT: llvm.store %{{.*}} {alignment = 16 : i64} : vector<16xi8>, !llvm.ptr<3>
// CHECK: llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK-NEXT: arith.bitcast %{{.*}} : i8 to f8E4M3FN
// CHECK: llvm.store %{{.*}} : vector<16xi8>, !llvm.ptr<1>
func.func @transpose(%x: tensor<64x96xf8E4M3FN>) -> tensor<96x64xf8E4M3FN> {
  %y = "prim.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<64x96xf8E4M3FN>) -> tensor<96x64xf8E4M3FN>
  return %y : tensor<96x64xf8E4M3FN>
}
// PTX-LABEL: .entry fused_0_kernel
// PTX: ld.global.v4.b32
// PTX: st.shared.v4.b32
// PTX: ld.shared.b8
// PTX: st.global.v4.b32
