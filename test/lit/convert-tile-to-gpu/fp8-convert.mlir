// RUN: tt-opt %s --split-input-file --decompose --fuse --tile --convert-tile-to-gpu=mma=wgmma --mlir-print-debuginfo=false | FileCheck %s
// fp8 widened and rounded in kernels that compute (elementwise.c fp8Widen, fp8Round): pairs
// of bytes through the hardware converts of sm_89+; a rounding's saturation undone where
// PyTorch's cast overflows: |x| > 464 is NaN in E4M3FN (the saturated 448, S.1111.110, or-ed
// with 0x7f), |x| >= 61440 is +-inf in E5M2 (the sign kept, 0x7c). The PTX:
// tt-translate/fp8-convert.test.

// CHECK-LABEL: gpu.func @fused_0_kernel
// CHECK: nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
// CHECK: arith.extf %{{.*}} : vector<{{[0-9]+}}xf16> to vector<{{[0-9]+}}xf32>
// CHECK: %[[P:.*]] = nvvm.convert.f32x2.to.f8x2 %[[HI:.*]], %[[LO:.*]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : vector<2xi8>(f8E4M3FN)
// CHECK: %[[B:.*]] = vector.extract %[[P]][0] : i8 from vector<2xi8>
// CHECK: %[[A:.*]] = math.absf %[[LO]] : f32
// CHECK: %[[O:.*]] = arith.cmpf ogt, %[[A]], %{{.*}} : f32
// CHECK: %[[N:.*]] = arith.ori %[[B]], %c127_i8 : i8
// CHECK: arith.select %[[O]], %[[N]], %[[B]] : i8
func.func @e4m3(%q: tensor<7x1000xf8E4M3FN>) -> tensor<7x1000xf8E4M3FN> {
  %a = "prim.convert"(%q) : (tensor<7x1000xf8E4M3FN>) -> tensor<7x1000xf32>
  %b = "prim.exp"(%a) : (tensor<7x1000xf32>) -> tensor<7x1000xf32>
  %y = "prim.convert"(%b) : (tensor<7x1000xf32>) -> tensor<7x1000xf8E4M3FN>
  return %y : tensor<7x1000xf8E4M3FN>
}

// -----

// CHECK-LABEL: gpu.func @fused_0_kernel
// CHECK: nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E5M2) -> vector<2xf16>
// CHECK: %[[P:.*]] = nvvm.convert.f32x2.to.f8x2 %[[HI:.*]], %[[LO:.*]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : vector<2xi8>(f8E5M2)
// CHECK: %[[B:.*]] = vector.extract %[[P]][0] : i8 from vector<2xi8>
// CHECK: %[[A:.*]] = math.absf %[[LO]] : f32
// CHECK: %[[O:.*]] = arith.cmpf oge, %[[A]], %{{.*}} : f32
// CHECK: %[[S:.*]] = arith.andi %[[B]], %c-128_i8 : i8
// CHECK: %[[I:.*]] = arith.ori %[[S]], %c124_i8 : i8
// CHECK: arith.select %[[O]], %[[I]], %[[B]] : i8
func.func @e5m2(%q: tensor<7x1000xf8E5M2>) -> tensor<7x1000xf8E5M2> {
  %a = "prim.convert"(%q) : (tensor<7x1000xf8E5M2>) -> tensor<7x1000xf32>
  %b = "prim.exp"(%a) : (tensor<7x1000xf32>) -> tensor<7x1000xf32>
  %y = "prim.convert"(%b) : (tensor<7x1000xf32>) -> tensor<7x1000xf8E5M2>
  return %y : tensor<7x1000xf8E5M2>
}
