/* fuzz-translate.c - libFuzzer harness for tt-translate: a program at any level through
 * ttTranslate (lib/translate.c), the code tt-translate runs.
 *
 * An input is a tt program (prim, fused, tile or gpu level), optionally headed by a
 * directive `//! ARCH [sync|wgmma]` (default sm_90a with its default MMA form; an unknown
 * arch or a wgmma request for a target without it is rejected, -1). Algorithm per input:
 * parse and verify as tt-translate does (ttParseModule in the reused context of
 * fuzz-common.c, ttDiagParseFailed on failure), then ttTranslate: the passes the program
 * still needs (--decompose, --fuse, --splitk, --tile, --pipeline, --pdl,
 * --convert-tile-to-gpu, each followed by the verifier), the check of ops the target
 * cannot run, the `//@` launch metadata writer, the lowering of gpu.module to NVVM/LLVM
 * and the translation of the kernels to LLVM IR (tt-translate --mlir-to-llvmir).
 *
 * What it leaves out, and why: LLVM's NVPTX backend (tt-translate --ptx, the only step
 * after the LLVM IR). It is upstream LLVM fed by upstream MLIR's own translation, none of
 * it tt's code, and with libdevice linked and O3 it costs hundreds of milliseconds per
 * kernel, against ~1-10 ms for everything above: run on every input it would cut the rate
 * of the whole harness by 10-100x to fuzz code that is not ours. TT_FUZZ_PTX=1 in the
 * environment turns it on (ttTranslate with ptx, needing CUDA's libdevice) for a campaign
 * that wants it. Diagnostics are recorded, never printed; only crashes, sanitizer
 * reports, timeouts and running out of memory are findings.
 *
 * The seed corpus (test/fuzz/make-corpus.sh): the examples and the lit tests' .mlir
 * chunks, and the examples after tt-opt --fuse and --fuse --tile (fused and tile level).
 */
#include "fuzz-common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads `ARCH [sync|wgmma]`; false when the arch is unknown or the form not available. */
static bool parseDirective(const char *d, char *arch, size_t n, const char **mma) {
  char word[2][64] = {"", ""};
  int got = sscanf(d, " %63s %63s", word[0], word[1]);
  snprintf(arch, n, "%s", got >= 1 ? word[0] : "sm_90a");
  *mma = NULL;
  const TtTarget *t = ttTargetLookup(arch);
  if (!t)
    return false;
  if (got == 2) {
    if (strcmp(word[1], "sync") == 0)
      *mma = "sync";
    else if (strcmp(word[1], "wgmma") == 0 && t->wgmma)
      *mma = "wgmma";
    else
      return false;
  }
  return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int ptx = -1;
  if (ptx < 0) {
    const char *e = getenv("TT_FUZZ_PTX");
    ptx = e && strcmp(e, "1") == 0;
  }
  if (size > TT_FUZZ_MAX_INPUT)
    return -1;
  TtFuzzInput in;
  ttFuzzInputInit(&in, data, size);
  char arch[64];
  const char *mma;
  if (!parseDirective(in.directive, arch, sizeof arch, &mma)) {
    ttFuzzInputDestroy(&in);
    return -1;
  }
  MlirContext ctx = ttFuzzContext();
  TtDiag *diag = ttDiagCreate(ctx, true);
  MlirOperation op = mlirModuleGetOperation(ttParseModule(ctx, in.text, "fuzz.mlir"));
  if (mlirOperationIsNull(op))
    ttDiagParseFailed(diag, ctx, in.text, "fuzz.mlir");
  TtStr out = {0};
  if (!mlirOperationIsNull(op) && mlirOperationVerify(op))
    ttTranslate(mlirModuleFromOperation(op), ptx, arch, mma, &out);
  if (!mlirOperationIsNull(op))
    mlirOperationDestroy(op);
  ttStrDestroy(&out);
  ttDiagDestroy(diag);
  ttFuzzInputDestroy(&in);
  return 0;
}
