//@tt-meta 2 arch sm_90a
//@tensor %0 input 0 f32 16x256
//@tensor %1 input 1 f32 64x256
//@tensor %2 temp f32 256x64
//@tensor %3 output 0 f32 16x64
//@prim %2 = transpose %1 perm=1,0
//@prim %3 = matmul %0 %2
//@zero %3
//@launch splitk grid cdiv(numel(%3),256) 4 1 block 256 1 1 shared 0
//@arg ptr %0
//@arg ptr %1
//@arg ptr %3
//@arg i32 dim(%0,1)
//@arg i32 dim(%1,0)
//@arg i32 numel(%3)
// y = x @ w^T split over K in 4 parts (grid y) that add into y with atomics, so y must
// start at zero: the `zero` line fills it before the launch (tt-run poisons it with NaN
// first), in the sequence, in the captured graph (checked on a replay) and in every
// timed run. Without the line the output is NaN.
// TT-RUN-ARGS: --graph
// EXPECT: exit 0
// EXPECT-OUTPUT: graph replay of 1 launches:
// EXPECT-OUTPUT: result PASS
extern "C" __global__ void splitk(const float *x, const float *w, float *y, int k,
                                  int n, int numel) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= numel)
    return;
  int row = i / n, col = i % n, part = k / gridDim.y, k0 = blockIdx.y * part;
  float acc = 0;
  for (int kk = k0; kk < k0 + part; ++kk)
    acc += x[row * k + kk] * w[col * k + kk];
  atomicAdd(&y[i], acc);
}
