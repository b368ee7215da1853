/* fuzz-common.c - the input and context helpers of the MLIR fuzz harnesses.
 *
 * Inputs: copied into a NUL-terminated buffer, cut at the first NUL byte; a first line
 * `//! WORDS` is the harness's directive (which passes, which target). Context: made once
 * and reused, since ttContextCreate (every upstream dialect loaded, the three IRDL
 * dialects parsed) costs far more than parsing a small program; it is remade every
 * TT_FUZZ_FRESH inputs so that the uniqued state an input leaves behind stays bounded.
 * Diagnostics never print: each harness records them with a TtDiag in verify mode.
 */
#include "fuzz-common.h"

#include <stdlib.h>
#include <string.h>

void ttFuzzInputInit(TtFuzzInput *in, const uint8_t *data, size_t size) {
  const uint8_t *nul = size ? memchr(data, 0, size) : NULL;
  size_t n = nul ? (size_t)(nul - data) : size;
  in->text = ttAlloc(n + 1);
  if (n)
    memcpy(in->text, data, n);
  in->text[n] = 0;
  in->directive[0] = 0;
  if (strncmp(in->text, "//!", 3) == 0) {
    size_t len = strcspn(in->text + 3, "\n");
    if (len >= sizeof in->directive)
      len = sizeof in->directive - 1;
    memcpy(in->directive, in->text + 3, len);
    in->directive[len] = 0;
  }
}

void ttFuzzInputDestroy(TtFuzzInput *in) {
  free(in->text);
  in->text = NULL;
}

MlirContext ttFuzzContext(void) {
  static MlirContext ctx;
  static long uses, fresh;
  if (!fresh) {
    const char *e = getenv("TT_FUZZ_FRESH");
    fresh = e ? atol(e) : 1000;
    if (fresh < 1)
      fresh = 1;
  }
  if (ctx.ptr && uses >= fresh) {
    ttContextDestroy(ctx);
    ctx.ptr = NULL;
  }
  if (!ctx.ptr) {
    ctx = ttContextCreate();
    if (mlirContextIsNull(ctx))
      abort(); /* the embedded dialects must load: a broken build, not an input */
    uses = 0;
  }
  uses++;
  return ctx;
}
