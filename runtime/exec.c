/* exec.c - executables: a tt PTX file loaded once and run on the caller's own
 * buffers (exec.h).
 *
 * Algorithm of a run:
 *   1. Bind (skipped at the last bind's input shapes): forget the last sizes (ttrtMetaClearBindings), then for each input i
 *      check its dtype and rank against its tensor line and bind each dim
 *      (ttrtMetaBindDim: a `?` dim's symbol gets the size, a static dim must
 *      equal it), then resolve (ttrtMetaResolve: the program's rules at these
 *      sizes). Check each output's dtype and shape against the resolved one.
 *   2. Program: the TtrtProgram (program.c) of the current sizes, made with the
 *      executable's module and without input/output buffers
 *      (ttrtProgramCreateExternal); it is kept while the symbols' sizes stay
 *      and made again (new temps, grids and arguments) when they change.
 *   3. Bind the caller's addresses to the input and output slots
 *      (ttrtProgramBindBuffer: parameters are remade only when one changed),
 *      make `stream` the context's work stream, enqueue every launch, and put
 *      the context's own stream back.
 */
#include "exec.h"

#include <stdlib.h>
#include <string.h>

typedef struct Executable {
  TtrtContext ctx;
  TtrtMeta *meta;
  char *ptx;
  TtrtModule module;
  TtrtProgram program;           /* at `sizes`; null before the first run */
  int64_t sizes[TTRT_MAX_SYMBOLS]; /* the symbols' values `program` was made at */
  bool bound;                    /* the last bind succeeded, for `last` */
  TtrtTensorArg *last;           /* the inputs' dtypes and shapes of the last bind */
} Executable;

static Executable *unwrap(TtrtExecutable e) { return e.ptr; }

TtrtStatus ttrtExecutableCreate(TtrtContext ctx, const char *ptx,
                                TtrtExecutable *out, TtrtError *err) {
  out->ptr = NULL;
  Executable *e = calloc(1, sizeof *e);
  size_t n = strlen(ptx);
  char *copy = malloc(n + 1);
  if (!e || !copy) {
    free(e);
    free(copy);
    return ttrtErrorSet(err, 0, "out of memory");
  }
  memcpy(copy, ptx, n + 1);
  e->ctx = ctx;
  e->ptx = copy;
  TtrtStatus s = ttrtMetaParse(copy, n, &e->meta, err);
  if (s == TTRT_SUCCESS &&
      !(e->last = calloc((size_t)e->meta->numInputs + 1, sizeof *e->last)))
    s = ttrtErrorSet(err, 0, "out of memory");
  if (s != TTRT_SUCCESS || ttrtModuleCreate(ctx, copy, &e->module, err)) {
    ttrtExecutableDestroy((TtrtExecutable){e}, NULL);
    return TTRT_FAILURE;
  }
  out->ptr = e;
  return TTRT_SUCCESS;
}

TtrtStatus ttrtExecutableDestroy(TtrtExecutable exe, TtrtError *err) {
  Executable *e = unwrap(exe);
  if (!e)
    return TTRT_SUCCESS;
  TtrtStatus s = ttrtProgramDestroy(e->program, err);
  if (ttrtModuleDestroy(e->module, s ? NULL : err))
    s = TTRT_FAILURE;
  ttrtMetaDestroy(e->meta);
  free(e->last);
  free(e->ptx);
  free(e);
  return s;
}

int ttrtExecutableNumInputs(TtrtExecutable exe) { return unwrap(exe)->meta->numInputs; }

int ttrtExecutableNumOutputs(TtrtExecutable exe) { return unwrap(exe)->meta->numOutputs; }

static void describe(const TtrtTensor *t, const TtrtShape *shape, TtrtTensorArg *out) {
  memset(out, 0, sizeof *out);
  out->dtype = t->dtype;
  out->rank = shape->rank;
  for (int d = 0; d < shape->rank; ++d)
    out->shape[d] = shape->dims[d] < 0 ? -1 : shape->dims[d];
}

void ttrtExecutableGetInput(TtrtExecutable exe, int i, TtrtTensorArg *out) {
  const TtrtMeta *m = unwrap(exe)->meta;
  const TtrtTensor *t = &m->tensors[m->inputs[i]];
  describe(t, &t->declared, out);
}

void ttrtExecutableGetOutput(TtrtExecutable exe, int i, TtrtTensorArg *out) {
  const TtrtMeta *m = unwrap(exe)->meta;
  const TtrtTensor *t = &m->tensors[m->outputs[i]];
  describe(t, m->resolved ? &t->shape : &t->declared, out);
}

/* "bf16 16x4096" of a dtype and shape, for messages. */
static void format(TtrtDtype dtype, int rank, const int64_t *dims, char *buf, size_t n) {
  TtrtShape s = {.rank = rank};
  for (int d = 0; d < rank && d < TTRT_MAX_RANK; ++d)
    s.dims[d] = dims[d];
  char shape[256];
  ttrtShapeFormat(&s, shape, sizeof shape);
  snprintf(buf, n, "%s %s", ttrtDtypeGetName(dtype), shape);
}

/* Whether in[0..n) have the dtypes and shapes of the last successful bind. */
static bool sameAsLast(const Executable *e, const TtrtTensorArg *in, int n) {
  if (!e->bound || n != e->meta->numInputs)
    return false;
  for (int i = 0; i < n; ++i) {
    const TtrtTensorArg *a = &in[i], *b = &e->last[i];
    if (a->dtype != b->dtype || a->rank != b->rank || a->rank < 0 || a->rank > TTRT_MAX_RANK ||
        memcmp(a->shape, b->shape, sizeof(int64_t) * (size_t)a->rank) != 0)
      return false;
  }
  return true;
}

/* Step 1 for the inputs (nothing to do at the last bind's shapes: a caller that binds to
 * learn the outputs' shapes, then runs, binds once). */
static TtrtStatus bind(Executable *e, const TtrtTensorArg *in, int n, TtrtError *err) {
  TtrtMeta *m = e->meta;
  if (sameAsLast(e, in, n))
    return TTRT_SUCCESS;
  e->bound = false;
  if (n != m->numInputs)
    return ttrtErrorSet(err, 0, "the program takes %d inputs, not %d", m->numInputs, n);
  ttrtMetaClearBindings(m);
  for (int i = 0; i < n; ++i) {
    const TtrtTensor *t = &m->tensors[m->inputs[i]];
    char want[320], got[320];
    ttrtMetaFormatScaledShape(m, &t->declared, t->scale, want, sizeof want);
    if (in[i].rank < 0 || in[i].rank > TTRT_MAX_RANK || in[i].dtype != t->dtype ||
        in[i].rank != t->declared.rank) {
      format(in[i].dtype, in[i].rank < 0 ? 0 : in[i].rank, in[i].shape, got, sizeof got);
      return ttrtErrorSet(err, t->line, "input %d is %s; the program takes %s %s", i, got,
                          ttrtDtypeGetName(t->dtype), want);
    }
    for (int d = 0; d < in[i].rank; ++d)
      if (ttrtMetaBindDim(m, t->id, d, in[i].shape[d], err)) {
        ttrtErrorPrefix(err, "input %d: ", i);
        return TTRT_FAILURE;
      }
  }
  if (ttrtMetaResolve(m, err))
    return TTRT_FAILURE;
  for (int i = 0; i < n; ++i)
    e->last[i] = in[i];
  e->bound = true;
  return TTRT_SUCCESS;
}

TtrtStatus ttrtExecutableBind(TtrtExecutable exe, const TtrtTensorArg *inputs,
                              int numInputs, TtrtError *err) {
  return bind(unwrap(exe), inputs, numInputs, err);
}

/* Step 1 for the outputs. */
static TtrtStatus checkOutputs(Executable *e, const TtrtTensorArg *out, int n,
                               TtrtError *err) {
  const TtrtMeta *m = e->meta;
  if (n != m->numOutputs)
    return ttrtErrorSet(err, 0, "the program gives %d outputs, not %d", m->numOutputs, n);
  for (int i = 0; i < n; ++i) {
    const TtrtTensor *t = &m->tensors[m->outputs[i]];
    bool ok = out[i].dtype == t->dtype && out[i].rank == t->shape.rank;
    for (int d = 0; ok && d < out[i].rank; ++d)
      ok = out[i].shape[d] == t->shape.dims[d];
    if (!ok) {
      char want[320], got[320];
      format(out[i].dtype, out[i].rank < 0 || out[i].rank > TTRT_MAX_RANK ? 0 : out[i].rank,
             out[i].shape, got, sizeof got);
      format(t->dtype, t->shape.rank, t->shape.dims, want, sizeof want);
      return ttrtErrorSet(err, t->line, "output %d is %s; at these sizes the program gives %s",
                          i, got, want);
    }
  }
  return TTRT_SUCCESS;
}

/* Step 2: the program of the current sizes. */
static TtrtStatus programAtSizes(Executable *e, TtrtError *err) {
  const TtrtMeta *m = e->meta;
  bool same = !ttrtProgramIsNull(e->program);
  for (int k = 0; same && k < m->numSymbols; ++k)
    same = e->sizes[k] == m->symbols[k].value;
  if (same)
    return TTRT_SUCCESS;
  TtrtStatus s = ttrtProgramDestroy(e->program, err);
  e->program = (TtrtProgram){NULL};
  if (s == TTRT_SUCCESS)
    s = ttrtProgramCreateExternal(e->ctx, m, e->ptx, e->module, &e->program, err);
  for (int k = 0; s == TTRT_SUCCESS && k < m->numSymbols; ++k)
    e->sizes[k] = m->symbols[k].value;
  return s;
}

/* Step 3's binding of one tensor's memory. */
static TtrtStatus bindMemory(Executable *e, int slot, const TtrtTensorArg *a,
                             TtrtError *err) {
  const TtrtTensor *t = &e->meta->tensors[slot];
  TtrtBuffer b = {a->address,
                  (size_t)ttrtShapeGetNumel(&t->shape) * ttrtDtypeGetSize(t->dtype)};
  return ttrtProgramBindBuffer(e->program, slot, b, err);
}

TtrtStatus ttrtExecutableRun(TtrtExecutable exe, const TtrtTensorArg *inputs,
                             int numInputs, const TtrtTensorArg *outputs,
                             int numOutputs, void *stream, TtrtError *err) {
  Executable *e = unwrap(exe);
  if (bind(e, inputs, numInputs, err) || checkOutputs(e, outputs, numOutputs, err) ||
      programAtSizes(e, err))
    return TTRT_FAILURE;
  for (int i = 0; i < numInputs; ++i)
    if (bindMemory(e, e->meta->inputs[i], &inputs[i], err))
      return TTRT_FAILURE;
  for (int i = 0; i < numOutputs; ++i)
    if (bindMemory(e, e->meta->outputs[i], &outputs[i], err))
      return TTRT_FAILURE;
  ttrtContextSetStream(e->ctx, stream);
  TtrtStatus s = ttrtProgramRun(e->program, false, err);
  ttrtContextSetStream(e->ctx, NULL);
  return s;
}

void ttrtExecutableRefresh(TtrtExecutable exe) {
  Executable *e = unwrap(exe);
  if (!ttrtProgramIsNull(e->program))
    ttrtProgramRefresh(e->program);
}
