/* ttrt.c - the tt runtime over the CUDA Driver API, loaded with dlopen.
 *
 * cuda.h is included for types and constants only; every driver function is
 * reached through a table filled by dlsym from libcuda.so.1 (the only global
 * mutable state), preferring the _v2 symbols. Every call goes through CU(),
 * which turns a failure into a TtrtError naming the call and the error. This file is the
 * table (driver.h declares it), contexts, modules and functions, buffers and events;
 * program.c the programs and graphs.
 */
#define _POSIX_C_SOURCE 200809L
#include "driver.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* The dlopen'd driver: the only global mutable state of the runtime. */
Driver ttrtDriver;

/* How to resolve one table entry. */
typedef struct DriverSymbol {
  const char *symbol;
  const char *fallback;
  bool optional;
  size_t fnOffset;
  size_t nameOffset;
} DriverSymbol;

static const DriverSymbol kDriverSymbols[] = {
#define X(field, symbol, fallback, optional, params)                           \
  {symbol, fallback, optional, offsetof(Driver, field),                        \
   offsetof(Driver, names.field)},
    TTRT_DRIVER_FUNCTIONS(X)
#undef X
};

/* Resolves one symbol into the table; false if a required one is missing. */
static bool resolveSymbol(void *handle, const DriverSymbol *s) {
  const char *name = s->symbol;
  void *fn = dlsym(handle, name);
  if (!fn && s->fallback) {
    name = s->fallback;
    fn = dlsym(handle, name);
  }
  /* POSIX guarantees a function pointer and void * share a representation. */
  memcpy((char *)&ttrtDriver + s->fnOffset, &fn, sizeof fn);
  memcpy((char *)&ttrtDriver + s->nameOffset, &name, sizeof name);
  return fn || s->optional;
}

/* Loads the driver library (libcuda.so.1, or $TTRT_LIBCUDA if set) and
 * resolves the table, once. */
static TtrtStatus loadDriver(TtrtError *err) {
  if (ttrtDriver.handle)
    return TTRT_SUCCESS;
  const char *path = getenv("TTRT_LIBCUDA");
  if (!path || !*path)
    path = "libcuda.so.1";
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    ttrtErrorSet(err, 0, "cannot load %s: %s", path, dlerror());
    return TTRT_NO_GPU;
  }
  for (size_t i = 0; i < sizeof kDriverSymbols / sizeof *kDriverSymbols; ++i) {
    if (!resolveSymbol(handle, &kDriverSymbols[i])) {
      ttrtErrorSet(err, 0, "%s has no function %s (driver too old?)", path,
                   kDriverSymbols[i].symbol);
      dlclose(handle);
      return TTRT_FAILURE;
    }
  }
  ttrtDriver.handle = handle;
  const char *noPdl = getenv("TTRT_NO_PDL"); /* for A/B runs of the same PTX */
  ttrtDriver.pdl = ttrtDriver.launchKernelEx && !(noPdl && *noPdl);
  return TTRT_SUCCESS;
}

/* Turns a CUresult into a status, with "CALL: NAME: description". */
TtrtStatus ttrtDriverCheck(CUresult result, const char *call, TtrtError *err) {
  if (result == CUDA_SUCCESS)
    return TTRT_SUCCESS;
  const char *name = NULL, *text = NULL;
  if (ttrtDriver.getErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = "unknown error";
  if (ttrtDriver.getErrorString(result, &text) != CUDA_SUCCESS || !text)
    text = "no description";
  return ttrtErrorSet(err, 0, "%s: %s (%d): %s", call, name, (int)result,
                      text);
}

/*===------------------------------------------------------------------===*
 * Context
 *===------------------------------------------------------------------===*/


/* cuInit, and a device count of at least 1; TTRT_NO_GPU otherwise. */
static TtrtStatus initDriver(TtrtError *err) {
  CUresult r = ttrtDriver.init(0);
  if (r == CUDA_ERROR_STUB_LIBRARY) {
    /* The stub cannot even name its errors. */
    ttrtErrorSet(err, 0, "%s: CUDA_ERROR_STUB_LIBRARY (%d): the loaded "
                         "libcuda is the CUDA toolkit's stub, not a driver",
                 ttrtDriver.names.init, (int)r);
    return TTRT_NO_GPU;
  }
  if (r == CUDA_ERROR_NO_DEVICE) {
    ttrtDriverCheck(r, ttrtDriver.names.init, err);
    return TTRT_NO_GPU;
  }
  int count = 0;
  if (ttrtDriverCheck(r, ttrtDriver.names.init, err) || CU(err, deviceGetCount, &count))
    return TTRT_FAILURE;
  if (count == 0) {
    ttrtErrorSet(err, 0, "%s: the driver reports no device",
                 ttrtDriver.names.deviceGetCount);
    return TTRT_NO_GPU;
  }
  return TTRT_SUCCESS;
}

/* Reads device 0's handle, name, compute capability and driver version. */
static TtrtStatus queryDevice(Context *c, TtrtError *err) {
  int major = 0, minor = 0;
  if (CU(err, deviceGet, &c->device, 0) ||
      CU(err, deviceGetName, c->name, (int)sizeof c->name, c->device) ||
      CU(err, deviceGetAttribute, &major,
         CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, c->device) ||
      CU(err, deviceGetAttribute, &minor,
         CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, c->device) ||
      CU(err, driverGetVersion, &c->driverVersion))
    return TTRT_FAILURE;
  c->computeCapability = 10 * major + minor;
  return TTRT_SUCCESS;
}

/* Retains the primary context, makes it current and creates the stream. */
static TtrtStatus openContext(Context *c, TtrtError *err) {
  CUcontext context;
  if (CU(err, primaryCtxRetain, &context, c->device))
    return TTRT_FAILURE;
  c->context = context;
  /* A blocking stream (flags 0): ordered with the synchronous copies. */
  if (CU(err, ctxSetCurrent, c->context) ||
      CU(err, streamCreate, &c->stream, 0))
    return TTRT_FAILURE;
  c->work = c->stream;
  return TTRT_SUCCESS;
}

TtrtStatus ttrtContextCreate(TtrtContext *out, TtrtError *err) {
  out->ptr = NULL;
  TtrtStatus s = loadDriver(err);
  if (s == TTRT_SUCCESS)
    s = initDriver(err);
  if (s != TTRT_SUCCESS)
    return s;
  Context *c = calloc(1, sizeof *c);
  if (!c)
    return ttrtErrorSet(err, 0, "out of memory");
  if (queryDevice(c, err) || openContext(c, err)) {
    ttrtContextDestroy((TtrtContext){c}, NULL);
    return TTRT_FAILURE;
  }
  out->ptr = c;
  return TTRT_SUCCESS;
}

TtrtStatus ttrtContextDestroy(TtrtContext ctx, TtrtError *err) {
  Context *c = ttrtUnwrapContext(ctx);
  TtrtStatus s = TTRT_SUCCESS;
  if (!c)
    return s;
  if (c->stream)
    s = CU(err, streamDestroy, c->stream);
  if (c->context && CU(s ? NULL : err, primaryCtxRelease, c->device))
    s = TTRT_FAILURE;
  free(c);
  return s;
}

const char *ttrtContextGetDeviceName(TtrtContext ctx) {
  return ttrtUnwrapContext(ctx)->name;
}

int ttrtContextGetComputeCapability(TtrtContext ctx) {
  return ttrtUnwrapContext(ctx)->computeCapability;
}

int ttrtContextGetDriverVersion(TtrtContext ctx) {
  return ttrtUnwrapContext(ctx)->driverVersion;
}

void ttrtContextSetStream(TtrtContext ctx, void *stream) {
  Context *c = ttrtUnwrapContext(ctx);
  c->work = stream ? (CUstream)stream : c->stream;
}

TtrtStatus ttrtContextSynchronize(TtrtContext ctx, TtrtError *err) {
  return CU(err, streamSynchronize, ttrtUnwrapContext(ctx)->work);
}

/*===------------------------------------------------------------------===*
 * Modules and functions
 *===------------------------------------------------------------------===*/

TtrtStatus ttrtModuleCreate(TtrtContext ctx, const char *ptx, TtrtModule *out,
                            TtrtError *err) {
  (void)ctx; /* the context is current; the parameter documents the need */
  static const size_t kLogSize = 16384;
  char *log = calloc(1, kLogSize);
  if (!log)
    return ttrtErrorSet(err, 0, "out of memory");
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, (void *)(uintptr_t)kLogSize};
  CUmodule module = NULL;
  TtrtStatus s = CU(err, moduleLoadDataEx, &module, ptx, 2, options, values);
  if (s != TTRT_SUCCESS && log[0] && err) {
    size_t used = strlen(err->message);
    snprintf(err->message + used, sizeof err->message - used,
             "\nJIT error log:\n%s", log);
  }
  free(log);
  out->ptr = module;
  return s;
}

TtrtStatus ttrtModuleDestroy(TtrtModule module, TtrtError *err) {
  if (!module.ptr)
    return TTRT_SUCCESS;
  return CU(err, moduleUnload, (CUmodule)module.ptr);
}

TtrtStatus ttrtModuleGetFunction(TtrtModule module, const char *name,
                                 TtrtFunction *out, TtrtError *err) {
  CUfunction fn = NULL;
  TtrtStatus s = CU(err, moduleGetFunction, &fn, (CUmodule)module.ptr, name);
  if (s != TTRT_SUCCESS)
    ttrtErrorPrefix(err, "kernel '%s' not found in the PTX: ", name);
  out->ptr = fn;
  return s;
}

TtrtStatus ttrtFunctionSetDynamicSharedBytes(TtrtFunction fn, uint32_t bytes,
                                             TtrtError *err) {
  if (bytes <= 48 * 1024)
    return TTRT_SUCCESS;
  if (bytes > INT32_MAX)
    return ttrtErrorSet(err, 0, "%u bytes of shared memory is too many",
                        bytes);
  return CU(err, funcSetAttribute, (CUfunction)fn.ptr,
            CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)bytes);
}

TtrtStatus ttrtFunctionCheckParams(TtrtFunction fn, size_t count,
                                   const size_t *sizes, long declared,
                                   TtrtError *err) {
  if (declared >= 0 && (size_t)declared != count)
    return ttrtErrorSet(err, 0, "the kernel has %ld parameters but there are "
                                "%zu arg lines",
                        declared, count);
  if (!ttrtDriver.funcGetParamInfo)
    return TTRT_SUCCESS;
  /* only the parameters the kernel has: probing past the last one is an API
   * error that compute-sanitizer reports */
  size_t offset, size;
  for (size_t i = 0; i < count; ++i) {
    CUresult r = ttrtDriver.funcGetParamInfo((CUfunction)fn.ptr, i, &offset, &size);
    if (r == CUDA_ERROR_INVALID_VALUE)
      return ttrtErrorSet(err, 0, "the kernel has %zu parameters but there "
                                  "are %zu arg lines",
                          i, count);
    if (ttrtDriverCheck(r, ttrtDriver.names.funcGetParamInfo, err))
      return TTRT_FAILURE;
    if (size != sizes[i])
      return ttrtErrorSet(err, 0, "kernel parameter %zu has %zu bytes but "
                                  "its arg line gives %zu",
                          i, size, sizes[i]);
  }
  return TTRT_SUCCESS;
}

TtrtStatus ttrtFunctionLaunch(TtrtContext ctx, TtrtFunction fn,
                              const TtrtLaunchDims *d, void **params,
                              TtrtError *err) {
  CUstream stream = ttrtUnwrapContext(ctx)->work;
  bool pdl = d->pdl && ttrtDriver.pdl, cluster = d->cluster > 1;
  if (!pdl && !cluster)
    return CU(err, launchKernel, (CUfunction)fn.ptr, d->grid[0], d->grid[1],
              d->grid[2], d->block[0], d->block[1], d->block[2], d->shared,
              stream, params, NULL);
  if (cluster && !ttrtDriver.launchKernelEx)
    return ttrtErrorSet(err, 0, "a launch in thread-block clusters needs "
                                "cuLaunchKernelEx (CUDA 12 driver or later)");
  /* Programmatic dependent launch: the kernel may start once the previous
   * one on the stream has triggered (griddepcontrol.launch_dependents); it
   * waits for that one's memory itself (griddepcontrol.wait). Clusters: the
   * blocks of each run together on one GPC and share their shared memory. */
  CUlaunchAttribute attrs[2];
  unsigned n = 0;
  memset(attrs, 0, sizeof attrs);
  if (pdl) {
    attrs[n].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attrs[n++].value.programmaticStreamSerializationAllowed = 1;
  }
  if (cluster) {
    attrs[n].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attrs[n].value.clusterDim.x = d->cluster;
    attrs[n].value.clusterDim.y = 1;
    attrs[n++].value.clusterDim.z = 1;
  }
  CUlaunchConfig config = {
      .gridDimX = d->grid[0], .gridDimY = d->grid[1], .gridDimZ = d->grid[2],
      .blockDimX = d->block[0], .blockDimY = d->block[1],
      .blockDimZ = d->block[2], .sharedMemBytes = d->shared,
      .hStream = stream, .attrs = attrs, .numAttrs = n};
  return CU(err, launchKernelEx, &config, (CUfunction)fn.ptr, params, NULL);
}

/*===------------------------------------------------------------------===*
 * Buffers
 *===------------------------------------------------------------------===*/

TtrtStatus ttrtBufferCreate(TtrtContext ctx, size_t bytes, TtrtBuffer *out,
                            TtrtError *err) {
  (void)ctx;
  CUdeviceptr address = 0;
  out->address = 0;
  out->bytes = 0;
  if (CU(err, memAlloc, &address, bytes)) {
    ttrtErrorPrefix(err, "allocating %zu bytes: ", bytes);
    return TTRT_FAILURE;
  }
  out->address = address;
  out->bytes = bytes;
  return TTRT_SUCCESS;
}

TtrtStatus ttrtBufferDestroy(TtrtBuffer buffer, TtrtError *err) {
  if (!buffer.address)
    return TTRT_SUCCESS;
  return CU(err, memFree, (CUdeviceptr)buffer.address);
}

TtrtStatus ttrtBufferWrite(TtrtBuffer buffer, const void *host,
                           TtrtError *err) {
  return CU(err, memcpyHtoD, (CUdeviceptr)buffer.address, host, buffer.bytes);
}

TtrtStatus ttrtBufferRead(TtrtBuffer buffer, void *host, TtrtError *err) {
  return CU(err, memcpyDtoH, host, (CUdeviceptr)buffer.address, buffer.bytes);
}

TtrtStatus ttrtBufferFill(TtrtBuffer buffer, uint8_t value, TtrtError *err) {
  return CU(err, memsetD8, (CUdeviceptr)buffer.address, value, buffer.bytes);
}

/*===------------------------------------------------------------------===*
 * Events
 *===------------------------------------------------------------------===*/

TtrtStatus ttrtEventCreate(TtrtContext ctx, TtrtEvent *out, TtrtError *err) {
  (void)ctx;
  CUevent event = NULL;
  TtrtStatus s = CU(err, eventCreate, &event, CU_EVENT_DEFAULT);
  out->ptr = event;
  return s;
}

TtrtStatus ttrtEventDestroy(TtrtEvent event, TtrtError *err) {
  if (!event.ptr)
    return TTRT_SUCCESS;
  return CU(err, eventDestroy, (CUevent)event.ptr);
}

TtrtStatus ttrtEventRecord(TtrtEvent event, TtrtContext ctx, TtrtError *err) {
  return CU(err, eventRecord, (CUevent)event.ptr, ttrtUnwrapContext(ctx)->work);
}

TtrtStatus ttrtEventElapsedMs(TtrtEvent start, TtrtEvent end, float *ms,
                              TtrtError *err) {
  if (CU(err, eventSynchronize, (CUevent)start.ptr) ||
      CU(err, eventSynchronize, (CUevent)end.ptr))
    return TTRT_FAILURE;
  return CU(err, eventElapsedTime, ms, (CUevent)start.ptr, (CUevent)end.ptr);
}
