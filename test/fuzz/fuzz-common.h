/* fuzz-common.h - what the MLIR harnesses (fuzz-opt.c, fuzz-translate.c) share: one input
 * as a C string with its directive line, and the reused, silenced MLIR context.
 */
#ifndef TT_FUZZ_COMMON_H
#define TT_FUZZ_COMMON_H

#include "tt.h"

#include <stddef.h>
#include <stdint.h>

/* The largest input a harness takes; a larger one is rejected (-1): MLIR's parser and the
 * passes are linear or worse in the input, and libFuzzer's -max_len keeps inputs far
 * smaller anyway. */
#define TT_FUZZ_MAX_INPUT (64 * 1024)

/* The input as a NUL-terminated string (cut at its first NUL byte: ttParseModule reads a C
 * string); `directive` is the text after `//!` on its first line ("" when the first line
 * is no directive). The directive line stays in `text`: it is a comment to the parser, and
 * line numbers stay the file's. Free with ttFuzzInputDestroy. */
typedef struct {
  char *text;
  char directive[256];
} TtFuzzInput;
void ttFuzzInputInit(TtFuzzInput *in, const uint8_t *data, size_t size);
void ttFuzzInputDestroy(TtFuzzInput *in);

/* The context for the next input: one made by ttContextCreate (the tools' setup), reused
 * for TT_FUZZ_FRESH inputs (default 1000; 1 makes a context per input), then destroyed and
 * made again, so that what a context keeps from input to input (uniqued types and
 * attributes, dialect resources) stays bounded. */
MlirContext ttFuzzContext(void);

#endif
