// Probe behind bench/2026-11-27-h200-rows-regs.md (hand-written CUDA, not tt's code):
// softmax over M x N bf16 rows (f32 math, N a multiple of 4096), the row staged in
// shared memory in chunks of 4096 by cp.async, max, sum and output passes over it, in
// these forms, each timed (CUDA events, 20 launches) against a device-to-device copy:
//   hybrid RC    the last RC chunks loaded into registers, the rest staged: two 512-thread
//                blocks an SM (N = 65536 and 98304 only);
//   cluster C    the row split over a thread-block cluster of C blocks, each staging its
//                part, the max and sum combined through distributed shared memory (C = 1:
//                the whole row one block, one an SM at 65536);
//   grid G variant v   persistent blocks (grid G) walking rows, v % 2: the next row's
//                chunks prefetched into the slots the output pass frees; v / 2: exp
//                replaced by an FMA (the MUFU's share of the time; wrong results).
// Build and run on the device: nvcc -O3 -arch=sm_90a -o probe 2026-11-27-rows-regs.cu &&
// ./probe 2048 65536 && ./probe 4096 32768 && ./probe 1000 98304
#include <cuda_bf16.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define CHUNK 4096
#define EXPF(v) (FAKE ? fmaf((v), 0.0001f, 1.f) : __expf(v))
__device__ __forceinline__ void cpasync16(void *s, const void *g) {
  unsigned sa = (unsigned)__cvta_generic_to_shared(s);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sa), "l"(g));
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;"); }
__device__ __forceinline__ void waitall() { asm volatile("cp.async.wait_group 0;" ::: "memory"); }
template <int OP>
__device__ float blockReduce(float v, float *scr) {
  for (int o = 16; o; o >>= 1) {
    float w = __shfl_xor_sync(0xffffffff, v, o);
    v = OP ? fmaxf(v, w) : v + w;
  }
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32, nw = blockDim.x / 32;
  __syncthreads();
  if (lane == 0) scr[warp] = v;
  __syncthreads();
  v = lane < nw ? scr[lane] : (OP ? -INFINITY : 0.f);
  for (int o = 16; o; o >>= 1) {
    float w = __shfl_xor_sync(0xffffffff, v, o);
    v = OP ? fmaxf(v, w) : v + w;
  }
  return v;
}
template <bool PREFETCH, int FAKE>
__global__ void __launch_bounds__(512) softmaxStaged(const __nv_bfloat16 *x, __nv_bfloat16 *y, int M, int N) {
  extern __shared__ __align__(16) unsigned char smem[];
  __nv_bfloat16 *buf = (__nv_bfloat16 *)smem;
  float *scr = (float *)(smem + (size_t)N * 2);
  int nch = N / CHUNK, t = threadIdx.x * 8;
  int row = blockIdx.x;
  if (PREFETCH && row < M) {
    for (int c = 0; c < nch; c++) cpasync16(buf + c * CHUNK + t, x + (size_t)row * N + c * CHUNK + t);
    commit();
  }
  for (; row < M; row += gridDim.x) {
    if (!PREFETCH) {
      for (int c = 0; c < nch; c++) cpasync16(buf + c * CHUNK + t, x + (size_t)row * N + c * CHUNK + t);
      commit();
    }
    waitall();
    __syncthreads();
    float m = -INFINITY;
    for (int c = 0; c < nch; c++) {
      uint4 v = *(const uint4 *)(buf + c * CHUNK + t);
      const __nv_bfloat162 *h = (const __nv_bfloat162 *)&v;
      for (int j = 0; j < 4; j++) { float2 f = __bfloat1622float2(h[j]); m = fmaxf(m, fmaxf(f.x, f.y)); }
    }
    m = blockReduce<1>(m, scr);
    float s = 0;
    for (int c = 0; c < nch; c++) {
      uint4 v = *(const uint4 *)(buf + c * CHUNK + t);
      const __nv_bfloat162 *h = (const __nv_bfloat162 *)&v;
      for (int j = 0; j < 4; j++) { float2 f = __bfloat1622float2(h[j]); s += EXPF(f.x - m) + EXPF(f.y - m); }
    }
    s = blockReduce<0>(s, scr);
    float inv = 1.f / s;
    int next = row + gridDim.x;
    for (int c = 0; c < nch; c++) {
      uint4 v = *(const uint4 *)(buf + c * CHUNK + t);
      __nv_bfloat162 *h = (__nv_bfloat162 *)&v;
      for (int j = 0; j < 4; j++) { float2 f = __bfloat1622float2(h[j]); h[j] = __floats2bfloat162_rn(EXPF(f.x - m) * inv, EXPF(f.y - m) * inv); }
      *(uint4 *)(y + (size_t)row * N + c * CHUNK + t) = v;
      if (PREFETCH && next < M) cpasync16(buf + c * CHUNK + t, x + (size_t)next * N + c * CHUNK + t);
    }
    if (PREFETCH) commit();
  }
}

template <int OP, int C>
__device__ float clusterReduce(float v, float *scr, int slot) {
  v = blockReduce<OP>(v, scr);
  if (C == 1) return v;
  cg::cluster_group cl = cg::this_cluster();
  if (threadIdx.x == 0) scr[32 + slot] = v;
  cl.sync();
  float r = OP ? -INFINITY : 0.f;
  for (int k = 0; k < C; k++) { float w = cl.map_shared_rank(scr, k)[32 + slot]; r = OP ? fmaxf(r, w) : r + w; }
  return r;
}
template <int C, int FAKE>
__global__ void __launch_bounds__(512) softmaxCluster(const __nv_bfloat16 *x, __nv_bfloat16 *y, int M, int N) {
  extern __shared__ __align__(16) unsigned char smem[];
  int P = N / C;
  __nv_bfloat16 *buf = (__nv_bfloat16 *)smem;
  float *scr = (float *)(smem + (size_t)P * 2);
  int nch = P / CHUNK, t = threadIdx.x * 8;
  int row = blockIdx.x / C, part = blockIdx.x % C;
  const __nv_bfloat16 *xr = x + (size_t)row * N + part * P;
  __nv_bfloat16 *yr = y + (size_t)row * N + part * P;
  for (int c = 0; c < nch; c++) cpasync16(buf + c * CHUNK + t, xr + c * CHUNK + t);
  commit();
  waitall();
  __syncthreads();
  float m = -INFINITY;
  for (int c = 0; c < nch; c++) {
    uint4 v = *(const uint4 *)(buf + c * CHUNK + t);
    const __nv_bfloat162 *h = (const __nv_bfloat162 *)&v;
    for (int j = 0; j < 4; j++) { float2 f = __bfloat1622float2(h[j]); m = fmaxf(m, fmaxf(f.x, f.y)); }
  }
  m = clusterReduce<1, C>(m, scr, 0);
  float s = 0;
  for (int c = 0; c < nch; c++) {
    uint4 v = *(const uint4 *)(buf + c * CHUNK + t);
    const __nv_bfloat162 *h = (const __nv_bfloat162 *)&v;
    for (int j = 0; j < 4; j++) { float2 f = __bfloat1622float2(h[j]); s += EXPF(f.x - m) + EXPF(f.y - m); }
  }
  s = clusterReduce<0, C>(s, scr, 1);
  float inv = 1.f / s;
  for (int c = 0; c < nch; c++) {
    uint4 v = *(const uint4 *)(buf + c * CHUNK + t);
    __nv_bfloat162 *h = (__nv_bfloat162 *)&v;
    for (int j = 0; j < 4; j++) { float2 f = __bfloat1622float2(h[j]); h[j] = __floats2bfloat162_rn(EXPF(f.x - m) * inv, EXPF(f.y - m) * inv); }
    *(uint4 *)(yr + c * CHUNK + t) = v;
  }
  if (C > 1) cg::this_cluster().sync();
}
template <int C, int FAKE>
float runCluster(const __nv_bfloat16 *x, __nv_bfloat16 *y, int M, int N) {
  size_t sm = (size_t)N / C * 2 + 256;
  auto k = softmaxCluster<C, FAKE>;
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm);
  if (C > 1) cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(M * C); cfg.blockDim = dim3(512); cfg.dynamicSmemBytes = sm;
  cudaLaunchAttribute at[1]; at[0].id = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = C; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
  cfg.attrs = at; cfg.numAttrs = 1;
  for (int i = 0; i < 3; i++) cudaLaunchKernelEx(&cfg, k, x, y, M, N);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  cudaEventRecord(a); for (int i = 0; i < 20; i++) cudaLaunchKernelEx(&cfg, k, x, y, M, N); cudaEventRecord(b);
  cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b);
  return ms / 20 * 1000;
}

template <int RC>
__global__ void __launch_bounds__(512, 2) softmaxHybrid(const __nv_bfloat16 *x, __nv_bfloat16 *y, int M, int N) {
  extern __shared__ __align__(16) unsigned char smem[];
  int nch = N / CHUNK, sch = nch - RC, t = threadIdx.x * 8;
  __nv_bfloat16 *buf = (__nv_bfloat16 *)smem;
  float *scr = (float *)(smem + (size_t)sch * CHUNK * 2);
  int row = blockIdx.x;
  const __nv_bfloat16 *xr = x + (size_t)row * N;
  __nv_bfloat16 *yr = y + (size_t)row * N;
  for (int c = 0; c < sch; c++) cpasync16(buf + c * CHUNK + t, xr + c * CHUNK + t);
  commit();
  uint4 r[RC];
#pragma unroll
  for (int c = 0; c < RC; c++) r[c] = __ldcs((const uint4 *)(xr + (sch + c) * CHUNK + t));
  waitall();
  __syncthreads();
  float m = -INFINITY;
#pragma unroll
  for (int c = 0; c < RC; c++) {
    const __nv_bfloat162 *h = (const __nv_bfloat162 *)&r[c];
    for (int j = 0; j < 4; j++) { float2 f = __bfloat1622float2(h[j]); m = fmaxf(m, fmaxf(f.x, f.y)); }
  }
  for (int c = 0; c < sch; c++) {
    uint4 v = *(const uint4 *)(buf + c * CHUNK + t);
    const __nv_bfloat162 *h = (const __nv_bfloat162 *)&v;
    for (int j = 0; j < 4; j++) { float2 f = __bfloat1622float2(h[j]); m = fmaxf(m, fmaxf(f.x, f.y)); }
  }
  m = blockReduce<1>(m, scr);
  float s = 0;
#pragma unroll
  for (int c = 0; c < RC; c++) {
    const __nv_bfloat162 *h = (const __nv_bfloat162 *)&r[c];
    for (int j = 0; j < 4; j++) { float2 f = __bfloat1622float2(h[j]); s += __expf(f.x - m) + __expf(f.y - m); }
  }
  for (int c = 0; c < sch; c++) {
    uint4 v = *(const uint4 *)(buf + c * CHUNK + t);
    const __nv_bfloat162 *h = (const __nv_bfloat162 *)&v;
    for (int j = 0; j < 4; j++) { float2 f = __bfloat1622float2(h[j]); s += __expf(f.x - m) + __expf(f.y - m); }
  }
  s = blockReduce<0>(s, scr);
  float inv = 1.f / s;
#pragma unroll
  for (int c = 0; c < RC; c++) {
    uint4 v = r[c];
    __nv_bfloat162 *h = (__nv_bfloat162 *)&v;
    for (int j = 0; j < 4; j++) { float2 f = __bfloat1622float2(h[j]); h[j] = __floats2bfloat162_rn(__expf(f.x - m) * inv, __expf(f.y - m) * inv); }
    *(uint4 *)(yr + (sch + c) * CHUNK + t) = v;
  }
  for (int c = 0; c < sch; c++) {
    uint4 v = *(const uint4 *)(buf + c * CHUNK + t);
    __nv_bfloat162 *h = (__nv_bfloat162 *)&v;
    for (int j = 0; j < 4; j++) { float2 f = __bfloat1622float2(h[j]); h[j] = __floats2bfloat162_rn(__expf(f.x - m) * inv, __expf(f.y - m) * inv); }
    *(uint4 *)(yr + c * CHUNK + t) = v;
  }
}
template <int RC>
float runHybrid(const __nv_bfloat16 *x, __nv_bfloat16 *y, int M, int N) {
  size_t sm = (size_t)(N / CHUNK - RC) * CHUNK * 2 + 256;
  auto k = softmaxHybrid<RC>;
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm);
  int nb = 0; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k, 512, sm);
  for (int i = 0; i < 3; i++) k<<<M, 512, sm>>>(x, y, M, N);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  cudaEventRecord(a); for (int i = 0; i < 20; i++) k<<<M, 512, sm>>>(x, y, M, N); cudaEventRecord(b);
  cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b);
  printf("hybrid RC=%d: smem %zu, %d blocks/SM, ", RC, sm, nb);
  return ms / 20 * 1000;
}
int main(int argc, char **argv) {
  int M = argc > 1 ? atoi(argv[1]) : 2048, N = argc > 2 ? atoi(argv[2]) : 65536;
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  size_t n = (size_t)M * N;
  __nv_bfloat16 *x, *y; cudaMalloc(&x, n * 2); cudaMalloc(&y, n * 2);
  std::vector<__nv_bfloat16> h(n);
  for (size_t i = 0; i < n; i++) h[i] = __float2bfloat16((float)((i * 2654435761u) % 1000) / 250.f - 2.f);
  cudaMemcpy(x, h.data(), n * 2, cudaMemcpyHostToDevice);
  size_t sm = (size_t)N * 2 + 256;
  cudaFuncSetAttribute(softmaxStaged<true, 0>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm);
  cudaFuncSetAttribute(softmaxStaged<false, 0>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm);
  cudaFuncSetAttribute(softmaxStaged<true, 1>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm);
  cudaFuncSetAttribute(softmaxStaged<false, 1>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  float ms;
  // copy floor
  for (int i = 0; i < 3; i++) cudaMemcpy(y, x, n * 2, cudaMemcpyDeviceToDevice);
  cudaEventRecord(a); for (int i = 0; i < 20; i++) cudaMemcpy(y, x, n * 2, cudaMemcpyDeviceToDevice); cudaEventRecord(b);
  cudaEventSynchronize(b); cudaEventElapsedTime(&ms, a, b); float copy = ms / 20 * 1000;
  printf("M=%d N=%d copy %.1f us (%.0f GB/s)\n", M, N, copy, 2.0 * n * 2 / copy / 1e3);
  float us;
  auto check = [&]() {
    std::vector<__nv_bfloat16> o(n); cudaMemcpy(o.data(), y, n * 2, cudaMemcpyDeviceToHost);
    double maxerr = 0;
    for (int r : {0, M / 2, M - 1}) {
      double mx = -1e30, s = 0;
      for (int j = 0; j < N; j++) mx = fmax(mx, (double)__bfloat162float(h[(size_t)r * N + j]));
      for (int j = 0; j < N; j++) s += exp((double)__bfloat162float(h[(size_t)r * N + j]) - mx);
      for (int j = 0; j < N; j++) { double ref = exp((double)__bfloat162float(h[(size_t)r * N + j]) - mx) / s;
        double e = fabs(ref - (double)__bfloat162float(o[(size_t)r * N + j])) / (fabs(ref) + 1e-6); if (e > maxerr) maxerr = e; }
    }
    return maxerr;
  };
  if (N == 65536) {
  us = runHybrid<2>(x, y, M, N); printf("%.1f us, %.1f%% err %.2e\n", us, copy / us * 100, check());
  us = runHybrid<4>(x, y, M, N); printf("%.1f us, %.1f%% err %.2e\n", us, copy / us * 100, check());
  us = runHybrid<6>(x, y, M, N); printf("%.1f us, %.1f%% err %.2e\n", us, copy / us * 100, check());
  us = runHybrid<8>(x, y, M, N); printf("%.1f us, %.1f%% err %.2e\n", us, copy / us * 100, check());
  }
  if (N == 98304) {
  us = runHybrid<11>(x, y, M, N); printf("%.1f us, %.1f%% err %.2e\n", us, copy / us * 100, check());
  us = runHybrid<12>(x, y, M, N); printf("%.1f us, %.1f%% err %.2e\n", us, copy / us * 100, check());
  }
  us = runCluster<1, 0>(x, y, M, N); printf("cluster 1: %.1f us, %.1f%% err %.2e (%s)\n", us, copy / us * 100, check(), cudaGetErrorString(cudaGetLastError()));
  us = runCluster<2, 0>(x, y, M, N); printf("cluster 2: %.1f us, %.1f%% err %.2e (%s)\n", us, copy / us * 100, check(), cudaGetErrorString(cudaGetLastError()));
  us = runCluster<4, 0>(x, y, M, N); printf("cluster 4: %.1f us, %.1f%% err %.2e (%s)\n", us, copy / us * 100, check(), cudaGetErrorString(cudaGetLastError()));
  us = runCluster<2, 1>(x, y, M, N); printf("cluster 2 fake exp: %.1f us, %.1f%%\n", us, copy / us * 100);
  us = runCluster<4, 1>(x, y, M, N); printf("cluster 4 fake exp: %.1f us, %.1f%%\n", us, copy / us * 100);
  for (int grid : {sms, M}) for (int pf = 0; pf < 4; pf++) {
    auto k = pf == 0 ? softmaxStaged<false, 0> : pf == 1 ? softmaxStaged<true, 0> : pf == 2 ? softmaxStaged<false, 1> : softmaxStaged<true, 1>;
    int g = grid > M ? M : grid;
    for (int i = 0; i < 3; i++) k<<<g, 512, sm>>>(x, y, M, N);
    cudaEventRecord(a); for (int i = 0; i < 20; i++) k<<<g, 512, sm>>>(x, y, M, N); cudaEventRecord(b);
    cudaEventSynchronize(b); cudaEventElapsedTime(&ms, a, b);
    float us = ms / 20 * 1000;
    // check row 0 and last row
    std::vector<__nv_bfloat16> o(n); cudaMemcpy(o.data(), y, n * 2, cudaMemcpyDeviceToHost);
    double maxerr = 0;
    for (int r : {0, M / 2, M - 1}) {
      double mx = -1e30, s = 0;
      for (int j = 0; j < N; j++) mx = fmax(mx, (double)__bfloat162float(h[(size_t)r * N + j]));
      for (int j = 0; j < N; j++) s += exp((double)__bfloat162float(h[(size_t)r * N + j]) - mx);
      for (int j = 0; j < N; j++) { double ref = exp((double)__bfloat162float(h[(size_t)r * N + j]) - mx) / s;
        double e = fabs(ref - (double)__bfloat162float(o[(size_t)r * N + j])) / (fabs(ref) + 1e-6); if (e > maxerr) maxerr = e; }
    }
    printf("grid %5d variant %d (pf=v%%2, fake exp=v/2): %.1f us, %.1f%% of copy, err %.2e %s\n", g, pf, us, copy / us * 100, maxerr, cudaGetErrorString(cudaGetLastError()));
  }
}
