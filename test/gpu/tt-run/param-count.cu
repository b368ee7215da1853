//@tt-meta 1 arch sm_90a
//@tensor %0 input 0 f32 256
//@tensor %1 output 0 f32 256
//@prim %1 = neg %0
//@launch k grid 1 1 1 block 256 1 1 shared 0
//@arg ptr %0
//@arg ptr %1
// The kernel takes 3 parameters, the metadata gives 2.
// EXPECT: exit 1
// EXPECT-OUTPUT: tt-run: param-count.ptx:5: launch 0 (kernel 'k'): the kernel has more than the 2 parameters that the arg lines give
extern "C" __global__ void k(const float *x, float *y, int n) {
  int i = threadIdx.x;
  if (i < n)
    y[i] = -x[i];
}
