/* fuzz-meta.c - libFuzzer harness for the runtime's launch metadata (docs/metadata.md):
 * the parser, symbolic sizes, the expression evaluator and the float64 reference.
 *
 * An input is the text of a PTX file as tt-translate writes it; only its `//@` lines
 * matter. Algorithm per input: ttrtMetaParse; bind every symbolic size still unbound to a
 * small size taken from the input's bytes (1-8, so that dynamic programs resolve as tt-run
 * --dim would) and ttrtMetaResolve; then what tt-run does with the result short of a GPU:
 * evaluate and format every launch's grid, `when` and integer arguments
 * (ttrtExprEval, ttrtExprFormat), print the whole metadata (ttrtMetaPrint, to /dev/null),
 * and, when the program is small (at most 2^14 elements over all tensors), run the
 * reference interpreter on inputs made as tt-run makes them (index inputs within
 * ttrtRefIndexBound) and free its outputs. No MLIR: this target runs far faster than the
 * other two. Errors are fine; crashes, sanitizer reports (leaks included: the runtime
 * frees everything it makes), timeouts and running out of memory are findings.
 *
 * The seed corpus (test/fuzz/make-corpus.sh): the `//@` lines of every example's PTX as
 * tt-translate writes it, and of the lit tests' .ptx inputs.
 */
#include "meta.h"
#include "ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REF_ELEMENTS (1 << 14)

/* Runs the reference on inputs 0, 1, 2, ... (mod 7, or mod the index bound), when every
 * tensor is small. */
static void runReference(const TtrtMeta *meta) {
  int64_t total = 0;
  for (int i = 0; i < meta->numTensors; i++) {
    int64_t n = ttrtShapeGetNumel(&meta->tensors[i].shape);
    if (n < 0 || n > MAX_REF_ELEMENTS || (total += n) > MAX_REF_ELEMENTS)
      return;
  }
  double **values = calloc((size_t)meta->numTensors + 1, sizeof *values);
  for (int i = 0; i < meta->numInputs; i++) {
    int slot = meta->inputs[i];
    if (values[slot])
      continue; /* one tensor given as two inputs */
    int64_t n = ttrtShapeGetNumel(&meta->tensors[slot].shape);
    int64_t bound = ttrtRefIndexBound(meta, slot);
    values[slot] = malloc(((size_t)n + 1) * sizeof **values);
    for (int64_t k = 0; k < n; k++)
      values[slot][k] = bound > 0 ? (double)(k % bound) : (double)(k % 7) - 3;
  }
  TtrtError err;
  if (ttrtRefEvaluate(meta, values, &err) == TTRT_SUCCESS)
    for (int i = 0; i < meta->numOutputs; i++) {
      int slot = meta->outputs[i];
      bool input = false;
      for (int k = 0; k < meta->numInputs; k++)
        input |= meta->inputs[k] == slot;
      if (!input) { /* an output that is also an input stays the caller's */
        free(values[slot]);
        values[slot] = NULL;
      }
    }
  for (int i = 0; i < meta->numInputs; i++) {
    free(values[meta->inputs[i]]);
    values[meta->inputs[i]] = NULL;
  }
  free(values);
}

/* Evaluates and formats expression `e` (-1: none). */
static void evalExpr(const TtrtMeta *meta, int e) {
  if (e < 0)
    return;
  int64_t v;
  TtrtError err;
  char buf[256];
  ttrtExprEval(meta, e, &v, &err);
  ttrtExprFormat(meta, e, buf, sizeof buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *devnull;
  if (!devnull && !(devnull = fopen("/dev/null", "w")))
    abort();
  if (size > (1 << 20))
    return -1;
  TtrtMeta *meta = NULL;
  TtrtError err;
  if (ttrtMetaParse((const char *)data, size, &meta, &err) != TTRT_SUCCESS) {
    ttrtMetaDestroy(meta);
    return 0;
  }
  for (int k = 0; k < meta->numSymbols; k++)
    if (!meta->symbols[k].value)
      ttrtMetaBindSymbol(meta, meta->symbols[k].name,
                         1 + (size ? data[(size_t)k % size] % 8 : 0), &err);
  if (meta->resolved || ttrtMetaResolve(meta, &err) == TTRT_SUCCESS) {
    for (int i = 0; i < meta->numLaunches; i++) {
      const TtrtLaunch *l = &meta->launches[i];
      for (int g = 0; g < 3; g++)
        evalExpr(meta, l->grid[g]);
      evalExpr(meta, l->when);
      for (int a = l->firstArg; a < l->firstArg + l->numArgs; a++)
        if (meta->args[a].kind == TTRT_ARG_I32 || meta->args[a].kind == TTRT_ARG_I64)
          evalExpr(meta, meta->args[a].expr);
    }
    ttrtMetaPrint(meta, devnull);
    runReference(meta);
  }
  ttrtMetaDestroy(meta);
  return 0;
}
