// Probe: layer_norm of M x N bf16 rows (N = 32768) with weight and bias resident in shared
// memory across rows: a persistent grid (one 1024-thread block an SM), each thread owning
// fixed 16-byte vectors of the row (N / 8 / 1024 of them), the next row's vectors loaded
// into registers before the current row's reductions (a row in flight an SM beside the
// one computed). Against: a 2-pass kernel reading w, b from global (L2) each row (the same
// row-in-registers form, not resident), and a device-to-device copy of the same bytes.
#include <cuda_bf16.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cmath>
#include <cstring>
#define N 32768
#ifndef NT
#define NT 1024
#endif
#define V (N / 8 / NT) // 16-byte vectors a thread a row
struct alignas(16) Vec { __nv_bfloat162 h[4]; };
__device__ __forceinline__ Vec ldv(const Vec *p) { uint4 u = *(const uint4 *)p; Vec v; memcpy(&v, &u, 16); return v; }
__device__ __forceinline__ void stv(Vec *p, Vec v) { uint4 u; memcpy(&u, &v, 16); *(uint4 *)p = u; }

__device__ float blockSum(float v, float *scratch) {
  for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  int w = threadIdx.x / 32, l = threadIdx.x % 32;
  __syncthreads();
  if (l == 0) scratch[w] = v;
  __syncthreads();
  v = l < NT / 32 ? scratch[l] : 0.f;
  for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

template <bool RESIDENT>
__global__ void __launch_bounds__(NT, 1) ln(const Vec *x, const Vec *w, const Vec *b, Vec *y, int M) {
  extern __shared__ Vec sm[]; // w then b: 2 * N / 8 vectors
  __shared__ float scratch[32];
  if (RESIDENT) {
    for (int i = threadIdx.x; i < N / 8; i += NT) { stv(&sm[i], ldv(&w[i])); stv(&sm[N / 8 + i], ldv(&b[i])); }
    // each thread reads back only its own vectors: no barrier needed beyond program order
  }
  Vec cur[V], nxt[V];
  int r = blockIdx.x;
  if (r < M)
    for (int v = 0; v < V; v++) cur[v] = ldv(&x[(size_t)r * (N / 8) + v * NT + threadIdx.x]);
  for (; r < M; r += gridDim.x) {
    int rn = r + gridDim.x;
    if (rn < M)
      for (int v = 0; v < V; v++) nxt[v] = ldv(&x[(size_t)rn * (N / 8) + v * NT + threadIdx.x]);
    float s = 0.f;
    for (int v = 0; v < V; v++)
      for (int j = 0; j < 4; j++) { float2 f = __bfloat1622float2(cur[v].h[j]); s += f.x + f.y; }
    float mean = blockSum(s, scratch) / N;
    float q = 0.f;
    for (int v = 0; v < V; v++)
      for (int j = 0; j < 4; j++) {
        float2 f = __bfloat1622float2(cur[v].h[j]);
        q += (f.x - mean) * (f.x - mean) + (f.y - mean) * (f.y - mean);
      }
    float rstd = rsqrtf(blockSum(q, scratch) / N + 1e-5f);
    for (int v = 0; v < V; v++) {
      int c = v * NT + threadIdx.x;
      Vec wv = RESIDENT ? ldv(&sm[c]) : ldv(&w[c]), bv = RESIDENT ? ldv(&sm[N / 8 + c]) : ldv(&b[c]), o;
      for (int j = 0; j < 4; j++) {
        float2 f = __bfloat1622float2(cur[v].h[j]), fw = __bfloat1622float2(wv.h[j]),
               fb = __bfloat1622float2(bv.h[j]);
        o.h[j] = __floats2bfloat162_rn((f.x - mean) * rstd * fw.x + fb.x,
                                       (f.y - mean) * rstd * fw.y + fb.y);
      }
      stv(&y[(size_t)r * (N / 8) + c], o);
    }
    for (int v = 0; v < V; v++) cur[v] = nxt[v];
  }
}

static float bf(unsigned short u) { unsigned int v = (unsigned int)u << 16; float f; memcpy(&f, &v, 4); return f; }

int main(int argc, char **argv) {
  int M = argc > 1 ? atoi(argv[1]) : 4096;
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  size_t xb = (size_t)M * N * 2;
  std::vector<unsigned short> hx((size_t)M * N), hw(N), hb(N);
  srand(1);
  auto rnd = [] { float f = (rand() / (float)RAND_MAX - 0.5f) * 4.f; unsigned int u; memcpy(&u, &f, 4); return (unsigned short)(u >> 16); };
  for (auto &v : hx) v = rnd();
  for (auto &v : hw) v = rnd();
  for (auto &v : hb) v = rnd();
  Vec *x, *w, *b, *y, *z;
  cudaMalloc(&x, xb); cudaMalloc(&y, xb); cudaMalloc(&z, xb); cudaMalloc(&w, N * 2); cudaMalloc(&b, N * 2);
  cudaMemcpy(x, hx.data(), xb, cudaMemcpyHostToDevice);
  cudaMemcpy(w, hw.data(), N * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb.data(), N * 2, cudaMemcpyHostToDevice);
  int smem = 2 * N * 2;
  cudaFuncSetAttribute(ln<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  float best[3] = {1e9f, 1e9f, 1e9f};
  for (int rep = 0; rep < 3; rep++)
    for (int k = 0; k < 3; k++) {
      for (int it = 0; it < 3; it++) { // warm-up
        if (k == 0) ln<true><<<sms, NT, smem>>>(x, w, b, y, M);
        if (k == 1) ln<false><<<sms, NT>>>(x, w, b, z, M);
        if (k == 2) cudaMemcpyAsync(z, x, xb, cudaMemcpyDeviceToDevice);
      }
      cudaEventRecord(e0);
      for (int it = 0; it < 20; it++) {
        if (k == 0) ln<true><<<sms, NT, smem>>>(x, w, b, y, M);
        if (k == 1) ln<false><<<sms, NT>>>(x, w, b, z, M);
        if (k == 2) cudaMemcpyAsync(z, x, xb, cudaMemcpyDeviceToDevice);
      }
      cudaEventRecord(e1); cudaEventSynchronize(e1);
      float ms; cudaEventElapsedTime(&ms, e0, e1);
      if (ms / 20 < best[k]) best[k] = ms / 20;
    }
  ln<false><<<sms, NT>>>(x, w, b, z, M);
  std::vector<unsigned short> hy((size_t)M * N);
  cudaMemcpy(hy.data(), y, xb, cudaMemcpyDeviceToHost);
  double maxerr = 0;
  for (int r = 0; r < M; r += 97) { // float64 reference on every 97th row
    double s = 0, q = 0;
    for (int c = 0; c < N; c++) s += bf(hx[(size_t)r * N + c]);
    double mean = s / N;
    for (int c = 0; c < N; c++) { double d = bf(hx[(size_t)r * N + c]) - mean; q += d * d; }
    double rstd = 1 / sqrt(q / N + 1e-5);
    for (int c = 0; c < N; c++) {
      double ref = (bf(hx[(size_t)r * N + c]) - mean) * rstd * bf(hw[c]) + bf(hb[c]);
      double err = fabs(bf(hy[(size_t)r * N + c]) - ref) / (1 + fabs(ref));
      if (err > maxerr) maxerr = err;
    }
  }
  double bytes = 2.0 * xb + 4.0 * N;
  printf("M=%d N=%d: resident %.1f us (%.0f GB/s), from L2 %.1f us (%.0f GB/s), copy %.1f us (%.0f GB/s); resident %.1f%% of copy; max rel err %.2e; %s\n",
         M, N, best[0] * 1e3, bytes / best[0] / 1e6, best[1] * 1e3, bytes / best[1] / 1e6,
         best[2] * 1e3, 2.0 * xb / best[2] / 1e6, 100 * best[2] / best[0], maxerr,
         cudaGetErrorString(cudaGetLastError()));
  return 0;
}
