//@tt-meta 1 arch sm_90a
//@tensor %0 input 0 f32 256
//@tensor %1 output 0 f32 256
//@prim %1 = neg %0
//@launch ok grid 1 1 1 block 256 1 1 shared 0
//@arg ptr %0
//@arg ptr %1
//@launch bad grid 1 1 1 block 256 1 1 shared 0
//@arg ptr %1
// The second kernel writes far out of bounds; the error names it.
// EXPECT: exit 1
// EXPECT-OUTPUT: tt-run: fault.ptx:8: launch 1 (kernel 'bad'): cuStreamSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS
extern "C" __global__ void ok(const float *x, float *y) { y[threadIdx.x] = -x[threadIdx.x]; }
extern "C" __global__ void bad(float *y) { y[threadIdx.x + (1ll << 40)] = 0; }
