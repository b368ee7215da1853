/* program.c - programs (the launches of one metadata file over its buffers: temps made,
 * grids, arguments and tensor maps prepared once, `once` launches run when due) and
 * graphs (a program's launch sequence captured with cuStreamBeginCapture and replayed),
 * on the driver table of ttrt.c (driver.h). The API is ttrt.h's. */
#define _POSIX_C_SOURCE 200809L
#include "driver.h"

#include <stdlib.h>
#include <string.h>

/*===------------------------------------------------------------------===*
 * Programs
 *===------------------------------------------------------------------===*/

/* The value of one kernel parameter; params[i] points at one of these. */
typedef union ParamValue {
  CUtensorMap map; /* a `tma` arg: the kernel's __grid_constant__ parameter */
  CUdeviceptr ptr;
  int32_t i32;
  int64_t i64;
  float f32;
} ParamValue;

typedef struct Program {
  TtrtContext ctx;
  const TtrtMeta *meta;
  TtrtModule module;
  TtrtBuffer *buffers;     /* per tensor slot; null if none */
  TtrtFunction *functions; /* per launch */
  TtrtLaunchDims *dims;    /* per launch */
  ParamValue *values;      /* per arg */
  void **params;           /* per arg: &values[i] */
  bool *active;            /* per launch: its `when` holds (or it has none) */
  bool *owned;             /* per slot: the buffer is the program's to free */
  long *declared;          /* per launch: parameters its PTX .entry declares */
  bool ownsModule;         /* false: a module the caller loaded and keeps */
  bool dirty;              /* a buffer was bound since the launches were prepared */
  bool *onceSlot;          /* per slot: a `once` launch reads or writes it */
  bool onceDone;           /* the `once` launches ran, on the buffers bound now */
  bool plain;              /* launch without pdl (a run that runs `once` launches) */
  bool hasOnce;            /* some launch is `once` */
} Program;

static Program *unwrapProgram(TtrtProgram p) { return p.ptr; }

/* Prefixes an error with the launch it is about and sets its line. */
static TtrtStatus blameLaunch(const TtrtMeta *meta, int i, TtrtError *err) {
  const TtrtLaunch *l = &meta->launches[i];
  ttrtErrorPrefix(err, "launch %d (kernel '%s'): ", i, l->kernel);
  if (err && err->line == 0)
    err->line = l->line;
  return TTRT_FAILURE;
}

/* True if tensor `slot` needs a device buffer: an input, an output, or a
 * tensor that an `arg ptr` or a `zero` line names. */
static bool needsBuffer(const TtrtMeta *meta, int slot) {
  TtrtRole role = meta->tensors[slot].role;
  if (role == TTRT_ROLE_INPUT || role == TTRT_ROLE_OUTPUT)
    return true;
  for (int i = 0; i < meta->numArgs; ++i)
    if (meta->args[i].kind == TTRT_ARG_PTR && meta->args[i].tensor == slot)
      return true;
  for (int i = 0; i < meta->numZeros; ++i)
    if (meta->zeros[i].tensor == slot)
      return true;
  return false;
}

/* Allocates the buffers of every tensor that needs one (with externalIO, not the
 * inputs' and outputs': the caller binds its own); temps are zeroed. */
static TtrtStatus allocateBuffers(Program *p, bool externalIO, TtrtError *err) {
  const TtrtMeta *meta = p->meta;
  for (int slot = 0; slot < meta->numTensors; ++slot) {
    const TtrtTensor *t = &meta->tensors[slot];
    if (!needsBuffer(meta, slot) ||
        (externalIO && (t->role == TTRT_ROLE_INPUT || t->role == TTRT_ROLE_OUTPUT)))
      continue;
    p->owned[slot] = true;
    size_t bytes = (size_t)ttrtShapeGetNumel(&t->shape) *
                   ttrtDtypeGetSize(t->dtype);
    /* temps start zeroed (split-K's arrival counters rely on it: they put themselves back
     * to zero after each launch); synchronously, so that no stream a caller launches on
     * later can overtake it (allocation is rare) */
    if (ttrtBufferCreate(p->ctx, bytes, &p->buffers[slot], err) ||
        (t->role == TTRT_ROLE_TEMP && bytes > 0 &&
         CU(err, memsetD8, (CUdeviceptr)p->buffers[slot].address, 0, bytes))) {
      ttrtErrorPrefix(err, "buffer of %%%lld: ", (long long)t->id);
      if (err)
        err->line = t->line;
      return TTRT_FAILURE;
    }
  }
  return TTRT_SUCCESS;
}

/* Evaluates an integer expression into [lo, hi]. */
static TtrtStatus evalInRange(const TtrtMeta *meta, int expr, int64_t lo,
                              int64_t hi, const char *what, int64_t *out,
                              TtrtError *err) {
  if (ttrtExprEval(meta, expr, out, err))
    return TTRT_FAILURE;
  if (*out >= lo && *out <= hi)
    return TTRT_SUCCESS;
  char text[512];
  ttrtExprFormat(meta, expr, text, sizeof text);
  return ttrtErrorSet(err, 0, "%s '%s' is %lld, outside [%lld, %lld]", what,
                      text, (long long)*out, (long long)lo, (long long)hi);
}

/* The tensor map of `tma` arg i (cuTensorMapEncodeTiled: the tensor's buffer as a
 * row-major matrix, boxes swizzled by 128 bytes, zeros past the edges) into *map, the
 * kernel's 128-byte parameter. */
static TtrtStatus makeTensorMap(Program *p, int i, CUtensorMap *map, TtrtError *err) {
  const TtrtArg *a = &p->meta->args[i];
  if (!ttrtDriver.tensorMapEncodeTiled)
    return ttrtErrorSet(err, a->line, "this driver has no cuTensorMapEncodeTiled (TMA "
                                      "needs CUDA 12 or later)");
  const TtrtTensor *t = &p->meta->tensors[a->tensor];
  int64_t rows = a->tmaDims[0] > 0 ? a->tmaDims[0]
                                   : ttrtShapeGetNumel(&t->shape) / a->tmaDims[1]; /* `?`:
                                       whole rows, checked when parsed or resolved */
  /* innermost first: columns, rows, and for a batched map (format 8) the matrices */
  cuuint64_t rowBytes = (cuuint64_t)a->tmaDims[1] * ttrtDtypeGetSize(t->dtype);
  cuuint64_t dims[3] = {(cuuint64_t)a->tmaDims[1], (cuuint64_t)rows, (cuuint64_t)a->tmaBatch};
  cuuint64_t strides[2] = {rowBytes, rowBytes * (cuuint64_t)rows};
  cuuint32_t box[3] = {(cuuint32_t)a->tmaBox[1], (cuuint32_t)a->tmaBox[0], 1};
  cuuint32_t elementStrides[3] = {1, 1, 1};
  CUresult r = ttrtDriver.tensorMapEncodeTiled(
      map, t->dtype == TTRT_DTYPE_BF16  ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
            : t->dtype == TTRT_DTYPE_F16 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                                         : CU_TENSOR_MAP_DATA_TYPE_UINT8, /* fp8: bytes */
      a->tmaBatch ? 3 : 2, (void *)(uintptr_t)p->buffers[a->tensor].address, dims, strides, box,
      elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    return ttrtErrorSet(err, a->line, "cuTensorMapEncodeTiled failed (error %d)", (int)r);
  return TTRT_SUCCESS;
}

/* Computes the value and byte size of arg `i`. */
static TtrtStatus prepareArg(Program *p, int i, size_t *size,
                             TtrtError *err) {
  const TtrtArg *a = &p->meta->args[i];
  ParamValue *v = &p->values[i];
  int64_t x = 0;
  TtrtStatus s = TTRT_SUCCESS;
  switch (a->kind) {
  case TTRT_ARG_PTR:
    v->ptr = (CUdeviceptr)p->buffers[a->tensor].address;
    *size = sizeof v->ptr;
    break;
  case TTRT_ARG_F32:
    v->f32 = a->f32;
    *size = sizeof v->f32;
    break;
  case TTRT_ARG_I32:
    s = evalInRange(p->meta, a->expr, INT32_MIN, INT32_MAX, "i32 argument", &x,
                    err);
    v->i32 = (int32_t)x;
    *size = sizeof v->i32;
    break;
  case TTRT_ARG_I64:
    s = ttrtExprEval(p->meta, a->expr, &v->i64, err);
    *size = sizeof v->i64;
    break;
  case TTRT_ARG_TMA:
    s = makeTensorMap(p, i, &v->map, err);
    *size = sizeof v->map;
    break;
  }
  p->params[i] = v;
  if (s != TTRT_SUCCESS && err)
    err->line = a->line;
  return s;
}

/* Evaluates launch `i`'s `when` clause (format 6) into p->active[i]; then,
 * for an active launch, its grid and arguments, checked against its
 * kernel's parameters. */
static TtrtStatus prepareLaunch(Program *p, int i, TtrtError *err) {
  const TtrtLaunch *l = &p->meta->launches[i];
  TtrtLaunchDims *d = &p->dims[i];
  p->active[i] = true;
  if (l->when >= 0) {
    int64_t w;
    if (ttrtExprEval(p->meta, l->when, &w, err))
      return TTRT_FAILURE;
    p->active[i] = w >= l->whenLo && w <= l->whenHi;
    if (!p->active[i])
      return TTRT_SUCCESS;
  }
  size_t sizes[256];
  if (l->numArgs > (int)(sizeof sizes / sizeof *sizes))
    return ttrtErrorSet(err, 0, "more than %zu arg lines",
                        sizeof sizes / sizeof *sizes);
  for (int k = 0; k < 3; ++k) {
    int64_t g;
    if (evalInRange(p->meta, l->grid[k], 1, UINT32_MAX, "grid size", &g, err))
      return TTRT_FAILURE;
    d->grid[k] = (uint32_t)g;
    d->block[k] = l->block[k];
  }
  d->shared = l->shared;
  d->pdl = l->pdl;
  d->cluster = l->cluster;
  if (l->cluster > 1 && d->grid[0] % l->cluster != 0)
    return ttrtErrorSet(err, 0, "line %d: grid x %u is not a multiple of the cluster size %u",
                        l->line, d->grid[0], l->cluster);
  for (int k = 0; k < l->numArgs; ++k)
    if (prepareArg(p, l->firstArg + k, &sizes[k], err))
      return TTRT_FAILURE;
  if (ttrtModuleGetFunction(p->module, l->kernel, &p->functions[i], err) ||
      ttrtFunctionCheckParams(p->functions[i], (size_t)l->numArgs, sizes,
                              p->declared[i], err) ||
      ttrtFunctionSetDynamicSharedBytes(p->functions[i], l->shared, err))
    return TTRT_FAILURE;
  return TTRT_SUCCESS;
}

/* Allocates the per-slot, per-launch and per-arg arrays. */
static bool allocateArrays(Program *p) {
  const TtrtMeta *m = p->meta;
  p->buffers = calloc((size_t)m->numTensors + 1, sizeof *p->buffers);
  p->functions = calloc((size_t)m->numLaunches + 1, sizeof *p->functions);
  p->dims = calloc((size_t)m->numLaunches + 1, sizeof *p->dims);
  size_t valueBytes = ((size_t)m->numArgs + 1) * sizeof *p->values;
  p->values = aligned_alloc(_Alignof(ParamValue), valueBytes); /* tensor maps: 128 */
  if (p->values)
    memset(p->values, 0, valueBytes);
  p->params = calloc((size_t)m->numArgs + 1, sizeof *p->params);
  p->active = calloc((size_t)m->numLaunches + 1, sizeof *p->active);
  p->owned = calloc((size_t)m->numTensors + 1, sizeof *p->owned);
  p->declared = calloc((size_t)m->numLaunches + 1, sizeof *p->declared);
  p->onceSlot = calloc((size_t)m->numTensors + 1, sizeof *p->onceSlot);
  for (int i = 0; p->onceSlot && i < m->numLaunches; ++i) {
    const TtrtLaunch *l = &m->launches[i];
    p->hasOnce = p->hasOnce || l->once;
    for (int a = l->firstArg; l->once && a < l->firstArg + l->numArgs; ++a)
      if (m->args[a].kind == TTRT_ARG_PTR || m->args[a].kind == TTRT_ARG_TMA)
        p->onceSlot[m->args[a].tensor] = true;
  }
  return p->buffers && p->functions && p->dims && p->values && p->params && p->active &&
         p->owned && p->declared && p->onceSlot;
}

/* Prepares every launch (grid, arguments, parameters checked); blamed on the
 * launch at fault. */
static TtrtStatus prepareLaunches(Program *p, TtrtError *err) {
  for (int i = 0; i < p->meta->numLaunches; ++i)
    if (prepareLaunch(p, i, err))
      return blameLaunch(p->meta, i, err);
  p->dirty = false;
  return TTRT_SUCCESS;
}

static TtrtStatus programCreate(TtrtContext ctx, const TtrtMeta *meta, const char *ptx,
                                TtrtModule module, bool externalIO, TtrtProgram *out,
                                TtrtError *err) {
  out->ptr = NULL;
  if (!meta->resolved)
    return ttrtErrorSet(err, 0, "the program's symbolic sizes are not bound "
                                "and resolved (ttrtMetaResolve)");
  Program *p = calloc(1, sizeof *p);
  if (!p)
    return ttrtErrorSet(err, 0, "out of memory");
  p->ctx = ctx;
  p->meta = meta;
  TtrtStatus s = allocateArrays(p) ? TTRT_SUCCESS
                                   : ttrtErrorSet(err, 0, "out of memory");
  for (int i = 0; s == TTRT_SUCCESS && i < meta->numLaunches; ++i)
    p->declared[i] = ttrtPtxEntryParams(ptx, meta->launches[i].kernel);
  p->ownsModule = !module.ptr;
  if (s == TTRT_SUCCESS && module.ptr)
    p->module = module;
  else if (s == TTRT_SUCCESS)
    s = ttrtModuleCreate(ctx, ptx, &p->module, err);
  if (s == TTRT_SUCCESS)
    s = allocateBuffers(p, externalIO, err);
  if (s == TTRT_SUCCESS && !externalIO)
    s = prepareLaunches(p, err);
  p->dirty = externalIO; /* prepared at the first run, once the caller's buffers are bound */
  if (s != TTRT_SUCCESS) {
    ttrtProgramDestroy((TtrtProgram){p}, NULL);
    return s;
  }
  out->ptr = p;
  return TTRT_SUCCESS;
}

TtrtStatus ttrtProgramCreate(TtrtContext ctx, const TtrtMeta *meta,
                             const char *ptx, TtrtProgram *out,
                             TtrtError *err) {
  return programCreate(ctx, meta, ptx, (TtrtModule){NULL}, false, out, err);
}

TtrtStatus ttrtProgramCreateExternal(TtrtContext ctx, const TtrtMeta *meta,
                                     const char *ptx, TtrtModule module,
                                     TtrtProgram *out, TtrtError *err) {
  return programCreate(ctx, meta, ptx, module, true, out, err);
}

TtrtStatus ttrtProgramBindBuffer(TtrtProgram program, int slot, TtrtBuffer buffer,
                                 TtrtError *err) {
  Program *p = unwrapProgram(program);
  if (slot < 0 || slot >= p->meta->numTensors)
    return ttrtErrorSet(err, 0, "no tensor slot %d", slot);
  if (p->buffers[slot].address == buffer.address && p->buffers[slot].bytes == buffer.bytes)
    return TTRT_SUCCESS;
  if (p->owned[slot] && ttrtBufferDestroy(p->buffers[slot], err))
    return TTRT_FAILURE;
  p->owned[slot] = false;
  p->buffers[slot] = buffer;
  p->dirty = true;
  p->onceDone = p->onceDone && !p->onceSlot[slot]; /* a weight moved: run them again */
  return TTRT_SUCCESS;
}

void ttrtProgramRefresh(TtrtProgram program) { unwrapProgram(program)->onceDone = false; }

TtrtStatus ttrtProgramDestroy(TtrtProgram program, TtrtError *err) {
  Program *p = unwrapProgram(program);
  TtrtStatus s = TTRT_SUCCESS;
  if (!p)
    return s;
  for (int slot = 0; p->buffers && p->owned && slot < p->meta->numTensors; ++slot)
    if (p->owned[slot] && ttrtBufferDestroy(p->buffers[slot], s ? NULL : err))
      s = TTRT_FAILURE;
  if (p->ownsModule && ttrtModuleDestroy(p->module, s ? NULL : err))
    s = TTRT_FAILURE;
  free(p->buffers);
  free(p->functions);
  free(p->dims);
  free(p->values);
  free(p->params);
  free(p->active);
  free(p->owned);
  free(p->declared);
  free(p->onceSlot);
  free(p);
  return s;
}

TtrtBuffer ttrtProgramGetBuffer(TtrtProgram program, int slot) {
  return unwrapProgram(program)->buffers[slot];
}

/* Enqueues the fills with zero bytes of launch i's `zero` lines on the
 * context's stream (so they are ordered with the launches, and captured into
 * a graph with them). */
static TtrtStatus zeroBeforeLaunch(Program *p, int i, TtrtError *err) {
  const TtrtLaunch *l = &p->meta->launches[i];
  CUstream stream = ttrtUnwrapContext(p->ctx)->work;
  for (int k = l->firstZero; k < l->firstZero + l->numZeros; ++k) {
    const TtrtZero *z = &p->meta->zeros[k];
    TtrtBuffer b = p->buffers[z->tensor];
    if (CU(err, memsetD8Async, (CUdeviceptr)b.address, 0, b.bytes, stream)) {
      ttrtErrorPrefix(err, "zeroing %%%lld: ",
                      (long long)p->meta->tensors[z->tensor].id);
      if (err)
        err->line = z->line;
      return TTRT_FAILURE;
    }
  }
  return TTRT_SUCCESS;
}

TtrtStatus ttrtProgramRunLaunch(TtrtProgram program, int i, TtrtError *err) {
  Program *p = unwrapProgram(program);
  const TtrtLaunch *l = &p->meta->launches[i];
  if (p->dirty && prepareLaunches(p, err)) /* buffers bound since: new parameters */
    return TTRT_FAILURE;
  if (!p->active[i]) /* its `when` does not hold at these sizes */
    return TTRT_SUCCESS;
  TtrtLaunchDims d = p->dims[i];
  d.pdl = d.pdl && !p->plain && (p->onceDone || !p->hasOnce); /* see ttrtProgramRun */
  if (zeroBeforeLaunch(p, i, err) ||
      ttrtFunctionLaunch(p->ctx, p->functions[i], &d, p->params + l->firstArg, err))
    return blameLaunch(p->meta, i, err);
  return TTRT_SUCCESS;
}

/* True while the context's work stream is being captured into a graph. */
static bool capturing(Program *p) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  return ttrtDriver.streamIsCapturing &&
         ttrtDriver.streamIsCapturing(ttrtUnwrapContext(p->ctx)->work, &status) == CUDA_SUCCESS &&
         status != CU_STREAM_CAPTURE_STATUS_NONE;
}

TtrtStatus ttrtProgramRun(TtrtProgram program, bool checkEach,
                          TtrtError *err) {
  Program *p = unwrapProgram(program);
  /* A run that runs `once` launches launches every kernel the plain way: a kernel reads
   * their results before its griddepcontrol.wait (--pdl counts them as weights), which
   * is safe only where they were written by an earlier run. */
  for (int i = 0; !p->onceDone && i < p->meta->numLaunches; ++i)
    p->plain = p->plain || p->meta->launches[i].once;
  TtrtStatus s = TTRT_SUCCESS;
  for (int i = 0; s == TTRT_SUCCESS && i < p->meta->numLaunches; ++i) {
    if (p->meta->launches[i].once && p->onceDone)
      continue; /* its results are those of an earlier run, still in its temps */
    s = ttrtProgramRunLaunch(program, i, err); /* blamed on launch i */
    if (s == TTRT_SUCCESS && checkEach && ttrtContextSynchronize(p->ctx, err))
      s = blameLaunch(p->meta, i, err);
  }
  p->plain = false;
  /* recorded into a graph (a caller's stream capture), nothing ran yet: not done */
  p->onceDone = p->onceDone || (s == TTRT_SUCCESS && !capturing(p));
  return s;
}

/* Runs the `once` launches that are due (before a capture leaves them out). */
static TtrtStatus runOnceLaunches(Program *p, TtrtError *err) {
  TtrtStatus s = TTRT_SUCCESS;
  p->plain = true;
  for (int i = 0; s == TTRT_SUCCESS && !p->onceDone && i < p->meta->numLaunches; ++i)
    if (p->meta->launches[i].once)
      s = ttrtProgramRunLaunch((TtrtProgram){p}, i, err);
  p->plain = false;
  p->onceDone = p->onceDone || s == TTRT_SUCCESS;
  return s;
}

/*===------------------------------------------------------------------===*
 * Graphs
 *===------------------------------------------------------------------===*/

typedef struct Graph {
  Context *context;
  CUgraph graph;
  CUgraphExec exec;
} Graph;

TtrtStatus ttrtProgramCaptureGraph(TtrtProgram program, TtrtGraph *out,
                                   TtrtError *err) {
  Program *p = unwrapProgram(program);
  out->ptr = NULL;
  if (!ttrtDriver.streamBeginCapture || !ttrtDriver.streamEndCapture ||
      !ttrtDriver.graphInstantiate || !ttrtDriver.graphLaunch ||
      !ttrtDriver.graphExecDestroy || !ttrtDriver.graphDestroy)
    return ttrtErrorSet(err, 0, "the driver has no CUDA graph functions "
                                "(cuGraphInstantiateWithFlags needs CUDA 11.4)");
  if (runOnceLaunches(p, err))
    return TTRT_FAILURE;
  Graph *g = calloc(1, sizeof *g);
  if (!g)
    return ttrtErrorSet(err, 0, "out of memory");
  g->context = ttrtUnwrapContext(p->ctx);
  CUstream stream = g->context->work;
  if (CU(err, streamBeginCapture, stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)) {
    free(g);
    return TTRT_FAILURE;
  }
  TtrtStatus s = ttrtProgramRun(program, false, err);
  /* end the capture even after a failed launch, so the stream is usable */
  CUgraph graph = NULL;
  TtrtStatus e = CU(s ? NULL : err, streamEndCapture, stream, &graph);
  g->graph = graph;
  if (s == TTRT_SUCCESS && e == TTRT_SUCCESS)
    s = CU(err, graphInstantiate, &g->exec, g->graph, 0);
  else
    s = TTRT_FAILURE;
  if (s != TTRT_SUCCESS) {
    ttrtGraphDestroy((TtrtGraph){g}, NULL);
    return s;
  }
  out->ptr = g;
  return TTRT_SUCCESS;
}

TtrtStatus ttrtGraphLaunch(TtrtGraph graph, TtrtError *err) {
  Graph *g = graph.ptr;
  return CU(err, graphLaunch, g->exec, g->context->work);
}

TtrtStatus ttrtGraphDestroy(TtrtGraph graph, TtrtError *err) {
  Graph *g = graph.ptr;
  TtrtStatus s = TTRT_SUCCESS;
  if (!g)
    return s;
  if (g->exec && CU(err, graphExecDestroy, g->exec))
    s = TTRT_FAILURE;
  if (g->graph && CU(s ? NULL : err, graphDestroy, g->graph))
    s = TTRT_FAILURE;
  free(g);
  return s;
}
