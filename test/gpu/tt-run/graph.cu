//@tt-meta 1 arch sm_90a
//@tensor %0 input 0 f32 3000
//@tensor %1 output 0 f32 3000
//@tensor %2 temp f32 3000
//@prim %2 = mul %0 %0
//@prim %1 = exp %2
//@launch square grid cdiv(numel(%2),256) 1 1 block 256 1 1 shared 0
//@arg ptr %0
//@arg ptr %2
//@arg i32 numel(%2)
//@launch expo grid cdiv(numel(%1),256) 1 1 block 256 1 1 shared 0
//@arg ptr %2
//@arg ptr %1
//@arg i32 numel(%1)
// Two launches through a temp, captured in a CUDA graph: a replay on freshly poisoned
// buffers is checked again, then the launches are timed alone, in sequence and as graph
// replays, and the launch gap is reported.
// TT-RUN-ARGS: --graph
// EXPECT: exit 0
// EXPECT-OUTPUT: graph replay of 2 launches:
// EXPECT-OUTPUT: launches 2 alone:
// EXPECT-OUTPUT: time graph median
// EXPECT-OUTPUT: launch gap: the graph saves
// EXPECT-OUTPUT: result PASS
extern "C" __global__ void square(const float *x, float *t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    t[i] = x[i] * x[i];
}
extern "C" __global__ void expo(const float *t, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = expf(t[i]);
}
