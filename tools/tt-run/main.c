/* tt-run - runs a tt PTX file on the GPU and checks it against the float64
 * reference.
 *
 * Reads the launch metadata (docs/metadata.md) of FILE.ptx, makes seeded
 * random inputs rounded to their dtypes, runs the launches, compares every
 * output with the reference interpreter's value of the prim program, and
 * times the launch sequence with CUDA events. `--ref-only` evaluates only the
 * reference (no GPU needed) and prints checksums. See docs/tt-run.md.
 *
 * With --inputs the inputs come from a NumPy archive (their shapes bind the `?` dims),
 * with --expected the outputs are checked against given arrays instead of the
 * reference, and --save-outputs writes them to an archive.
 *
 * Files: main.c (this: reading and checking the file, inputs, the reference, the GPU
 * runs, timing), options.c (the command line and the usage text, behind options.h),
 * archives.c (--inputs, --expected, --save-outputs), npz.c (NumPy .npz archives,
 * behind npz.h); session.h holds what they share.
 */
#define _POSIX_C_SOURCE 200809L
#include "session.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


/*===------------------------------------------------------------------===*
 * Messages
 *===------------------------------------------------------------------===*/

/* Prints "tt-run: FILE[:LINE]: message" for err; returns EXIT_FAIL. */
int reportError(const Session *s, const TtrtError *err) {
  if (err->line > 0)
    fprintf(stderr, "tt-run: %s:%d: %s\n", s->opt->file, err->line,
            err->message);
  else
    fprintf(stderr, "tt-run: %s: %s\n", s->opt->file, err->message);
  return EXIT_FAIL;
}

/*===------------------------------------------------------------------===*
 * Reading and checking the file
 *===------------------------------------------------------------------===*/

/* Reads the whole file into s->text (NUL-terminated, for the JIT). */
static int readFile(Session *s) {
  FILE *f = fopen(s->opt->file, "rb");
  if (!f) {
    fprintf(stderr, "tt-run: cannot open %s: %s\n", s->opt->file,
            strerror(errno));
    return EXIT_FAIL;
  }
  size_t cap = 0;
  bool oom = false;
  for (;;) {
    if (s->length + 1 >= cap) {
      cap = cap ? 2 * cap : 1 << 16;
      char *grown = realloc(s->text, cap);
      if (!grown) {
        oom = true;
        break;
      }
      s->text = grown;
    }
    size_t n = fread(s->text + s->length, 1, cap - s->length - 1, f);
    if (n == 0)
      break;
    s->length += n;
  }
  bool bad = oom || ferror(f);
  fclose(f);
  if (bad) {
    fprintf(stderr, "tt-run: cannot read %s: %s\n", s->opt->file,
            oom ? "out of memory" : "read error");
    return EXIT_FAIL;
  }
  s->text[s->length] = '\0';
  return EXIT_PASS;
}

/* Binds the symbolic sizes given with --dim (`%ID:DIM=N` or `NAME=N`), then
 * resolves the shapes (meta.h): every symbol must have a size. */
static int bindDims(Session *s) {
  TtrtError err;
  for (int i = 0; i < s->opt->numDims; ++i) {
    const char *spec = s->opt->dims[i], *eq = strrchr(spec, '=');
    char *end;
    long long size = eq ? strtoll(eq + 1, &end, 10) : 0;
    if (!eq || eq[1] == '\0' || *end || size < 1 || size > INT32_MAX) {
      fprintf(stderr, "tt-run: bad --dim '%s' (expected %%ID:DIM=N or NAME=N, N from 1 "
                      "to %d)\n", spec, INT32_MAX);
      return EXIT_USAGE;
    }
    TtrtStatus st;
    if (spec[0] == '%') {
      long long id = strtoll(spec + 1, &end, 10), dim = -1;
      if (end != spec + 1 && *end == ':') {
        const char *d = end + 1;
        dim = strtoll(d, &end, 10);
        if (end == d || end != eq)
          dim = -1;
      }
      if (dim < 0 || dim >= TTRT_MAX_RANK) {
        fprintf(stderr, "tt-run: bad --dim '%s' (expected %%ID:DIM=N)\n", spec);
        return EXIT_USAGE;
      }
      st = ttrtMetaBindDim(s->meta, id, (int)dim, size, &err);
    } else {
      char name[64];
      snprintf(name, sizeof name, "%.*s", (int)(eq - spec), spec);
      st = ttrtMetaBindSymbol(s->meta, name, size, &err);
    }
    if (st) {
      ttrtErrorPrefix(&err, "--dim %s: ", spec);
      return reportError(s, &err);
    }
  }
  if (!s->meta->resolved && ttrtMetaResolve(s->meta, &err)) {
    if (strstr(err.message, "is not given"))
      ttrtErrorPrefix(&err, "give each symbolic size with --dim: ");
    return reportError(s, &err);
  }
  return EXIT_PASS;
}

/* Refuses tensors of 2^31 or more elements: kernels index in i32. */
static int checkSizes(const Session *s) {
  for (int i = 0; i < s->meta->numTensors; ++i) {
    const TtrtTensor *t = &s->meta->tensors[i];
    int64_t numel = ttrtShapeGetNumel(&t->shape);
    if (numel > INT32_MAX) {
      TtrtError err;
      ttrtErrorSet(&err, t->line,
                   "tensor %%%lld has %lld elements; tt kernels index in "
                   "i32, so at most %d are allowed",
                   (long long)t->id, (long long)numel, INT32_MAX);
      return reportError(s, &err);
    }
  }
  return EXIT_PASS;
}

/* Whether PTX for `arch` (sm_90a, sm_100f, sm_80) runs on compute
 * capability `cc` (90 for 9.0). Unknown spellings are left to the JIT. */
static bool archRunsOn(const char *arch, int cc) {
  int n = 0, used = 0;
  if (sscanf(arch, "sm_%d%n", &n, &used) != 1)
    return true;
  const char *suffix = arch + used;
  if (strcmp(suffix, "a") == 0)
    return cc == n;
  if (strcmp(suffix, "f") == 0)
    return cc / 10 == n / 10 && cc >= n;
  return *suffix != '\0' || cc >= n;
}

/*===------------------------------------------------------------------===*
 * Inputs
 *===------------------------------------------------------------------===*/

/* splitmix64: number i (from 0) of the stream `state`. The stream is a counter
 * (state + (i + 1) * golden ratio, mixed), so elements are made independently and in
 * parallel, with the same values as one after the other. */
static uint64_t randomAt(uint64_t state, uint64_t i) {
  uint64_t z = state + (i + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* A uniform double in [0, 1): number i of the stream. */
static double uniformAt(uint64_t state, uint64_t i) {
  return (double)(randomAt(state, i) >> 11) * 0x1.0p-53;
}

/* The integers an input of `dtype` draws from: [lo, hi] within the dtype's
 * range. False if there are none. */
static bool integerRange(const Options *o, TtrtDtype dtype, double *lo,
                         double *hi) {
  double min = dtype == TTRT_DTYPE_I8 ? -128 : -9007199254740992.0;
  double max = dtype == TTRT_DTYPE_I8 ? 127 : 9007199254740992.0;
  if (dtype == TTRT_DTYPE_I32) {
    min = INT32_MIN;
    max = INT32_MAX;
  }
  *lo = fmax(ceil(o->lo), min);
  *hi = fmin(floor(o->hi), max);
  return *lo <= *hi;
}

/* Fills the values of input `index` (its own stream of the seed); an index
 * of index_select or gather (bound > 0) is uniform in [0, bound). */
static void makeInput(const Options *o, const TtrtTensor *t, int index,
                      int64_t bound, double *v) {
  uint64_t state = o->seed ^ randomAt((uint64_t)index + 1, 0); /* a stream per input */
  int64_t n = ttrtShapeGetNumel(&t->shape);
  double lo = 0, hi = 0;
  bool integer = !ttrtDtypeIsFloat(t->dtype) && t->dtype != TTRT_DTYPE_I1;
  if (integer)
    integerRange(o, t->dtype, &lo, &hi);
  if (integer && bound > 0) {
    lo = 0;
    hi = (double)(bound - 1);
  }
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    double u = uniformAt(state, (uint64_t)i);
    if (t->dtype == TTRT_DTYPE_I1)
      v[i] = u < 0.5 ? 0 : 1;
    else if (integer)
      v[i] = fmin(lo + floor(u * (hi - lo + 1)), hi);
    else
      v[i] = ttrtDtypeRound(t->dtype, o->lo + (o->hi - o->lo) * u);
  }
}

/* Makes every input, rounded to its dtype, into s->values. */
static int makeInputs(Session *s) {
  for (int i = 0; i < s->meta->numInputs; ++i) {
    int slot = s->meta->inputs[i];
    const TtrtTensor *t = &s->meta->tensors[slot];
    double lo, hi;
    bool integer = !ttrtDtypeIsFloat(t->dtype) && t->dtype != TTRT_DTYPE_I1;
    int64_t bound = integer ? ttrtRefIndexBound(s->meta, slot) : -1;
    if (!s->opt->inputs && integer && bound < 0 && !integerRange(s->opt, t->dtype, &lo, &hi)) {
      fprintf(stderr, "tt-run: --range %g,%g holds no %s value for input "
                      "%%%lld\n",
              s->opt->lo, s->opt->hi, ttrtDtypeGetName(t->dtype),
              (long long)t->id);
      return EXIT_USAGE;
    }
    s->values[slot] = malloc((size_t)ttrtShapeGetNumel(&t->shape) *
                             sizeof(double));
    if (!s->values[slot]) {
      fprintf(stderr, "tt-run: out of memory for input %%%lld\n",
              (long long)t->id);
      return EXIT_FAIL;
    }
    if (s->opt->inputs) {
      if (givenInput(s, i, s->values[slot]))
        return EXIT_FAIL;
    } else {
      makeInput(s->opt, t, i, bound, s->values[slot]);
    }
  }
  return EXIT_PASS;
}

/*===------------------------------------------------------------------===*
 * Reporting
 *===------------------------------------------------------------------===*/

/* Prints "%ID DTYPE SHAPE" of a tensor (no newline). */
static void printTensor(const TtrtTensor *t) {
  char shape[256];
  ttrtShapeFormat(&t->shape, shape, sizeof shape);
  printf("%%%lld %s %s", (long long)t->id, ttrtDtypeGetName(t->dtype), shape);
}

/* Prints sum, l2, min and max of a tensor's values (for --ref-only). NaNs
 * make the sum and l2 NaN; min and max skip them (NaN if all are NaN). */
static void printChecksum(const char *what, const TtrtTensor *t,
                          const double *v) {
  size_t n = (size_t)ttrtShapeGetNumel(&t->shape);
  double sum = 0, sq = 0, min = NAN, max = NAN;
  for (size_t i = 0; i < n; ++i) {
    sum += v[i];
    sq += v[i] * v[i];
    min = fmin(min, v[i]);
    max = fmax(max, v[i]);
  }
  printf("%s ", what);
  printTensor(t);
  printf(": sum %.12g l2 %.12g min %.12g max %.12g\n", sum, sqrt(sq), min,
         max);
}

/* Prints "LABEL %ID: v0 v1 ..." with every element (--print-values). */
static void printValues(const char *label, const TtrtTensor *t,
                        const double *v) {
  size_t n = (size_t)ttrtShapeGetNumel(&t->shape);
  printf("%s %%%lld:", label, (long long)t->id);
  for (size_t i = 0; i < n; ++i)
    printf(" %.12g", v[i]);
  printf("\n");
}

/* Prints the values of every input, and of every output from `outputs`
 * (and from the reference if `reference` is not NULL). */
static void printAllValues(const Session *s, double *const *outputs,
                           double *const *reference) {
  const TtrtMeta *m = s->meta;
  for (int i = 0; i < m->numInputs; ++i)
    printValues("values", &m->tensors[m->inputs[i]], s->values[m->inputs[i]]);
  for (int i = 0; i < m->numOutputs; ++i) {
    int slot = m->outputs[i];
    printValues("values", &m->tensors[slot], outputs[slot]);
    if (reference)
      printValues("reference", &m->tensors[slot], reference[slot]);
  }
}

/* The default tolerance on rel_l2 for outputs of `dtype`. */
static double defaultTolerance(TtrtDtype dtype) {
  switch (dtype) {
  case TTRT_DTYPE_F64:
    return 1e-12;
  case TTRT_DTYPE_F32:
    return 1e-5;
  case TTRT_DTYPE_F16:
    return 2e-3;
  case TTRT_DTYPE_BF16:
    return 1e-2;
  case TTRT_DTYPE_F8E4M3:
  case TTRT_DTYPE_F8E5M2:
    return 1e-1;
  default:
    return 0;
  }
}

/* The default tolerance of output `slot`: the loosest over the dtypes of the tensors it
 * depends on that carry rounding error (itself and, through the prim lines, what it is
 * computed from). A program that rounds to bf16 on the way (a `convert`) carries bf16's
 * error into an f32 output: the kernel's f32 math and the exact reference may round a
 * value to neighbouring bf16s. Inputs are exact (made in their dtype, the reference
 * reads the same values), and so is what transpose, reshape and broadcast_in_dim move
 * from exact tensors: an fp8 GEMM with an f16 output is held to f16's tolerance, against
 * a reference computed from the fp8-rounded inputs. Tensors the output does not depend
 * on do not loosen it. */
static double outputTolerance(const TtrtMeta *m, int slot) {
  bool *dep = calloc((size_t)m->numTensors * 2, sizeof(bool));
  if (!dep)
    return defaultTolerance(m->tensors[slot].dtype);
  bool *exact = dep + m->numTensors;
  for (int i = 0; i < m->numInputs; i++)
    exact[m->inputs[i]] = true;
  for (int i = 0; i < m->numPrims; i++) { /* prims are in program order */
    const TtrtPrim *p = &m->prims[i];
    bool moves = p->op == TTRT_OP_TRANSPOSE || p->op == TTRT_OP_RESHAPE ||
                 p->op == TTRT_OP_BROADCAST_IN_DIM;
    if (moves && p->result >= 0 && p->result < m->numTensors && p->numOperands == 1 &&
        p->operands[0] >= 0 && p->operands[0] < m->numTensors)
      exact[p->result] = exact[p->operands[0]];
  }
  dep[slot] = true;
  for (int i = m->numPrims - 1; i >= 0; i--) {
    const TtrtPrim *p = &m->prims[i];
    if (p->result >= 0 && p->result < m->numTensors && dep[p->result])
      for (int k = 0; k < p->numOperands; k++)
        if (p->operands[k] >= 0 && p->operands[k] < m->numTensors)
          dep[p->operands[k]] = true;
  }
  double tol = defaultTolerance(m->tensors[slot].dtype);
  for (int i = 0; i < m->numTensors; i++) {
    double t = defaultTolerance(m->tensors[i].dtype);
    if (dep[i] && !exact[i] && t > tol)
      tol = t;
  }
  free(dep);
  return tol;
}

/* Compares output `slot` with the reference, prints its line, and returns
 * whether it passed. */
static bool checkOutput(const Session *s, int slot, const double *got) {
  const TtrtTensor *t = &s->meta->tensors[slot];
  TtrtComparison c;
  ttrtRefCompare(got, s->want ? s->want[slot] : s->values[slot],
                 (size_t)ttrtShapeGetNumel(&t->shape), &c);
  double tol = s->opt->tol >= 0 ? s->opt->tol : outputTolerance(s->meta, slot);
  bool pass = c.nonfinite == 0 && c.relL2 <= tol;
  printf("output ");
  printTensor(t);
  printf(": %s %.1e max_abs %.1e nonfinite %lld tol %.1e %s\n",
         c.absolute ? "abs_l2" : "rel_l2", c.relL2, c.maxAbs,
         (long long)c.nonfinite, tol, pass ? "PASS" : "FAIL");
  return pass;
}

/*===------------------------------------------------------------------===*
 * The GPU run
 *===------------------------------------------------------------------===*/

/* Bytes of a tensor's buffer. */
static size_t tensorBytes(const TtrtTensor *t) {
  return (size_t)ttrtShapeGetNumel(&t->shape) * ttrtDtypeGetSize(t->dtype);
}

/* The value of const tensor `slot` (from its defining constant line); its
 * buffer holds it rounded to the tensor's dtype. */
static double constantValue(const TtrtMeta *meta, int slot) {
  for (int i = 0; i < meta->numPrims; ++i)
    if (meta->prims[i].result == slot)
      return meta->prims[i].value;
  return 0; /* unreachable: the parser requires a definition */
}

/* Packs `values` (numel of them; NULL: every element is `fill`) into the
 * tensor's dtype and copies them to its buffer. */
static TtrtStatus upload(const Session *s, TtrtProgram program, int slot,
                         const double *values, double fill, TtrtError *err) {
  const TtrtTensor *t = &s->meta->tensors[slot];
  size_t n = (size_t)ttrtShapeGetNumel(&t->shape);
  unsigned char *bytes = malloc(tensorBytes(t));
  if (!bytes)
    return ttrtErrorSet(err, t->line, "out of memory");
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < (int64_t)n; ++i)
    ttrtDtypePack(t->dtype, values ? &values[i] : &fill, 1,
                  bytes + (size_t)i * ttrtDtypeGetSize(t->dtype));
  TtrtStatus st = ttrtBufferWrite(ttrtProgramGetBuffer(program, slot), bytes, err);
  free(bytes);
  return st;
}

/* Uploads inputs and constants to `program`'s buffers, fills the outputs with 0xFF bytes
 * (NaN in every float dtype) so unwritten outputs show, and the temps with zero bytes, as
 * the runtime allocates them (split-K's arrival counters start at zero). */
static TtrtStatus prepareProgram(const Session *s, TtrtProgram program, TtrtError *err) {
  ttrtProgramRefresh(program); /* its temps are overwritten: `once` launches are due */
  for (int slot = 0; slot < s->meta->numTensors; ++slot) {
    TtrtBuffer b = ttrtProgramGetBuffer(program, slot);
    TtrtRole role = s->meta->tensors[slot].role;
    TtrtStatus st = TTRT_SUCCESS;
    if (ttrtBufferIsNull(b))
      continue;
    if (role == TTRT_ROLE_INPUT)
      st = upload(s, program, slot, s->values[slot], 0, err);
    else if (role == TTRT_ROLE_CONST)
      st = upload(s, program, slot, NULL, constantValue(s->meta, slot), err);
    else
      st = ttrtBufferFill(b, role == TTRT_ROLE_TEMP ? 0 : 0xFF, err);
    if (st != TTRT_SUCCESS) {
      ttrtErrorPrefix(err, "preparing %%%lld: ",
                      (long long)s->meta->tensors[slot].id);
      return st;
    }
  }
  return TTRT_SUCCESS;
}

/* prepareProgram for the session's program. */
static TtrtStatus prepareBuffers(const Session *s, TtrtError *err) {
  return prepareProgram(s, s->program, err);
}

/* Reads every output back into s->device. */
static TtrtStatus downloadOutputs(Session *s, TtrtError *err) {
  for (int i = 0; i < s->meta->numOutputs; ++i) {
    int slot = s->meta->outputs[i];
    const TtrtTensor *t = &s->meta->tensors[slot];
    size_t n = (size_t)ttrtShapeGetNumel(&t->shape);
    unsigned char *bytes = malloc(tensorBytes(t));
    free(s->device[slot]); /* from an earlier read back */
    s->device[slot] = malloc(n * sizeof(double));
    if (!bytes || !s->device[slot]) {
      free(bytes);
      return ttrtErrorSet(err, t->line, "out of memory");
    }
    TtrtStatus st = ttrtBufferRead(ttrtProgramGetBuffer(s->program, slot),
                                   bytes, err);
    if (st == TTRT_SUCCESS)
      ttrtDtypeUnpack(t->dtype, bytes, n, s->device[slot]);
    free(bytes);
    if (st != TTRT_SUCCESS)
      return st;
  }
  return TTRT_SUCCESS;
}

/* qsort comparison of floats. */
static int compareFloats(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

/* What one timed run enqueues: the launch sequence, a replay of its graph,
 * or launch i (>= 0) alone. */
enum { RUN_SEQUENCE = -1, RUN_GRAPH = -2 };

static TtrtStatus runOnce(const Session *s, int what, TtrtError *err) {
  if (what == RUN_SEQUENCE)
    return ttrtProgramRun(s->program, false, err);
  if (what == RUN_GRAPH)
    return ttrtGraphLaunch(s->graph, err);
  return ttrtProgramRunLaunch(s->program, what, err);
}

/* --cold: N more programs of the same file, each with its own buffers holding the same
 * inputs (as N layers of a model, each with its own weights), prepared once. */
static TtrtStatus makeColdPrograms(Session *s, TtrtError *err) {
  long n = s->opt->cold;
  s->coldPrograms = calloc((size_t)n + 1, sizeof *s->coldPrograms);
  if (!s->coldPrograms)
    return ttrtErrorSet(err, 0, "out of memory");
  for (long c = 0; c < n; ++c)
    if (ttrtProgramCreate(s->ctx, s->meta, s->text, &s->coldPrograms[c], err) ||
        prepareProgram(s, s->coldPrograms[c], err) || /* and its `once` launches, as a */
        ttrtProgramRun(s->coldPrograms[c], false, err)) /* model's load would */
      return TTRT_FAILURE;
  return TTRT_SUCCESS;
}

/* One run of `what`, number r of a timing loop: with --cold, a sequence run is program
 * r % N's. */
static TtrtStatus runAt(const Session *s, int what, long r, TtrtError *err) {
  if (s->coldPrograms && what == RUN_SEQUENCE)
    return ttrtProgramRun(s->coldPrograms[r % s->opt->cold], false, err);
  return runOnce(s, what, err);
}

/* Enqueues `runs` timed runs of `what` between event pairs, back to back,
 * then reads the times (ms) into `ms`; with --batch, all runs between the
 * first pair, and each time is their mean. */
static TtrtStatus timedRuns(const Session *s, int what, TtrtEvent *events,
                            float *ms, TtrtError *err) {
  long runs = s->opt->runs;
  if (s->opt->batch) {
    if (ttrtEventRecord(events[0], s->ctx, err))
      return TTRT_FAILURE;
    for (long i = 0; i < runs; ++i)
      if (runAt(s, what, i, err))
        return TTRT_FAILURE;
    float total;
    if (ttrtEventRecord(events[1], s->ctx, err) ||
        ttrtEventElapsedMs(events[0], events[1], &total, err))
      return TTRT_FAILURE;
    for (long i = 0; i < runs; ++i)
      ms[i] = total / (float)runs;
    return TTRT_SUCCESS;
  }
  for (long i = 0; i < runs; ++i)
    if (ttrtEventRecord(events[2 * i], s->ctx, err) ||
        runAt(s, what, i, err) ||
        ttrtEventRecord(events[2 * i + 1], s->ctx, err))
      return TTRT_FAILURE;
  for (long i = 0; i < runs; ++i)
    if (ttrtEventElapsedMs(events[2 * i], events[2 * i + 1], &ms[i], err))
      return TTRT_FAILURE;
  return TTRT_SUCCESS;
}

/* Warm-up runs, then timed runs of `what`: the median and minimum in ms. */
static TtrtStatus timeRuns(const Session *s, int what, double *median,
                           double *min, TtrtError *err) {
  long runs = s->opt->runs;
  TtrtEvent *events = calloc((size_t)(2 * runs), sizeof *events);
  float *ms = calloc((size_t)runs, sizeof *ms);
  TtrtStatus st = events && ms ? TTRT_SUCCESS
                               : ttrtErrorSet(err, 0, "out of memory");
  for (long i = 0; st == TTRT_SUCCESS && i < 2 * runs; ++i)
    st = ttrtEventCreate(s->ctx, &events[i], err);
  for (long i = 0; st == TTRT_SUCCESS && i < s->opt->warmup; ++i)
    st = runAt(s, what, i, err);
  if (st == TTRT_SUCCESS)
    st = timedRuns(s, what, events, ms, err);
  for (long i = 0; events && i < 2 * runs; ++i)
    if (!ttrtEventIsNull(events[i]) && ttrtEventDestroy(events[i], st ? NULL : err))
      st = TTRT_FAILURE;
  if (st == TTRT_SUCCESS) {
    qsort(ms, (size_t)runs, sizeof *ms, compareFloats);
    *median = runs % 2 ? ms[runs / 2]
                       : 0.5 * ((double)ms[runs / 2 - 1] + ms[runs / 2]);
    *min = ms[0];
  }
  free(events);
  free(ms);
  return st;
}

/* With --graph: times each launch alone (each between its own events, so
 * each includes an event pair's overhead) and graph replays, and prints the
 * launch gap the graph removes: (sequence on the stream - graph replay) / the
 * number of launches. */
static TtrtStatus timeGraph(const Session *s, double sequence, TtrtError *err) {
  double alone = 0, median, min;
  int n = s->meta->numLaunches;
  printf("launches %d alone:", n);
  for (int i = 0; i < n; ++i) {
    if (timeRuns(s, i, &median, &min, err))
      return TTRT_FAILURE;
    alone += median;
    printf(" %s%.1f", i ? "+ " : "", median * 1e3);
  }
  printf(" = %.1f us\n", alone * 1e3);
  if (timeRuns(s, RUN_GRAPH, &median, &min, err))
    return TTRT_FAILURE;
  printf("time graph median %.1f us min %.1f us\n", median * 1e3, min * 1e3);
  printf("launch gap: the graph saves %.2f us per launch (per launch: stream "
         "%.2f us, graph %.2f us)\n",
         (sequence - median) * 1e3 / n, sequence * 1e3 / n, median * 1e3 / n);
  return TTRT_SUCCESS;
}

/* Times the launch sequence and prints the `time` line (with --graph, also
 * the graph's and the launch gap). */
static TtrtStatus timeProgram(Session *s, TtrtError *err) {
  double median, min;
  if ((s->opt->cold && makeColdPrograms(s, err)) ||
      timeRuns(s, RUN_SEQUENCE, &median, &min, err))
    return TTRT_FAILURE;
  if (s->opt->cold)
    printf("cold: %ld copies of the program and its inputs, run in turn\n", s->opt->cold);
  uint64_t bytes = 0;
  for (int i = 0; i < s->meta->numTensors; ++i) {
    TtrtRole role = s->meta->tensors[i].role;
    if (role == TTRT_ROLE_INPUT || role == TTRT_ROLE_OUTPUT)
      bytes += tensorBytes(&s->meta->tensors[i]);
  }
  printf("time median %.1f us min %.1f us  %.1f GB/s (%llu bytes)\n",
         median * 1e3, min * 1e3, (double)bytes / (median * 1e-3) / 1e9,
         (unsigned long long)bytes);
  return s->opt->graph ? timeGraph(s, median, err) : TTRT_SUCCESS;
}

/* With --graph: prepares the buffers afresh, captures the sequence (the `once`
 * launches run before it, not in it), replays it once and checks the outputs again; returns the number of failures, or
 * -1 after printing an error. */
static int checkGraph(Session *s) {
  TtrtError err = {0, ""};
  if (prepareBuffers(s, &err) || ttrtProgramCaptureGraph(s->program, &s->graph, &err) ||
      ttrtGraphLaunch(s->graph, &err) ||
      ttrtContextSynchronize(s->ctx, &err) || downloadOutputs(s, &err)) {
    reportError(s, &err);
    return -1;
  }
  printf("graph replay of %d launches:\n", s->meta->numLaunches);
  int failed = 0;
  for (int i = 0; !s->opt->noCheck && i < s->meta->numOutputs; ++i)
    failed += !checkOutput(s, s->meta->outputs[i], s->device[s->meta->outputs[i]]);
  return failed;
}

/* With --repeat N: runs the launches N more times on freshly prepared buffers and
 * compares every output bit for bit with the first run's (in s->device); returns the
 * number of runs that differ, or -1 after printing an error. */
static int checkRepeat(Session *s) {
  TtrtError err = {0, ""};
  int n = s->meta->numOutputs, differ = 0;
  double **first = calloc((size_t)n + 1, sizeof *first);
  if (!first) {
    fprintf(stderr, "tt-run: out of memory\n");
    return -1;
  }
  for (int i = 0; i < n; ++i) { /* keep the first run's values */
    first[i] = s->device[s->meta->outputs[i]];
    s->device[s->meta->outputs[i]] = NULL;
  }
  for (long r = 0; r < s->opt->repeat && differ >= 0; ++r) {
    if (prepareBuffers(s, &err) || ttrtProgramRun(s->program, true, &err) ||
        ttrtContextSynchronize(s->ctx, &err) || downloadOutputs(s, &err)) {
      reportError(s, &err);
      differ = -1;
      break;
    }
    bool same = true;
    for (int i = 0; i < n; ++i) {
      const TtrtTensor *t = &s->meta->tensors[s->meta->outputs[i]];
      size_t bytes = (size_t)ttrtShapeGetNumel(&t->shape) * sizeof(double);
      same = same && memcmp(first[i], s->device[s->meta->outputs[i]], bytes) == 0;
    }
    differ += !same;
  }
  for (int i = 0; i < n; ++i) {
    free(s->device[s->meta->outputs[i]]);
    s->device[s->meta->outputs[i]] = first[i];
  }
  free(first);
  if (differ >= 0)
    printf("repeat: %ld of %ld runs bit-identical to the first\n",
           s->opt->repeat - differ, s->opt->repeat);
  return differ;
}

/* For a program with `once` launches (format 9): runs the sequence again as a model's
 * next call does, the `once` launches skipped (their temps kept from the first run),
 * on outputs filled with NaN, and checks the outputs again; returns the number of
 * failures (0 with no `once` launch), or -1 after printing an error. */
static int checkSteady(Session *s) {
  int once = 0;
  for (int i = 0; i < s->meta->numLaunches; ++i)
    once += s->meta->launches[i].once;
  if (!once)
    return 0;
  TtrtError err = {0, ""};
  TtrtStatus st = TTRT_SUCCESS;
  for (int i = 0; st == TTRT_SUCCESS && i < s->meta->numOutputs; ++i)
    st = ttrtBufferFill(ttrtProgramGetBuffer(s->program, s->meta->outputs[i]), 0xFF, &err);
  if (st || ttrtProgramRun(s->program, true, &err) || ttrtContextSynchronize(s->ctx, &err) ||
      downloadOutputs(s, &err)) {
    reportError(s, &err);
    return -1;
  }
  printf("steady run (%d once launches skipped):\n", once);
  int failed = 0;
  for (int i = 0; !s->opt->noCheck && i < s->meta->numOutputs; ++i)
    failed += !checkOutput(s, s->meta->outputs[i], s->device[s->meta->outputs[i]]);
  return failed;
}

/* Creates the context; prints the device line. */
static int openDevice(Session *s) {
  TtrtError err;
  TtrtStatus st = ttrtContextCreate(&s->ctx, &err);
  if (st == TTRT_NO_GPU) {
    fprintf(stderr, "tt-run: no GPU: %s\n", err.message);
    return EXIT_NO_GPU;
  }
  if (st != TTRT_SUCCESS)
    return reportError(s, &err);
  int cc = ttrtContextGetComputeCapability(s->ctx);
  int driver = ttrtContextGetDriverVersion(s->ctx);
  printf("device %s sm_%d driver %d.%d\n", ttrtContextGetDeviceName(s->ctx),
         cc, driver / 1000, driver % 1000 / 10);
  if (!archRunsOn(s->meta->arch, cc)) {
    fprintf(stderr, "tt-run: %s: the PTX is for %s, which does not run on "
                    "this sm_%d GPU\n",
            s->opt->file, s->meta->arch, cc);
    return EXIT_FAIL;
  }
  return EXIT_PASS;
}

/* Runs the launches once and checks every output; then times them. */
static int runOnGpu(Session *s) {
  TtrtError err = {0, ""};
  int rc = openDevice(s);
  if (rc != EXIT_PASS)
    return rc;
  if (ttrtProgramCreate(s->ctx, s->meta, s->text, &s->program, &err))
    return reportError(s, &err);
  if ((rc = makeInputs(s)) != EXIT_PASS)
    return rc;
  bool check = !s->opt->noCheck;
  if (prepareBuffers(s, &err) || ttrtProgramRun(s->program, true, &err) ||
      ttrtContextSynchronize(s->ctx, &err) || downloadOutputs(s, &err) ||
      (check && !s->want && ttrtRefEvaluate(s->meta, s->values, &err)))
    return reportError(s, &err);
  if (s->opt->saveOutputs && saveOutputs(s, s->device))
    return EXIT_FAIL;
  int failed = 0;
  for (int i = 0; check && i < s->meta->numOutputs; ++i)
    failed += !checkOutput(s, s->meta->outputs[i], s->device[s->meta->outputs[i]]);
  if (s->opt->printValues && check)
    printAllValues(s, s->device, s->values);
  int steady = checkSteady(s);
  if (steady < 0)
    return EXIT_FAIL;
  failed = steady > failed ? steady : failed;
  if (s->opt->repeat) {
    int d = checkRepeat(s);
    if (d < 0)
      return EXIT_FAIL;
    failed += d > 0;
  }
  if (s->opt->graph) {
    int f = checkGraph(s);
    if (f < 0)
      return EXIT_FAIL;
    failed = f > failed ? f : failed; /* outputs failing, in either run */
  }
  if (s->opt->time && timeProgram(s, &err))
    return reportError(s, &err);
  if (!check)
    printf("result UNCHECKED (--no-check)\n");
  else if (failed)
    printf("result FAIL (%d of %d outputs)\n", failed, s->meta->numOutputs);
  else
    printf("result PASS\n");
  return failed ? EXIT_FAIL : EXIT_PASS;
}

/* Evaluates the reference only and prints checksums. */
static int runReferenceOnly(Session *s) {
  TtrtError err;
  int rc = makeInputs(s);
  if (rc != EXIT_PASS)
    return rc;
  for (int i = 0; i < s->meta->numInputs; ++i) {
    int slot = s->meta->inputs[i];
    printChecksum("input", &s->meta->tensors[slot], s->values[slot]);
  }
  if (ttrtRefEvaluate(s->meta, s->values, &err))
    return reportError(s, &err);
  for (int i = 0; i < s->meta->numOutputs; ++i) {
    int slot = s->meta->outputs[i];
    printChecksum("output", &s->meta->tensors[slot], s->values[slot]);
  }
  if (s->opt->saveOutputs && saveOutputs(s, s->values))
    return EXIT_FAIL;
  if (s->want) { /* --expected: the reference against the given outputs */
    int failed = 0;
    for (int i = 0; i < s->meta->numOutputs; ++i)
      failed += !checkOutput(s, s->meta->outputs[i], s->values[s->meta->outputs[i]]);
    printf("result %s\n", failed ? "FAIL" : "PASS");
    return failed ? EXIT_FAIL : EXIT_PASS;
  }
  if (s->opt->printValues)
    printAllValues(s, s->values, NULL);
  for (int i = 0; i < s->meta->numOutputs; ++i) { /* what a GPU run would hold it to */
    int slot = s->meta->outputs[i];
    printf("tolerance %%%lld %.1e\n", (long long)s->meta->tensors[slot].id,
           s->opt->tol >= 0 ? s->opt->tol : outputTolerance(s->meta, slot));
  }
  return EXIT_PASS;
}

/* Reads, parses and checks the file, then runs it. */
static int run(Session *s) {
  TtrtError err;
  int rc = readFile(s);
  if (rc != EXIT_PASS)
    return rc;
  if (ttrtMetaParse(s->text, s->length, &s->meta, &err))
    return reportError(s, &err);
  if ((rc = readArchives(s)) != EXIT_PASS || (rc = bindDims(s)) != EXIT_PASS ||
      (rc = checkSizes(s)) != EXIT_PASS ||
      (s->opt->expected && (rc = readExpected(s)) != EXIT_PASS))
    return rc;
  size_t slots = (size_t)s->meta->numTensors + 1;
  s->values = calloc(slots, sizeof *s->values);
  s->device = calloc(slots, sizeof *s->device);
  if (!s->values || !s->device) {
    fprintf(stderr, "tt-run: out of memory\n");
    return EXIT_FAIL;
  }
  if (s->opt->dumpMeta)
    ttrtMetaPrint(s->meta, stdout);
  printf("file %s arch %s\n", s->opt->file, s->meta->arch);
  printf("seed %llu range %.17g,%.17g\n", (unsigned long long)s->opt->seed,
         s->opt->lo, s->opt->hi);
  fflush(stdout);
  return s->opt->refOnly ? runReferenceOnly(s) : runOnGpu(s);
}

/* Frees everything a session holds. */
static void sessionDestroy(Session *s) {
  for (int i = 0; s->meta && i < s->meta->numTensors; ++i) {
    if (s->values)
      free(s->values[i]);
    if (s->device)
      free(s->device[i]);
  }
  for (int i = 0; s->want && i < s->meta->numTensors; ++i)
    free(s->want[i]);
  free(s->want);
  npzFree(&s->given);
  npzFree(&s->expected);
  free(s->values);
  free(s->device);
  ttrtGraphDestroy(s->graph, NULL);
  ttrtProgramDestroy(s->program, NULL);
  for (long i = 0; s->coldPrograms && i < s->opt->cold; ++i)
    ttrtProgramDestroy(s->coldPrograms[i], NULL);
  free(s->coldPrograms);
  ttrtContextDestroy(s->ctx, NULL);
  ttrtMetaDestroy(s->meta);
  free(s->text);
}

int main(int argc, char **argv) {
  /* Line-buffered, so the report and the errors on stderr interleave in
   * order when both go to one pipe. */
  setvbuf(stdout, NULL, _IOLBF, 0);
  Options opt;
  int rc = optionsParse(argc, argv, &opt);
  if (rc >= 0)
    return rc;
  Session s;
  memset(&s, 0, sizeof s);
  s.opt = &opt;
  rc = run(&s);
  fflush(stdout);
  sessionDestroy(&s);
  return rc;
}
