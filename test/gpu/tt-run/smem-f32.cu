//@tt-meta 1 arch sm_90a
//@tensor %0 input 0 f32 64x24576
//@tensor %1 output 0 f32 64x24576
//@prim %1 = add %0 %0
//@launch twice grid dim(%0,0) 1 1 block 256 1 1 shared 98304
//@arg ptr %0
//@arg ptr %1
//@arg i32 dim(%0,1)
// 96 KiB of dynamic shared memory: above 48 KiB the runtime must raise the
// kernel's limit.
// EXPECT: exit 0
// EXPECT-OUTPUT: output %1 f32 64x24576: rel_l2 0.0e+00 max_abs 0.0e+00 nonfinite 0 tol 1.0e-05 PASS
extern "C" __global__ void twice(const float *x, float *y, int cols) {
  extern __shared__ float row[];
  const float *in = x + (long long)blockIdx.x * cols;
  float *out = y + (long long)blockIdx.x * cols;
  for (int j = threadIdx.x; j < cols; j += blockDim.x)
    row[j] = in[j];
  __syncthreads();
  for (int j = threadIdx.x; j < cols; j += blockDim.x)
    out[cols - 1 - j] = 2.0f * row[cols - 1 - j];
}
