//@tt-meta 1 arch sm_100a
//@tensor %0 input 0 f32 256
//@tensor %1 output 0 f32 256
//@prim %1 = neg %0
//@launch k grid 1 1 1 block 256 1 1 shared 0
//@arg ptr %0
//@arg ptr %1
// EXPECT: exit 1
// EXPECT-OUTPUT: tt-run: arch.ptx: the PTX is for sm_100a, which does not run on this sm_90 GPU
extern "C" __global__ void k(const float *x, float *y) { y[threadIdx.x] = -x[threadIdx.x]; }
