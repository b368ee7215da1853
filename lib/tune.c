/* tune.c - the tuning cache: measured dot geometry that stands in for the model's defaults
 * (tt-opt and tt-translate --tune-cache=FILE; tools/tt-tune writes the file).
 *
 * The format (docs/tune-cache.md; version 1) is line-based text:
 *   tt-tune-cache 1                           first line: the format and its version
 *   arch sm_90a                               the target the entries were measured on
 *   device NVIDIA H200                        optional: the GPU, for the reader
 *   dot 1x16x4096x4096 f16xf16 nk : block-m=16 block-n=64 split-k=2 num-stages=3
 *   # ...                                     comments, and blank lines
 * An entry's key (before " : ") is the one --tile computes for a dot kernel and records
 * on it as `tile.tune_key` (tileDotGeometry: batch x M x N x K, the operand dtypes, the
 * layout of B); its value is options of the passes that shape a dot kernel: --tile's
 * dot options, --splitk's split-k and reduce, --pipeline's num-stages. A `#` after the
 * options starts a comment (tt-tune writes the times there).
 *
 * Algorithm: ttTuneCacheLoad reads the file once per process and checks each line: the
 * header, the arch (against the tool's target where it has one), each key's form (unique),
 * each option against its pass's table (ttPassParseOptionsTo: names, ranges, words); a
 * bad line is a located error (FILE:LINE:COL) and nothing is loaded. Passes then ask
 * ttTuneLookup for a key (a linear scan: caches hold tens of entries) and take an entry's
 * options with ttTuneOptions where their own options are left at their defaults: options
 * the user gives win over the cache, the cache over the model.
 */
#include "tt.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TUNE_VERSION 1

typedef struct {
  char *key, *options; /* owned */
} Entry;

static struct {
  Entry *entries;
  int n;
} cache;

/* The passes whose options an entry may hold, and the options it may name. */
static const char *const kTunable[][2] = {
    {"tile", "block-m"},      {"tile", "block-n"},   {"tile", "block-k"},
    {"tile", "num-warps"},    {"tile", "k-stagger"}, {"tile", "order"},
    {"tile", "group-m"},      {"tile", "multicast"}, {"splitk", "split-k"},
    {"splitk", "reduce"},     {"pipeline", "num-stages"},
};
#define NUM_TUNABLE (int)(sizeof kTunable / sizeof kTunable[0])

static void freeEntries(Entry *e, int n) {
  for (int i = 0; i < n; i++) {
    free(e[i].key);
    free(e[i].options);
  }
  free(e);
}

static char *dupRange(const char *s, size_t n) {
  char *d = malloc(n + 1);
  if (!d)
    abort();
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

/* A located error at column col (1-based) of line `line`. */
static bool fail(const char *path, int line, size_t col, const char *fmt, const char *arg) {
  fprintf(stderr, "%s:%d:%zu: error: ", path, line, col);
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  return false;
}

/* A key: `dot BxMxNxK AxB nk|kn`, B a size or ? (dynamic), M a size or ?<size> (a
 * dynamic M's bucket); A and B dtype names (letters and digits, no 'x'). */
static bool keyWellFormed(const char *k) {
  if (strncmp(k, "dot ", 4) != 0)
    return false;
  const char *p = k + 4;
  for (int i = 0; i < 4; i++) { /* B, M, N, K */
    if (i == 0 && p[0] == '?' && p[1] == 'x') { /* a dynamic batch */
      p += 2;
      continue;
    }
    if (i == 1 && *p == '?')
      p++;
    if (!isdigit((unsigned char)*p))
      return false;
    while (isdigit((unsigned char)*p))
      p++;
    if (*p++ != (i < 3 ? 'x' : ' '))
      return false;
  }
  for (int i = 0; i < 2; i++) { /* A, B */
    if (!isalnum((unsigned char)*p) || *p == 'x')
      return false;
    while (isalnum((unsigned char)*p) && *p != 'x')
      p++;
    if (*p++ != (i == 0 ? 'x' : ' '))
      return false;
  }
  return strcmp(p, "nk") == 0 || strcmp(p, "kn") == 0;
}

/* Checks one option `name=value` (a token of length n) of an entry; err gets the reason. */
static bool checkOption(const char *tok, size_t n, TtStr *err) {
  const char *eq = memchr(tok, '=', n);
  size_t nlen = eq ? (size_t)(eq - tok) : n;
  for (int i = 0; i < NUM_TUNABLE; i++)
    if (strlen(kTunable[i][1]) == nlen && strncmp(kTunable[i][1], tok, nlen) == 0) {
      char *text = dupRange(tok, n);
      TtPassOptions unused;
      bool ok = ttPassParseOptionsTo(ttPassLookup(kTunable[i][0]), text, &unused, err);
      free(text);
      return ok;
    }
  ttStrAppendf(err, "'%.*s' is not an option a tuning cache may set (block-m, block-n, "
                    "block-k, num-warps, k-stagger, order, group-m, multicast, split-k, "
                    "reduce, num-stages)", (int)nlen, tok);
  return false;
}

/* Parses line `ln` (text s, no newline) into the entries being built. */
static bool parseLine(const char *path, int ln, char *s, const char *arch, bool *sawArch,
                      Entry **es, int *n) {
  size_t len = strlen(s);
  while (len && isspace((unsigned char)s[len - 1]))
    s[--len] = 0;
  const char *p = s;
  while (isspace((unsigned char)*p))
    p++;
  if (ln == 1) {
    char *end = NULL;
    long v = strncmp(s, "tt-tune-cache ", 14) == 0 && isdigit((unsigned char)s[14])
                 ? strtol(s + 14, &end, 10)
                 : -1;
    if (v < 0 || *end)
      return fail(path, 1, 1, "expected 'tt-tune-cache %s' (a tuning cache's first line)", "1");
    if (v != TUNE_VERSION)
      return fail(path, 1, 15, "tuning cache version %s is not supported (this tt reads version 1)",
                  s + 14);
    return true;
  }
  if (!*p || *p == '#')
    return true;
  size_t col = (size_t)(p - s) + 1;
  if (strncmp(p, "arch ", 5) == 0) {
    if (*sawArch)
      return fail(path, ln, col, "a second %s line", "arch");
    *sawArch = true;
    if (!ttTargetLookup(p + 5))
      return fail(path, ln, col + 5, "unknown arch '%s'", p + 5);
    if (arch && strcmp(arch, p + 5) != 0) {
      fprintf(stderr, "%s:%d:%zu: error: the tuning cache is for %s, not the target %s\n", path,
              ln, col + 5, p + 5, arch);
      return false;
    }
    return true;
  }
  if (strncmp(p, "device ", 7) == 0)
    return true;
  if (strncmp(p, "dot ", 4) != 0)
    return fail(path, ln, col, "expected 'arch', 'device', 'dot' or a comment, not '%s'", p);
  if (!*sawArch)
    return fail(path, ln, col, "a dot entry before the %s line", "arch");
  const char *colon = strstr(p, " : ");
  if (!colon)
    return fail(path, ln, col, "expected 'KEY : OPTIONS' in '%s'", p);
  char *key = dupRange(p, (size_t)(colon - p));
  if (!keyWellFormed(key)) {
    fail(path, ln, col,
         "'%s' is not a dot key (dot BxMxNxK AxB nk|kn, B a size or ?, M a size or ?SIZE)",
         key);
    free(key);
    return false;
  }
  for (int i = 0; i < *n; i++)
    if (strcmp((*es)[i].key, key) == 0) {
      fail(path, ln, col, "a second entry for '%s'", key);
      free(key);
      return false;
    }
  const char *o = colon + 3, *end = strchr(o, '#');
  if (!end)
    end = o + strlen(o);
  while (end > o && isspace((unsigned char)end[-1]))
    end--;
  if (end == o) {
    free(key);
    return fail(path, ln, (size_t)(o - s) + 1, "the entry sets no %s", "options");
  }
  for (const char *t = o; t < end;) { /* each option against its pass's table */
    while (t < end && isspace((unsigned char)*t))
      t++;
    const char *te = t;
    while (te < end && !isspace((unsigned char)*te))
      te++;
    TtStr err = {0};
    if (!checkOption(t, (size_t)(te - t), &err)) {
      fail(path, ln, (size_t)(t - s) + 1, "%s", err.data ? err.data : "bad option");
      ttStrDestroy(&err);
      free(key);
      return false;
    }
    ttStrDestroy(&err);
    t = te;
  }
  Entry *grown = realloc(*es, (size_t)(*n + 1) * sizeof **es);
  if (!grown)
    abort();
  *es = grown;
  (*es)[(*n)++] = (Entry){key, dupRange(o, (size_t)(end - o))};
  return true;
}

bool ttTuneCacheLoad(const char *path, const char *arch) {
  TtStr text = {0};
  if (!ttReadFile(path, &text)) {
    fprintf(stderr, "error: cannot read the tuning cache '%s'\n", path);
    return false;
  }
  bool ok = ttTuneCacheParse(path, text.data ? text.data : "", arch);
  ttStrDestroy(&text);
  return ok;
}

bool ttTuneCacheParse(const char *path, const char *source, const char *arch) {
  TtStr text = {0};
  ttStrAppend(&text, source, strlen(source)); /* a copy: lines are cut in place */
  Entry *es = NULL;
  int n = 0, ln = 0;
  bool ok = true, sawArch = false;
  char *line = text.data ? text.data : (char[]){0};
  bool lastEmpty = false;
  while (ok && line) {
    char *nl = strchr(line, '\n');
    if (nl)
      *nl = 0;
    lastEmpty = !*line;
    if (++ln > 1 || *line || nl)
      ok = parseLine(path, ln, line, arch, &sawArch, &es, &n);
    line = nl ? nl + 1 : NULL;
  }
  if (ok && ln <= 1 && (!text.data || !*text.data))
    ok = fail(path, 1, 1, "expected 'tt-tune-cache %s' (a tuning cache's first line)", "1");
  if (ok && !sawArch) /* at its last line (a final newline ends it, no line follows) */
    ok = fail(path, ln > 1 && lastEmpty ? ln - 1 : ln, 1, "the tuning cache has no %s line",
              "arch");
  ttStrDestroy(&text);
  if (!ok) {
    freeEntries(es, n);
    return false;
  }
  freeEntries(cache.entries, cache.n);
  cache.entries = es;
  cache.n = n;
  return true;
}

void ttTuneCacheClear(void) {
  freeEntries(cache.entries, cache.n);
  cache.entries = NULL;
  cache.n = 0;
}

const char *ttTuneLookup(const char *key) {
  for (int i = 0; i < cache.n; i++)
    if (strcmp(cache.entries[i].key, key) == 0)
      return cache.entries[i].options;
  return NULL;
}

void ttTuneOptions(const char *options, const TtPassInfo *info, TtPassOptions *opts) {
  for (const char *t = options; t && *t;) {
    while (isspace((unsigned char)*t))
      t++;
    const char *te = t;
    while (*te && !isspace((unsigned char)*te))
      te++;
    const char *eq = memchr(t, '=', (size_t)(te - t));
    for (int i = 0; eq && i < info->nOptions; i++) {
      const TtPassOption *o = &info->options[i];
      if (strlen(o->name) != (size_t)(eq - t) || strncmp(o->name, t, (size_t)(eq - t)) != 0 ||
          opts->v[i] != o->dflt)
        continue;
      char *one = dupRange(t, (size_t)(te - t));
      TtPassOptions parsed;
      if (ttPassParseOptions(info, one, &parsed)) /* (checked when loaded) */
        opts->v[i] = parsed.v[i];
      free(one);
    }
    t = te;
  }
}

TtPassOptions ttTunedOptions(MlirOperation kernel, const char *pass, const TtPassOptions *opts) {
  TtPassOptions out = *opts;
  MlirAttribute t = ttOpAttr(kernel, "tile.tuned");
  if (mlirAttributeIsNull(t) || !mlirAttributeIsAString(t))
    return out;
  MlirStringRef s = mlirStringAttrGetValue(t);
  char *text = dupRange(s.data, s.length);
  ttTuneOptions(text, ttPassLookup(pass), &out);
  /* version 1's split-k without a reduce was measured with atomics (the default then; now
   * reduce=auto): it keeps that meaning unless the command line gave a reduce */
  if (strcmp(pass, "splitk") == 0 && strstr(text, "split-k=") && !strstr(text, "reduce=") &&
      opts->v[TT_SPLITK_REDUCE] == ttPassLookup(pass)->options[TT_SPLITK_REDUCE].dflt)
    out.v[TT_SPLITK_REDUCE] = 0; /* reduceKinds[0], atomic */
  free(text);
  return out;
}
