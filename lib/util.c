/* util.c - growable strings, whole-file reads and writes, checked allocation, a pointer
 * -> index hash, and the tools' main on a big stack.
 *
 * Everything here is plain C with no MLIR state; allocation failure aborts with a message
 * (the tools have no sensible way to go on without memory).
 */
#include "tt.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *ttAlloc(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (!p) {
    fprintf(stderr, "tt: out of memory\n");
    abort();
  }
  return p;
}

void *ttRealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    fprintf(stderr, "tt: out of memory\n");
    abort();
  }
  return q;
}

char *ttStrDup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = ttAlloc(n);
  memcpy(d, s, n);
  return d;
}

/* Grows s so that n more bytes and a NUL fit. */
static void strReserve(TtStr *s, size_t n) {
  if (s->len + n + 1 <= s->cap)
    return;
  size_t cap = s->cap ? s->cap : 64;
  while (cap < s->len + n + 1)
    cap *= 2;
  s->data = ttRealloc(s->data, cap);
  s->cap = cap;
}

void ttStrAppend(TtStr *s, const char *bytes, size_t n) {
  strReserve(s, n);
  if (n)
    memcpy(s->data + s->len, bytes, n);
  s->len += n;
  s->data[s->len] = 0;
}

void ttStrAppendf(TtStr *s, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n > 0) {
    strReserve(s, (size_t)n);
    vsnprintf(s->data + s->len, (size_t)n + 1, fmt, ap2);
    s->len += (size_t)n;
  }
  va_end(ap2);
}

void ttStrDestroy(TtStr *s) {
  free(s->data);
  s->data = NULL;
  s->len = s->cap = 0;
}

void ttStrCallback(MlirStringRef piece, void *userData) {
  ttStrAppend((TtStr *)userData, piece.data, piece.length);
}

bool ttReadFile(const char *path, TtStr *out) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f)
    return false;
  char buf[65536];
  size_t n;
  ttStrAppend(out, "", 0);
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    ttStrAppend(out, buf, n);
  bool ok = !ferror(f);
  int saved = errno;
  if (f != stdin)
    fclose(f);
  errno = saved;
  return ok;
}

bool ttWriteFile(const char *path, const char *bytes, size_t n) {
  FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
  if (!f)
    return false;
  bool ok = fwrite(bytes, 1, n, f) == n;
  if (f == stdout)
    ok = fflush(f) == 0 && ok;
  else
    ok = fclose(f) == 0 && ok;
  return ok;
}

MlirStringRef ttStrRef(const char *s) { return mlirStringRefCreateFromCString(s); }

bool ttStrRefEq(MlirStringRef a, const char *b) {
  size_t n = strlen(b);
  return a.length == n && memcmp(a.data, b, n) == 0;
}

static size_t ptrSlot(const TtPtrIndex *h, const void *p) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x = (x ^ (x >> 31)) * 0x9e3779b97f4a7c15ull;
  return (size_t)(x >> 17) & h->mask;
}

/* The slot of key, or the empty slot where it would go. */
static size_t ptrFindSlot(const TtPtrIndex *h, const void *key) {
  size_t s = ptrSlot(h, key);
  while (h->keys[s] && h->keys[s] != key)
    s = (s + 1) & h->mask;
  return s;
}

/* An empty table of at least 16 slots and twice n. */
static void ptrAlloc(TtPtrIndex *h, size_t n) {
  size_t cap = 16;
  while (cap < 2 * n)
    cap *= 2;
  h->mask = cap - 1;
  h->n = 0;
  h->keys = ttAlloc(sizeof(void *) * cap);
  h->vals = ttAlloc(sizeof(int) * cap);
}

void ttPtrIndexInit(TtPtrIndex *h, const void *const *keys, int n) {
  ptrAlloc(h, (size_t)(n > 0 ? n : 0));
  for (int i = 0; i < n; i++)
    ttPtrIndexPut(h, keys[i], i);
}

void ttPtrIndexPut(TtPtrIndex *h, const void *key, int val) {
  if (!h->keys || 2 * (h->n + 1) > h->mask + 1) { /* rehash into twice the slots */
    TtPtrIndex old = *h;
    ptrAlloc(h, old.keys ? old.mask + 1 : 8);
    for (size_t i = 0; old.keys && i <= old.mask; i++)
      if (old.keys[i])
        ttPtrIndexPut(h, old.keys[i], old.vals[i]);
    free(old.keys);
    free(old.vals);
  }
  size_t s = ptrFindSlot(h, key);
  h->n += !h->keys[s];
  h->keys[s] = key;
  h->vals[s] = val;
}

int ttPtrIndexFind(const TtPtrIndex *h, const void *key) {
  if (!key || !h->keys)
    return -1;
  size_t s = ptrFindSlot(h, key);
  return h->keys[s] ? h->vals[s] : -1;
}

void ttPtrIndexDestroy(TtPtrIndex *h) {
  free(h->keys);
  free(h->vals);
  *h = (TtPtrIndex){0};
}

/* ttMainOnBigStack: main's work on a thread whose stack is TT_MAIN_STACK bytes. The
 * passes recurse along a kernel's chains of values (--tile's emission, operand by
 * operand), about a kilobyte a level; a 100,000-op chain overflowed the default 8 MiB
 * stack. 1 GiB of address space is reserved, touched only as deep as the recursion
 * goes. Where the thread cannot be made, the work runs on the caller's stack. */
#define TT_MAIN_STACK ((size_t)1 << 30)

typedef struct {
  int (*fn)(int, char **);
  int argc;
  char **argv;
  int rc;
} MainCall;

static void *runMain(void *p) {
  MainCall *c = p;
  c->rc = c->fn(c->argc, c->argv);
  return NULL;
}

int ttMainOnBigStack(int (*fn)(int, char **), int argc, char **argv) {
  MainCall c = {fn, argc, argv, 1};
  pthread_attr_t attr;
  pthread_t thread;
  if (pthread_attr_init(&attr) != 0)
    return fn(argc, argv);
  bool started = pthread_attr_setstacksize(&attr, TT_MAIN_STACK) == 0 &&
                 pthread_create(&thread, &attr, runMain, &c) == 0;
  pthread_attr_destroy(&attr);
  if (!started)
    return fn(argc, argv);
  pthread_join(thread, NULL);
  return c.rc;
}
