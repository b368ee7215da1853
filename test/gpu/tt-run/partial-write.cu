//@tt-meta 1 arch sm_90a
//@tensor %0 input 0 bf16 1000
//@tensor %1 output 0 bf16 1000
//@prim %1 = neg %0
//@launch k grid cdiv(numel(%1),256) 1 1 block 256 1 1 shared 0
//@arg ptr %0
//@arg ptr %1
//@arg i32 numel(%1)
// The kernel leaves the last element unwritten: it keeps tt-run's NaN poison.
// EXPECT: exit 1
// EXPECT-OUTPUT: nonfinite 1 tol 1.0e-02 FAIL
#include <cuda_bf16.h>
extern "C" __global__ void k(const __nv_bfloat16 *x, __nv_bfloat16 *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 1)
    y[i] = __hneg(x[i]);
}
