//@tt-meta 1 arch sm_90a
//@tensor %0 input 0 f32 1000003
//@tensor %1 temp f32 1000003
//@tensor %2 const f32 1000003
//@tensor %3 temp f32 1000003
//@tensor %4 output 0 f32 1000003
//@prim %1 = exp %0
//@prim %2 = constant value=1
//@prim %3 = add %1 %2
//@prim %4 = log %3
//@launch k_exp grid cdiv(numel(%0),128) 1 1 block 128 1 1 shared 0
//@arg ptr %0
//@arg ptr %1
//@arg i64 numel(%0)
//@launch k_log grid cdiv(numel(%0),128) 1 1 block 128 1 1 shared 0
//@arg ptr %1
//@arg ptr %2
//@arg ptr %4
//@arg i32 numel(%0)
//@arg f32 1.0
// Two launches through a temp buffer; a const buffer filled by tt-run; i64
// and f32 arguments.
// EXPECT: exit 0
// EXPECT-OUTPUT: output %4 f32 1000003: rel_l2
// EXPECT-OUTPUT: nonfinite 0 tol 1.0e-05 PASS
extern "C" __global__ void k_exp(const float *x, float *t, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    t[i] = expf(x[i]);
}
extern "C" __global__ void k_log(const float *t, const float *c, float *y,
                                 int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = logf(t[i] + c[i]) * s;
}
