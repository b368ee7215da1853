//@tt-meta 1 arch sm_90a
//@tensor %0 input 0 f32 65536
//@tensor %1 output 0 f8e4m3 65536
//@tensor %2 output 1 f8e5m2 65536
//@prim %1 = convert %0
//@prim %2 = convert %0
//@launch to_fp8 grid cdiv(numel(%0),256) 1 1 block 256 1 1 shared 0
//@arg ptr %0
//@arg ptr %1
//@arg ptr %2
//@arg i32 numel(%0)
// The hardware's f32 -> fp8 rounding (nearest even) matches the reference's
// within the finite range.
// EXPECT: exit 0
// EXPECT-OUTPUT: output %1 f8e4m3 65536: rel_l2 0.0e+00 max_abs 0.0e+00 nonfinite 0 tol 1.0e-01 PASS
// EXPECT-OUTPUT: output %2 f8e5m2 65536: rel_l2 0.0e+00 max_abs 0.0e+00 nonfinite 0 tol 1.0e-01 PASS
#include <cuda_fp8.h>
extern "C" __global__ void to_fp8(const float *x, __nv_fp8_storage_t *a,
                                  __nv_fp8_storage_t *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    a[i] = __nv_cvt_float_to_fp8(x[i], __NV_SATFINITE, __NV_E4M3);
    b[i] = __nv_cvt_float_to_fp8(x[i], __NV_SATFINITE, __NV_E5M2);
  }
}
