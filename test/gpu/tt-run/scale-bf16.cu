//@tt-meta 1 arch sm_90a
//@tensor %0 input 0 bf16 4096x4096
//@tensor %1 input 1 bf16 4096
//@tensor %2 temp bf16 4096x4096
//@tensor %3 temp f32 4096x4096
//@tensor %4 output 0 bf16 4096x4096
//@prim %2 = broadcast_in_dim %1 dims=1
//@prim %3 = mul %0 %2
//@prim %4 = convert %3
//@launch scale grid cdiv(numel(%4),256) 1 1 block 256 1 1 shared 0
//@arg ptr %0
//@arg ptr %1
//@arg ptr %4
//@arg i32 numel(%4)
//@arg i32 dim(%4,1)
// A bf16 times a bf16 is exact in f32, so the kernel's one rounding matches
// the reference's convert bit for bit.
// EXPECT: exit 0
// EXPECT-OUTPUT: output %4 bf16 4096x4096: rel_l2 0.0e+00 max_abs 0.0e+00 nonfinite 0 tol 1.0e-02 PASS
// EXPECT-OUTPUT: GB/s (67117056 bytes)
#include <cuda_bf16.h>
extern "C" __global__ void scale(const __nv_bfloat16 *x, const __nv_bfloat16 *w,
                                 __nv_bfloat16 *y, int n, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __float2bfloat16_rn(__bfloat162float(x[i]) *
                               __bfloat162float(w[i % cols]));
}
