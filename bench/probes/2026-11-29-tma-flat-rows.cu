// Probe (issue 24, odd K at small M; bench/2026-11-29-h200-k-pad-model.md): can TMA read
// the rows of an x [M, K] whose rows are not a multiple of 16 bytes (K = 4100, 3001 f16)
// in place, one box a row, into the 128-byte-swizzled slot layout that tt's wgmma reads?
// A rank-1 tensor map over x's M * K elements (only the base must be 16-byte aligned; a
// rank-1 map has no strides), box 64 elements (128 bytes), and for tile row r and 64-column
// chunk c the coordinate r * K + k0 + 64 c, written to slot + c * R * 128 + r * 128.
// Questions, each printed with its answer:
//  1. does cuTensorMapEncodeTiled take a rank-1 map with SWIZZLE_128B;
//  2. is the swizzle a function of the shared-memory address (16-byte unit u of row r lands
//     at unit u ^ (r & 7) when the slot is 1024-byte aligned), i.e. the same layout as a
//     2-D R x 64 box of a padded copy;
//  3. do elements past M * K read as zeros (rows r >= M, the last row's tail);
//  4. the time to stream a K walk of R = 16 / 64 rows this way (R row boxes a 64-column
//     chunk) against 2-D boxes of a padded copy, 132 blocks, a ring of 4 slots.
// Build (here): nvcc -arch=sm_90a -O2 -o tma-flat-rows 2026-11-29-tma-flat-rows.cu -lcuda
// Run (device), each in its own process: ./tma-flat-rows 2d (the control: tt's own 2-D
// boxes of a padded copy), ./tma-flat-rows 1d, ./tma-flat-rows row (a rank-2 map of one
// row [1, M x K]); NOSWZ=1 for SWIZZLE_NONE. Session 33's run (1d only, no control) faulted
// with an illegal instruction at the first 1-D load: run the control first.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                              \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__);              \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)

__device__ __forceinline__ void barInit(uint32_t bar) {
  asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(bar));
}
__device__ __forceinline__ void barExpect(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void barWait(uint32_t bar, uint32_t parity) {
  asm volatile("{\n .reg .pred p;\n W%=:\n mbarrier.try_wait.parity.shared.b64 p, [%0], %1;\n"
               " @!p bra W%=;\n}" ::"r"(bar),
               "r"(parity)
               : "memory");
}
__device__ __forceinline__ void load1d(uint32_t dst, const CUtensorMap *map, int x,
                                       uint32_t bar) {
  asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2}], [%3];" ::"r"(dst),
               "l"(map), "r"(x), "r"(bar)
               : "memory");
}
__device__ __forceinline__ void load2d(uint32_t dst, const CUtensorMap *map, int x, int y,
                                       uint32_t bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
               "l"(map), "r"(x), "r"(y), "r"(bar)
               : "memory");
}

// One block: the R x 128 slot of columns k0 .. k0 + 127 (two 64-column chunks), copied out
// as it lies in shared memory. flat 1: rank-1 map, one box a row; 2: a rank-2 map of one
// row [1, M x K], one box a row; 0: a 2-D map of a padded copy, one R x 64 box a chunk.
__global__ void slotKernel(const __grid_constant__ CUtensorMap map, int flat, int K, int R,
                           int k0, uint16_t *out) {
  extern __shared__ uint8_t raw[];
  uint8_t *slot = (uint8_t *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023);
  __shared__ __align__(8) uint64_t barMem;
  uint32_t bar = (uint32_t)__cvta_generic_to_shared(&barMem);
  uint32_t s = (uint32_t)__cvta_generic_to_shared(slot);
  if (threadIdx.x == 0) {
    barInit(bar);
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    barExpect(bar, (uint32_t)(R * 128 * 2));
    for (int c = 0; c < 2; c++) {
      if (flat == 1)
        for (int r = 0; r < R; r++)
          load1d(s + c * R * 128 + r * 128, &map, r * K + k0 + 64 * c, bar);
      else if (flat == 2)
        for (int r = 0; r < R; r++)
          load2d(s + c * R * 128 + r * 128, &map, r * K + k0 + 64 * c, 0, bar);
      else
        load2d(s + c * R * 128, &map, k0 + 64 * c, 0, bar);
    }
  }
  barWait(bar, 0);
  for (int i = threadIdx.x; i < R * 128; i += blockDim.x)
    out[i] = ((uint16_t *)slot)[i];
}

// Every block walks K in 128-column steps through a ring of 4 slots (no compute: the load
// side alone), its own 16 or 64 rows (blockIdx.x % tiles of them: all blocks read x).
__global__ void walkKernel(const __grid_constant__ CUtensorMap map, int flat, int K, int M,
                          int R, int steps, int *sink) {
  extern __shared__ uint8_t raw[];
  uint8_t *ring = (uint8_t *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023);
  __shared__ __align__(8) uint64_t bars[4];
  uint32_t s = (uint32_t)__cvta_generic_to_shared(ring);
  int slotBytes = R * 256, row0 = (blockIdx.x % ((M + R - 1) / R)) * R;
  if (threadIdx.x == 0) {
    for (int i = 0; i < 4; i++)
      barInit((uint32_t)__cvta_generic_to_shared(&bars[i]));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  if (threadIdx.x != 0)
    return;
  auto issue = [&](int step) {
    int i = step % 4;
    uint32_t bar = (uint32_t)__cvta_generic_to_shared(&bars[i]), dst = s + i * slotBytes;
    barExpect(bar, (uint32_t)slotBytes);
    for (int c = 0; c < 2; c++) {
      if (flat == 1)
        for (int r = 0; r < R; r++)
          load1d(dst + c * R * 128 + r * 128, &map, (row0 + r) * K + step * 128 + 64 * c, bar);
      else if (flat == 2)
        for (int r = 0; r < R; r++)
          load2d(dst + c * R * 128 + r * 128, &map, (row0 + r) * K + step * 128 + 64 * c, 0, bar);
      else
        load2d(dst + c * R * 128, &map, step * 128 + 64 * c, row0, bar);
    }
  };
  for (int st = 0; st < 4 && st < steps; st++)
    issue(st);
  int acc = 0;
  for (int st = 0; st < steps; st++) {
    int i = st % 4;
    barWait((uint32_t)__cvta_generic_to_shared(&bars[i]), (uint32_t)((st / 4) & 1));
    acc += ring[i * slotBytes + (st & 127)];
    if (st + 4 < steps)
      issue(st + 4);
  }
  sink[blockIdx.x] = acc;
}

typedef CUresult (*EncodeFn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                             const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                             const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                             CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

static CUresult encode(EncodeFn fn, CUtensorMap *map, void *base, int rank, cuuint64_t cols,
                       cuuint64_t rows, cuuint32_t boxRows, CUtensorMapSwizzle sw) {
  cuuint64_t dims[2] = {cols, rows}, strides[1] = {(cols * 2 + 15) / 16 * 16};
  cuuint32_t box[2] = {64, boxRows}, es[2] = {1, 1};
  return fn(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, (cuuint32_t)rank, base, dims, strides, box, es,
            CU_TENSOR_MAP_INTERLEAVE_NONE, sw, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// Usage: tma-flat-rows [1d|row|2d] (default 1d; 2d is the control: a padded copy read by
// tt's own form), env NOSWZ=1 for SWIZZLE_NONE. Run each form in its own process: a fault
// is sticky for the context.
int main(int argc, char **argv) {
  const char *form = argc > 1 ? argv[1] : "1d";
  int flat = !strcmp(form, "2d") ? 0 : !strcmp(form, "row") ? 2 : 1;
  EncodeFn enc = cuTensorMapEncodeTiled;
  CK(cudaFree(0)); /* the primary context, for the driver calls */
  CK(cudaFuncSetAttribute(slotKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 << 10));
  CK(cudaFuncSetAttribute(walkKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 140 << 10));
  int fails = 0;
  const int Ks[2] = {4100, 3001};
  for (int ki = 0; ki < 2; ki++) {
    int K = Ks[ki], M = 7, R = 16;
    std::vector<uint16_t> h((size_t)M * K);
    for (size_t i = 0; i < h.size(); i++)
      h[i] = (uint16_t)(i % 65521 + 1);
    uint16_t *dx, *dout;
    CK(cudaMalloc(&dx, h.size() * 2));
    CK(cudaMalloc(&dout, R * 128 * 2));
    CK(cudaMemcpy(dx, h.data(), h.size() * 2, cudaMemcpyHostToDevice));
    int Kp = (K + 63) / 64 * 64;
    std::vector<uint16_t> hp((size_t)M * Kp, 0);
    for (int i = 0; i < M; i++)
      memcpy(&hp[(size_t)i * Kp], &h[(size_t)i * K], (size_t)K * 2);
    uint16_t *dxp;
    CK(cudaMalloc(&dxp, hp.size() * 2));
    CK(cudaMemcpy(dxp, hp.data(), hp.size() * 2, cudaMemcpyHostToDevice));
    CUtensorMap map;
    CUtensorMapSwizzle sw = getenv("NOSWZ") ? CU_TENSOR_MAP_SWIZZLE_NONE : CU_TENSOR_MAP_SWIZZLE_128B;
    CUresult r = flat == 1 ? encode(enc, &map, dx, 1, (cuuint64_t)M * K, 1, 1, sw)
                 : flat == 2 ? encode(enc, &map, dx, 2, (cuuint64_t)M * K, 1, 1, sw)
                             : encode(enc, &map, dxp, 2, Kp, M, (cuuint32_t)R, sw);
    printf("K = %d: %s map, %s: encode %s (%d)\n", K,
           flat == 1 ? "rank-1 [M x K]" : flat == 2 ? "rank-2 [1, M x K]" : "2-D padded [M, Kp]",
           getenv("NOSWZ") ? "SWIZZLE_NONE" : "SWIZZLE_128B", r == CUDA_SUCCESS ? "ok" : "FAILED",
           (int)r);
    if (r != CUDA_SUCCESS) {
      fails++;
      continue;
    }
    int k0s[3] = {0, 128 * ((K - 1) / 128), 1024};
    for (int t = 0; t < 3; t++) {
      int k0 = k0s[t];
      slotKernel<<<1, 128, 8192>>>(map, flat, K, R, k0, dout);
      CK(cudaGetLastError());
      std::vector<uint16_t> got(R * 128);
      CK(cudaMemcpy(got.data(), dout, got.size() * 2, cudaMemcpyDeviceToHost));
      int badSw = 0, badPlain = 0;
      for (int c = 0; c < 2; c++)
        for (int row = 0; row < R; row++)
          for (int u = 0; u < 8; u++)
            for (int e = 0; e < 8; e++) {
              long col = k0 + 64 * c + 8 * u + e, f = (long)row * K + col;
              uint16_t want = flat ? (f < (long)M * K ? h[f] : 0)
                                   : (row < M && col < K ? h[f] : 0);
              int base = c * R * 64 + row * 64;
              badSw += got[base + 8 * (u ^ (row & 7)) + e] != want;
              badPlain += got[base + 8 * u + e] != want;
            }
      printf("  k0 = %d: 128-byte swizzled layout: %s (%d of %d elements differ); unswizzled: %d "
             "differ\n",
             k0, badSw ? "NO" : "yes", badSw, R * 128, badPlain);
      fails += badSw != 0;
    }
    CK(cudaFree(dx));
    CK(cudaFree(dxp));
    CK(cudaFree(dout));
  }
  // 4. timing
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  int *sink;
  CK(cudaMalloc(&sink, sms * 4));
  const int Rs[2] = {16, 64};
  for (int ri = 0; ri < 2; ri++) {
    int R = Rs[ri], M = R, K = 4100, Kp = 4160, steps = Kp / 128;
    uint16_t *dx, *dp;
    CK(cudaMalloc(&dx, (size_t)M * K * 2));
    CK(cudaMalloc(&dp, (size_t)M * Kp * 2));
    CK(cudaMemset(dx, 0, (size_t)M * K * 2));
    CK(cudaMemset(dp, 0, (size_t)M * Kp * 2));
    CUtensorMap mf, m2;
    if (encode(enc, &mf, dx, flat == 2 ? 2 : 1, (cuuint64_t)M * K, 1, 1, CU_TENSOR_MAP_SWIZZLE_128B) ||
        encode(enc, &m2, dp, 2, Kp, M, (cuuint32_t)R, CU_TENSOR_MAP_SWIZZLE_128B)) {
      printf("encode failed for the timing maps\n");
      return 1;
    }
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int tf = 0; tf < 2; tf++) {
      const CUtensorMap &m = tf ? mf : m2;
      int wf = tf ? (flat ? flat : 1) : 0;
      size_t smem = (size_t)4 * R * 256 + 1024;
      for (int w = 0; w < 3; w++)
        walkKernel<<<sms, 32, smem>>>(m, wf, K, M, R, steps, sink);
      CK(cudaEventRecord(a));
      for (int it = 0; it < 50; it++)
        walkKernel<<<sms, 32, smem>>>(m, wf, K, M, R, steps, sink);
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      float ms;
      CK(cudaEventElapsedTime(&ms, a, b));
      printf("walk %d rows x %d columns (%d steps of 128), %d blocks: %s %.2f us a launch\n", R,
             K, steps, sms, wf ? "one box a row" : "2-D boxes of a padded copy",
             ms * 1000 / 50);
    }
    CK(cudaFree(dx));
    CK(cudaFree(dp));
  }
  printf("%s\n", fails ? "PROBE: some checks FAILED" : "PROBE: all layout checks pass");
  return 0;
}
