//@tt-meta 1 arch sm_90a
//@tensor %0 input 0 f32 4096
//@tensor %1 input 1 f32 4096
//@tensor %2 output 0 f32 4096
//@prim %2 = mul %0 %1
//@launch k grid cdiv(numel(%2),256) 1 1 block 256 1 1 shared 0
//@arg ptr %0
//@arg ptr %1
//@arg ptr %2
//@arg i32 numel(%2)
// The metadata says mul, the kernel adds: a mismatch.
// EXPECT: exit 1
// EXPECT-OUTPUT: output %2 f32 4096: rel_l2
// EXPECT-OUTPUT: FAIL
// EXPECT-OUTPUT: result FAIL (1 of 1 outputs)
extern "C" __global__ void k(const float *a, const float *b, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a[i] + b[i];
}
