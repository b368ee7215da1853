/* fuzz-opt.c - libFuzzer harness for tt-opt: parse + verify, then a pipeline of tt passes.
 *
 * An input is a tt program, optionally headed by a directive line naming the passes to
 * run, in order, in MLIR's pipeline syntax restricted to tt's passes:
 *
 *     //! decompose,fuse,tile{block-size=64 num-warps=2},pipeline{num-stages=3}
 *
 * Without one only parsing and verification run (ttParseModule: the parser, the IRDL
 * verifiers, the prim verifier, the composite checks). Algorithm per input: split the
 * directive at top-level commas into `name{options}`; reject the input (-1: libFuzzer
 * keeps it out of the corpus) when a name is no tt pass, since upstream passes on
 * arbitrary IR would fuzz MLIR rather than tt; parse with ttParseModule in the reused
 * context (fuzz-common.c) exactly as tt-opt does (ttDiagParseFailed on failure), verify;
 * build a pass manager with ttPipelineAddPass (tt-opt's path: each tt pass an external
 * pass, the verifier after each), run it, and print the result with locations, as tt-opt
 * does. Diagnostics are recorded, never printed; an input holding `expected-` annotations
 * also runs ttDiagVerify (tt-opt --verify-diagnostics). An input that fails is fine: only
 * crashes, sanitizer reports, timeouts and running out of memory are findings.
 *
 * A line `//--- tune-cache` ends the program: what follows is a tuning cache
 * (lib/tune.c's format), parsed with ttTuneCacheParse and loaded for this input's passes,
 * then cleared.
 *
 * The seed corpus (test/fuzz/make-corpus.sh) is every example and every chunk of the lit
 * tests' .mlir files, each lit chunk headed by the passes of its RUN line, and the tuning
 * caches of the tune-cache lit tests after a program with a dot.
 */
#include "fuzz-common.h"

#include <string.h>

#define MAX_PASSES 8

typedef struct {
  char name[64], options[192];
  bool hasOptions;
} Pass;

/* Splits a directive into passes; false when one is malformed or not a tt pass. */
static bool parseDirective(const char *d, Pass *passes, int *n) {
  *n = 0;
  const char *p = d;
  while (*p) {
    while (*p == ' ' || *p == ',')
      p++;
    if (!*p)
      break;
    if (*n == MAX_PASSES)
      return false;
    Pass *ps = &passes[(*n)++];
    size_t len = strcspn(p, "{, ");
    if (len == 0 || len >= sizeof ps->name)
      return false;
    memcpy(ps->name, p, len);
    ps->name[len] = 0;
    p += len;
    ps->hasOptions = *p == '{';
    ps->options[0] = 0;
    if (ps->hasOptions) {
      const char *close = strchr(p, '}');
      if (!close || (size_t)(close - p - 1) >= sizeof ps->options)
        return false;
      memcpy(ps->options, p + 1, (size_t)(close - p - 1));
      ps->options[close - p - 1] = 0;
      p = close + 1;
    }
    if (!ttPassLookup(ps->name))
      return false;
  }
  return true;
}

/* An MlirStringCallback that only counts: the printer runs, its text goes nowhere. */
static void countBytes(MlirStringRef piece, void *userData) {
  *(size_t *)userData += piece.length;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > TT_FUZZ_MAX_INPUT)
    return -1;
  TtFuzzInput in;
  ttFuzzInputInit(&in, data, size);
  Pass passes[MAX_PASSES];
  int npasses;
  if (!parseDirective(in.directive, passes, &npasses)) {
    ttFuzzInputDestroy(&in);
    return -1;
  }
  char *cache = strstr(in.text, "\n//--- tune-cache\n");
  if (cache) { /* the program ends there; a cache that does not load is an input too */
    *cache = 0;
    ttTuneCacheParse("fuzz.cache", cache + 18, NULL);
  }
  MlirContext ctx = ttFuzzContext();
  TtDiag *diag = ttDiagCreate(ctx, true);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirPassManagerEnableVerifier(pm, true);
  bool ok = true;
  for (int i = 0; i < npasses && ok; i++)
    ok = ttPipelineAddPass(mlirPassManagerGetAsOpPassManager(pm), passes[i].name,
                           passes[i].hasOptions ? passes[i].options : NULL);
  MlirOperation op = {NULL};
  if (ok) {
    op = mlirModuleGetOperation(ttParseModule(ctx, in.text, "fuzz.mlir"));
    if (mlirOperationIsNull(op))
      ttDiagParseFailed(diag, ctx, in.text, "fuzz.mlir");
  }
  if (!mlirOperationIsNull(op) && mlirOperationVerify(op) &&
      mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op))) {
    size_t printed = 0;
    MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
    mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
    mlirOperationPrintWithFlags(op, flags, countBytes, &printed);
    mlirOpPrintingFlagsDestroy(flags);
  }
  if (!mlirOperationIsNull(op))
    mlirOperationDestroy(op);
  if (strstr(in.text, "expected-"))
    ttDiagVerify(diag, "fuzz.mlir", in.text);
  mlirPassManagerDestroy(pm);
  ttDiagDestroy(diag);
  ttTuneCacheClear();
  ttFuzzInputDestroy(&in);
  return 0;
}
