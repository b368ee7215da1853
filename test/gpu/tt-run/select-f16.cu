//@tt-meta 1 arch sm_90a
//@tensor %0 input 0 f16 3x5x7
//@tensor %1 input 1 f16 3x5x7
//@tensor %2 output 0 i1 3x5x7
//@tensor %3 output 1 f16 3x5x7
//@prim %2 = compare %0 %1 direction=gt
//@prim %3 = where %2 %0 %1
//@launch sel grid 1 1 1 block 128 1 1 shared 0
//@arg ptr %0
//@arg ptr %1
//@arg ptr %2
//@arg ptr %3
//@arg i32 numel(%0)
// Two outputs, one of them i1 (one byte per element).
// EXPECT: exit 0
// EXPECT-OUTPUT: output %2 i1 3x5x7: rel_l2 0.0e+00 max_abs 0.0e+00 nonfinite 0 tol
// EXPECT-OUTPUT: output %3 f16 3x5x7: rel_l2 0.0e+00 max_abs 0.0e+00 nonfinite 0 tol
// EXPECT-OUTPUT: result PASS
#include <cuda_fp16.h>
extern "C" __global__ void sel(const __half *a, const __half *b,
                               unsigned char *c, __half *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    bool gt = __half2float(a[i]) > __half2float(b[i]);
    c[i] = gt;
    y[i] = gt ? a[i] : b[i];
  }
}
