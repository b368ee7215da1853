/* driver.h - the private header of the runtime's C files (ttrt.c, program.c): the
 * dlopen'd CUDA Driver API table, CU() and the context's fields. cuda.h is included for
 * types and constants only. */
#ifndef TT_RUNTIME_DRIVER_H
#define TT_RUNTIME_DRIVER_H

#include "ttrt.h"

#include <cuda.h>

/*===------------------------------------------------------------------===*
 * The driver table
 *===------------------------------------------------------------------===*/

/* X(field, symbol, fallback symbol or NULL, optional, parameter list).
 * Field names have no `cu` prefix: cuda.h #defines many cu* names to their
 * _v2 symbols. */
#define TTRT_DRIVER_FUNCTIONS(X)                                               \
  X(init, "cuInit", NULL, false, (unsigned int))                               \
  X(driverGetVersion, "cuDriverGetVersion", NULL, false, (int *))              \
  X(deviceGetCount, "cuDeviceGetCount", NULL, false, (int *))                  \
  X(deviceGet, "cuDeviceGet", NULL, false, (CUdevice *, int))                  \
  X(deviceGetName, "cuDeviceGetName", NULL, false, (char *, int, CUdevice))    \
  X(deviceGetAttribute, "cuDeviceGetAttribute", NULL, false,                   \
    (int *, CUdevice_attribute, CUdevice))                                     \
  X(primaryCtxRetain, "cuDevicePrimaryCtxRetain", NULL, false,                 \
    (CUcontext *, CUdevice))                                                   \
  X(primaryCtxRelease, "cuDevicePrimaryCtxRelease_v2",                         \
    "cuDevicePrimaryCtxRelease", false, (CUdevice))                            \
  X(ctxSetCurrent, "cuCtxSetCurrent", NULL, false, (CUcontext))                \
  X(streamCreate, "cuStreamCreate", NULL, false, (CUstream *, unsigned int))   \
  X(streamDestroy, "cuStreamDestroy_v2", "cuStreamDestroy", false, (CUstream)) \
  X(streamSynchronize, "cuStreamSynchronize", NULL, false, (CUstream))         \
  X(moduleLoadDataEx, "cuModuleLoadDataEx", NULL, false,                       \
    (CUmodule *, const void *, unsigned int, CUjit_option *, void **))         \
  X(moduleUnload, "cuModuleUnload", NULL, false, (CUmodule))                   \
  X(moduleGetFunction, "cuModuleGetFunction", NULL, false,                     \
    (CUfunction *, CUmodule, const char *))                                    \
  X(funcSetAttribute, "cuFuncSetAttribute", NULL, false,                       \
    (CUfunction, CUfunction_attribute, int))                                   \
  X(funcGetParamInfo, "cuFuncGetParamInfo", NULL, true,                        \
    (CUfunction, size_t, size_t *, size_t *))                                  \
  X(memAlloc, "cuMemAlloc_v2", "cuMemAlloc", false, (CUdeviceptr *, size_t))   \
  X(memFree, "cuMemFree_v2", "cuMemFree", false, (CUdeviceptr))                \
  X(memcpyHtoD, "cuMemcpyHtoD_v2", "cuMemcpyHtoD", false,                      \
    (CUdeviceptr, const void *, size_t))                                       \
  X(memcpyDtoH, "cuMemcpyDtoH_v2", "cuMemcpyDtoH", false,                      \
    (void *, CUdeviceptr, size_t))                                             \
  X(memsetD8, "cuMemsetD8_v2", "cuMemsetD8", false,                            \
    (CUdeviceptr, unsigned char, size_t))                                      \
  X(memsetD8Async, "cuMemsetD8Async", NULL, false,                             \
    (CUdeviceptr, unsigned char, size_t, CUstream))                            \
  X(launchKernel, "cuLaunchKernel", NULL, false,                               \
    (CUfunction, unsigned int, unsigned int, unsigned int, unsigned int,       \
     unsigned int, unsigned int, unsigned int, CUstream, void **, void **))    \
  X(launchKernelEx, "cuLaunchKernelEx", NULL, true,                           \
    (const CUlaunchConfig *, CUfunction, void **, void **))                    \
  X(eventCreate, "cuEventCreate", NULL, false, (CUevent *, unsigned int))      \
  X(eventDestroy, "cuEventDestroy_v2", "cuEventDestroy", false, (CUevent))     \
  X(eventRecord, "cuEventRecord", NULL, false, (CUevent, CUstream))            \
  X(eventSynchronize, "cuEventSynchronize", NULL, false, (CUevent))            \
  X(eventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime", false,    \
    (float *, CUevent, CUevent))                                               \
  X(streamBeginCapture, "cuStreamBeginCapture_v2", "cuStreamBeginCapture",    \
    true, (CUstream, CUstreamCaptureMode))                                     \
  X(streamEndCapture, "cuStreamEndCapture", NULL, true, (CUstream, CUgraph *)) \
  X(streamIsCapturing, "cuStreamIsCapturing", NULL, true,                      \
    (CUstream, CUstreamCaptureStatus *))                                       \
  X(graphInstantiate, "cuGraphInstantiateWithFlags", NULL, true,               \
    (CUgraphExec *, CUgraph, unsigned long long))                              \
  X(graphLaunch, "cuGraphLaunch", NULL, true, (CUgraphExec, CUstream))         \
  X(graphExecDestroy, "cuGraphExecDestroy", NULL, true, (CUgraphExec))         \
  X(graphDestroy, "cuGraphDestroy", NULL, true, (CUgraph))                     \
  X(tensorMapEncodeTiled, "cuTensorMapEncodeTiled", NULL, true,               \
    (CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *, \
     const cuuint64_t *, const cuuint32_t *, const cuuint32_t *,               \
     CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion,       \
     CUtensorMapFloatOOBfill))                                                 \
  X(getErrorName, "cuGetErrorName", NULL, false, (CUresult, const char **))    \
  X(getErrorString, "cuGetErrorString", NULL, false, (CUresult, const char **))

typedef struct Driver {
  void *handle; /* non-NULL once every symbol is resolved */
  bool pdl;     /* `pdl` launches as such: cuLaunchKernelEx exists, TTRT_NO_PDL unset */
#define X(field, symbol, fallback, optional, params)                           \
  CUresult(CUDAAPI *field) params;
  TTRT_DRIVER_FUNCTIONS(X)
#undef X
  struct {
#define X(field, symbol, fallback, optional, params) const char *field;
    TTRT_DRIVER_FUNCTIONS(X)
#undef X
  } names; /* the symbol each function was resolved from, for messages */
} Driver;

/* The dlopen'd driver (ttrt.c): the only global mutable state of the runtime. */
extern Driver ttrtDriver;

/* Turns a CUresult into a status, with "CALL: NAME: description". */
TtrtStatus ttrtDriverCheck(CUresult result, const char *call, TtrtError *err);

/* Calls driver function `field` and checks its result. */
#define CU(err, field, ...)                                                    \
  ttrtDriverCheck(ttrtDriver.field(__VA_ARGS__), ttrtDriver.names.field, (err))

typedef struct Context {
  CUdevice device;
  CUcontext context; /* the retained primary context; NULL if not retained */
  CUstream stream;   /* the context's own */
  CUstream work;     /* where work goes: `stream`, or the caller's (ttrtContextSetStream) */
  int computeCapability;
  int driverVersion;
  char name[256];
} Context;

static inline Context *ttrtUnwrapContext(TtrtContext ctx) { return ctx.ptr; }

#endif /* TT_RUNTIME_DRIVER_H */
