/* common.c - what the runtime's files share: the error record and shapes
 * (meta.h), and the lexical and text helpers of the metadata parser
 * (parse.h: meta.c, prim.c, expr.c).
 *
 * Errors are formatted into the fixed buffer of a TtrtError; a prefix is
 * put in front by moving the message right, cutting its end if it no longer
 * fits. Numbers are read digit by digit with an overflow check before each
 * step, so a value past its limit is an error and never wraps; `%N` tensor
 * ids are a `%` and such a number. Buf appends formatted text to a fixed
 * buffer and stops at its end.
 */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/*===------------------------------------------------------------------===*
 * Errors
 *===------------------------------------------------------------------===*/

TtrtStatus ttrtErrorSet(TtrtError *err, int line, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    err->line = line;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return TTRT_FAILURE;
}

void ttrtErrorPrefix(TtrtError *err, const char *fmt, ...) {
  if (!err)
    return;
  char prefix[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prefix, sizeof prefix, fmt, ap);
  va_end(ap);
  size_t size = sizeof err->message;
  size_t n = strlen(prefix);
  size_t keep = strlen(err->message);
  if (keep > size - 1 - n)
    keep = size - 1 - n;
  memmove(err->message + n, err->message, keep);
  memcpy(err->message, prefix, n);
  err->message[n + keep] = '\0';
}

/*===------------------------------------------------------------------===*
 * Shapes
 *===------------------------------------------------------------------===*/

int64_t ttrtShapeGetNumel(const TtrtShape *shape) {
  int64_t n = 1;
  for (int i = 0; i < shape->rank; ++i)
    n *= shape->dims[i];
  return n;
}

bool ttrtShapeEqual(const TtrtShape *a, const TtrtShape *b) {
  if (a->rank != b->rank)
    return false;
  for (int i = 0; i < a->rank; ++i)
    if (a->dims[i] != b->dims[i])
      return false;
  return true;
}

void ttrtShapeFormat(const TtrtShape *shape, char *buf, size_t size) {
  ttrtMetaFormatShape(NULL, shape, buf, size); /* dims.c: no symbols without a file */
}

/*===------------------------------------------------------------------===*
 * Lexical helpers
 *===------------------------------------------------------------------===*/

bool mpParseUnsigned(const char *s, size_t length, int64_t max, int64_t *out) {
  if (length == 0)
    return false;
  int64_t value = 0;
  for (size_t i = 0; i < length; ++i) {
    if (!isdigit((unsigned char)s[i]))
      return false;
    int digit = s[i] - '0';
    if (value > (max - digit) / 10)
      return false;
    value = value * 10 + digit;
  }
  *out = value;
  return true;
}

bool mpParseUnsignedToken(const char *token, int64_t max, int64_t *out) {
  return mpParseUnsigned(token, strlen(token), max, out);
}

bool mpParseId(const char *s, size_t length, int64_t *out) {
  return length >= 2 && s[0] == '%' &&
         mpParseUnsigned(s + 1, length - 1, INT64_MAX, out);
}

bool mpParseDouble(const char *token, double *out) {
  char *end;
  errno = 0;
  *out = strtod(token, &end);
  return *token != '\0' && *end == '\0';
}

int mpLookupName(const char *const *names, int count, const char *name) {
  for (int i = 0; i < count; ++i)
    if (strcmp(names[i], name) == 0)
      return i;
  return -1;
}

/*===------------------------------------------------------------------===*
 * Text
 *===------------------------------------------------------------------===*/

void mpBufPrintf(Buf *b, const char *fmt, ...) {
  if (b->used + 1 >= b->size)
    return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(b->data + b->used, b->size - b->used, fmt, ap);
  va_end(ap);
  if (n > 0)
    b->used += (size_t)n < b->size - b->used ? (size_t)n : b->size - b->used;
}
