/* ttrt.h - the tt runtime: a small layer over the CUDA Driver API.
 *
 * libcuda is loaded at run time (dlopen("libcuda.so.1"), or the path in the
 * environment variable TTRT_LIBCUDA), never linked, so
 * programs that use this library build and start on machines without a GPU
 * and can tell "no GPU" (TTRT_NO_GPU) apart from other errors. Every driver
 * call is checked; a failure comes back as TTRT_FAILURE with a TtrtError that
 * names the call and the driver's name and description of the error.
 *
 * Handles are small value types in the MLIR-C style: `TtrtThing` with
 * `ttrtThingCreate`/`ttrtThingDestroy` and `ttrtThingIsNull`. One context is
 * one device (device 0, its primary context) and one stream; everything runs
 * on that stream, in order. Not thread-safe.
 *
 * The last part, TtrtProgram, runs a tt PTX file: it loads the module,
 * allocates the buffers the metadata (meta.h) asks for, builds each kernel's
 * parameters from the `arg` lines, and enqueues the `launch` lines, each
 * after the fills with zero bytes of the `zero` lines before it.
 */
#ifndef TT_RUNTIME_TTRT_H
#define TT_RUNTIME_TTRT_H

#include "meta.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TtrtContext {
  void *ptr;
} TtrtContext;

typedef struct TtrtModule {
  void *ptr;
} TtrtModule;

typedef struct TtrtFunction {
  void *ptr;
} TtrtFunction;

typedef struct TtrtEvent {
  void *ptr;
} TtrtEvent;

/* A device buffer: its address and size in bytes. */
typedef struct TtrtBuffer {
  uint64_t address;
  size_t bytes;
} TtrtBuffer;

typedef struct TtrtGraph {
  void *ptr;
} TtrtGraph;

typedef struct TtrtProgram {
  void *ptr;
} TtrtProgram;

/* Grid and block sizes and dynamic shared memory bytes of a launch. */
typedef struct TtrtLaunchDims {
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t shared;
  bool pdl; /* launch with programmatic stream serialization (the kernel waits
               for the previous one itself: griddepcontrol.wait) */
  uint32_t cluster; /* thread-block clusters of this many blocks along x (sm_90;
                       grid[0] a multiple of it); 0 or 1: none */
} TtrtLaunchDims;

/* In every function below, `err` may be NULL (the message is then dropped). */

/*===------------------------------------------------------------------===*
 * Context
 *===------------------------------------------------------------------===*/

/* Loads libcuda (TTRT_LIBCUDA overrides the path), initializes the driver,
 * retains device 0's primary context, makes it current and creates a stream.
 * TTRT_NO_GPU if libcuda cannot be loaded or the driver reports no device;
 * the message says which. */
TtrtStatus ttrtContextCreate(TtrtContext *out, TtrtError *err);

/* Destroys the stream and releases the primary context. */
TtrtStatus ttrtContextDestroy(TtrtContext ctx, TtrtError *err);

static inline bool ttrtContextIsNull(TtrtContext ctx) { return !ctx.ptr; }

/* The device's name ("NVIDIA H100 80GB HBM3"). */
const char *ttrtContextGetDeviceName(TtrtContext ctx);

/* The device's compute capability as 10 * major + minor (90 for sm_90). */
int ttrtContextGetComputeCapability(TtrtContext ctx);

/* The driver's CUDA version as 1000 * major + 10 * minor (13000). */
int ttrtContextGetDriverVersion(TtrtContext ctx);

/* Makes `stream` (a CUstream of this context, e.g. PyTorch's current stream) the
 * one every later launch, fill, event and graph replay of the context goes on;
 * NULL: the context's own stream again. */
void ttrtContextSetStream(TtrtContext ctx, void *stream);

/* Waits until everything enqueued on the context's stream has finished. */
TtrtStatus ttrtContextSynchronize(TtrtContext ctx, TtrtError *err);

/*===------------------------------------------------------------------===*
 * Modules and functions
 *===------------------------------------------------------------------===*/

/* JIT-compiles NUL-terminated PTX text. On failure the message includes the
 * JIT error log. */
TtrtStatus ttrtModuleCreate(TtrtContext ctx, const char *ptx, TtrtModule *out,
                            TtrtError *err);

TtrtStatus ttrtModuleDestroy(TtrtModule module, TtrtError *err);

static inline bool ttrtModuleIsNull(TtrtModule m) { return !m.ptr; }

/* Looks up the kernel (PTX .entry) `name`. */
TtrtStatus ttrtModuleGetFunction(TtrtModule module, const char *name,
                                 TtrtFunction *out, TtrtError *err);

/* Allows the function `bytes` of dynamic shared memory (needed above 48 KiB;
 * a no-op below). */
TtrtStatus ttrtFunctionSetDynamicSharedBytes(TtrtFunction fn, uint32_t bytes,
                                             TtrtError *err);

/* Checks that the function has exactly `count` parameters of the given sizes
 * in bytes: `declared` (from ttrtPtxEntryParams; -1: unknown) must be count,
 * and cuFuncGetParamInfo (CUDA 12.4 and later; skipped where the driver lacks
 * it) gives each of parameters 0 .. count - 1 its size. */
TtrtStatus ttrtFunctionCheckParams(TtrtFunction fn, size_t count,
                                   const size_t *sizes, long declared,
                                   TtrtError *err);

/* Enqueues a launch on the context's stream. `params[i]` points at the value
 * of parameter i, as for cuLaunchKernel. */
TtrtStatus ttrtFunctionLaunch(TtrtContext ctx, TtrtFunction fn,
                              const TtrtLaunchDims *dims, void **params,
                              TtrtError *err);

/*===------------------------------------------------------------------===*
 * Buffers
 *===------------------------------------------------------------------===*/

/* Allocates `bytes` (> 0) of device memory, 256-byte aligned. */
TtrtStatus ttrtBufferCreate(TtrtContext ctx, size_t bytes, TtrtBuffer *out,
                            TtrtError *err);

TtrtStatus ttrtBufferDestroy(TtrtBuffer buffer, TtrtError *err);

static inline bool ttrtBufferIsNull(TtrtBuffer b) { return !b.address; }

/* Copies buffer.bytes bytes from the host to the buffer (synchronous). */
TtrtStatus ttrtBufferWrite(TtrtBuffer buffer, const void *host,
                           TtrtError *err);

/* Copies buffer.bytes bytes from the buffer to the host (synchronous). */
TtrtStatus ttrtBufferRead(TtrtBuffer buffer, void *host, TtrtError *err);

/* Sets every byte of the buffer to `value` (synchronous). */
TtrtStatus ttrtBufferFill(TtrtBuffer buffer, uint8_t value, TtrtError *err);

/*===------------------------------------------------------------------===*
 * Events (timing)
 *===------------------------------------------------------------------===*/

TtrtStatus ttrtEventCreate(TtrtContext ctx, TtrtEvent *out, TtrtError *err);

TtrtStatus ttrtEventDestroy(TtrtEvent event, TtrtError *err);

static inline bool ttrtEventIsNull(TtrtEvent e) { return !e.ptr; }

/* Records the event on the context's stream. */
TtrtStatus ttrtEventRecord(TtrtEvent event, TtrtContext ctx, TtrtError *err);

/* Waits for both events, then gives the time between them in ms. */
TtrtStatus ttrtEventElapsedMs(TtrtEvent start, TtrtEvent end, float *ms,
                              TtrtError *err);

/*===------------------------------------------------------------------===*
 * Programs (a tt PTX file with its metadata)
 *===------------------------------------------------------------------===*/

/* Loads the PTX, finds each launch's kernel, checks its parameters against
 * the `arg` lines, evaluates grid sizes and integer arguments, and allocates
 * a buffer for each input, output, and each temp or const tensor that an
 * `arg ptr` or a `zero` line names. Buffers are not initialized. `meta` must
 * outlive the program. */
TtrtStatus ttrtProgramCreate(TtrtContext ctx, const TtrtMeta *meta,
                             const char *ptx, TtrtProgram *out,
                             TtrtError *err);

/* As ttrtProgramCreate, for a caller that owns the memory of the inputs and
 * outputs (exec.h's executables): `module` is `ptx` already loaded (the
 * program uses it and does not unload it), no buffer is made for an input or
 * an output, and each must be bound (ttrtProgramBindBuffer) before the first
 * run; temps are the program's. */
TtrtStatus ttrtProgramCreateExternal(TtrtContext ctx, const TtrtMeta *meta,
                                     const char *ptx, TtrtModule module,
                                     TtrtProgram *out, TtrtError *err);

/* Makes `buffer` (caller's memory, not freed by the program) the memory of
 * tensor slot `slot`, freeing the program's own buffer of it if it had one.
 * The launches' parameters are made again before the next launch. */
TtrtStatus ttrtProgramBindBuffer(TtrtProgram program, int slot, TtrtBuffer buffer,
                                 TtrtError *err);

/* Frees the buffers it made and unloads the module it loaded. */
TtrtStatus ttrtProgramDestroy(TtrtProgram program, TtrtError *err);

static inline bool ttrtProgramIsNull(TtrtProgram p) { return !p.ptr; }

/* The buffer of tensor slot `slot`, or a null buffer if it has none. */
TtrtBuffer ttrtProgramGetBuffer(TtrtProgram program, int slot);

/* Enqueues every launch, in order, on the context's stream, each after its
 * zeroing (see ttrtProgramRunLaunch), but for `once` launches (format 9: they
 * read weights alone, whose contents the caller keeps between runs) that ran
 * already: those run at the program's first run, after ttrtProgramRefresh, and
 * after a buffer they read or write is bound at another address. With `checkEach`, waits after each
 * launch so that a fault is blamed on the kernel that caused it (for
 * correctness runs; not for timing). Errors name the launch, its kernel and
 * its metadata line. */
TtrtStatus ttrtProgramRun(TtrtProgram program, bool checkEach, TtrtError *err);

/* Makes the next ttrtProgramRun run the `once` launches again: after the
 * caller changed a weight in place, or wrote any buffer they read or write. */
void ttrtProgramRefresh(TtrtProgram program);

/* Enqueues launch i (0-based, in metadata order) alone (a `once` launch too): first the fill with
 * zero bytes (cuMemsetD8Async, on the same stream) of each tensor that a
 * `zero` line before the launch names, then the kernel. ttrtProgramRun and
 * ttrtProgramCaptureGraph run every launch through this. */
TtrtStatus ttrtProgramRunLaunch(TtrtProgram program, int i, TtrtError *err);

/*===------------------------------------------------------------------===*
 * Graphs (the launch sequence captured once, replayed with one call)
 *===------------------------------------------------------------------===*/

/* Captures the program's launch sequence (with its zeroing) from the
 * context's stream into a CUDA graph and instantiates it. The graph uses the
 * program's buffers. `once` launches are not in it: those that are due run
 * first, on the stream, before the capture (so a weight bound at another
 * address, or a refresh, needs a new capture). */
TtrtStatus ttrtProgramCaptureGraph(TtrtProgram program, TtrtGraph *out,
                                   TtrtError *err);

/* Enqueues one replay of the graph on the context's stream. */
TtrtStatus ttrtGraphLaunch(TtrtGraph graph, TtrtError *err);

TtrtStatus ttrtGraphDestroy(TtrtGraph graph, TtrtError *err);

static inline bool ttrtGraphIsNull(TtrtGraph g) { return !g.ptr; }

#ifdef __cplusplus
}
#endif

#endif /* TT_RUNTIME_TTRT_H */
