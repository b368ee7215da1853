/* gen-dict.c - tt-fuzz-dict: prints the libFuzzer dictionary of tt's fuzz harnesses
 * (test/fuzz/tt.dict is its output, kept equal by test/lit/fuzz/dict.test).
 *
 * The words come from the tables that define them wherever such a table exists:
 *  - the IRDL source of each dialect (ttDialects): each `irdl.operation @NAME` as the
 *    generic form writes it, `"prim.NAME"`, every `DIALECT.word` token in it (the
 *    discardable attributes the comments name, `tile.launch`), each `irdl.type` as
 *    `!DIALECT.NAME<` and each name of an `irdl.attributes` list;
 *  - the pass registry (ttPasses): pass names, `option=` and each word of word options;
 *  - the runtime's tables: prim op names (ttrtOpGetName), dtypes, roles, argument kinds
 *    and compare directions;
 *  - two short lists typed here, for what has no table: the metadata's line kinds and
 *    keys (docs/metadata.md) and builtin MLIR syntax the programs use.
 * Algorithm: collect the words in that order into one list, skipping repeats (a linear
 * scan: a few hundred words), and print each as a quoted dictionary entry.
 */
#include "meta.h"
#include "tt.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define MAX_WORDS 2048
static char words[MAX_WORDS][96];
static int nwords;

/* Adds a word unless it is there already (or too long for an entry). */
static void add(const char *w) {
  if (!*w || strlen(w) >= sizeof words[0])
    return;
  for (int i = 0; i < nwords; i++)
    if (strcmp(words[i], w) == 0)
      return;
  if (nwords < MAX_WORDS)
    snprintf(words[nwords++], sizeof words[0], "%s", w);
}

/* Adds the words a and b joined as `<lead>a<mid>b<tail>` (an entry longer than a word
 * slot is dropped by add). */
static void addJoined(const char *lead, const char *a, const char *mid, const char *b,
                      const char *tail) {
  char buf[2 * sizeof words[0]] = "";
  const char *parts[] = {lead, a, mid, b, tail};
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
    strncat(buf, parts[i], sizeof buf - strlen(buf) - 1);
  add(buf);
}

static bool wordChar(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* The word after `key @` in the IRDL source at p, into out. */
static bool symbolAfter(const char *p, const char *key, char *out, size_t n) {
  size_t k = strlen(key);
  if (strncmp(p, key, k) != 0)
    return false;
  p += k;
  size_t len = 0;
  while (wordChar(p[len]))
    len++;
  if (len == 0 || len >= n)
    return false;
  memcpy(out, p, len);
  out[len] = 0;
  return true;
}

/* The words of one dialect's IRDL source. */
static void addDialect(const TtDialectInfo *d) {
  char name[96], prefix[64];
  snprintf(prefix, sizeof prefix, "%s.", d->name);
  size_t np = strlen(prefix);
  for (const char *p = d->source; *p; p++) {
    bool start = p == d->source || !(wordChar(p[-1]) || p[-1] == '.');
    if (start && strncmp(p, prefix, np) == 0 && wordChar(p[np])) {
      size_t len = np;
      while (wordChar(p[len]) || (p[len] == '.' && wordChar(p[len + 1])))
        len++;
      snprintf(name, sizeof name, "\"%.*s\"", (int)len, p);
      add(name);
    }
    if (symbolAfter(p, "irdl.operation @", name, sizeof name))
      addJoined("\"", d->name, ".", name, "\"");
    if (symbolAfter(p, "irdl.type @", name, sizeof name))
      addJoined("!", d->name, ".", name, "<");
    if (strncmp(p, "irdl.attributes {", 17) == 0)
      for (const char *q = p + 17; *q && *q != '}'; q++)
        if (*q == '"') {
          const char *e = strchr(q + 1, '"');
          if (!e)
            break;
          snprintf(name, sizeof name, "%.*s", (int)(e - q - 1), q + 1);
          add(name);
          q = e;
        }
  }
}

static void addPasses(void) {
  int n;
  const TtPassInfo *p = ttPasses(&n);
  for (int i = 0; i < n; i++) {
    add(p[i].name);
    for (int k = 0; k < p[i].nOptions; k++) {
      addJoined("", p[i].options[k].name, "=", "", "");
      for (int c = 0; p[i].options[k].choices && p[i].options[k].choices[c]; c++)
        add(p[i].options[k].choices[c]);
    }
  }
}

static void addRuntime(void) {
  for (int i = 0; i < TTRT_OP_COUNT; i++)
    add(ttrtOpGetName((TtrtOp)i));
  for (int i = 0; i < TTRT_DTYPE_COUNT; i++)
    add(ttrtDtypeGetName((TtrtDtype)i));
  for (int i = TTRT_ROLE_INPUT; i <= TTRT_ROLE_CONST; i++)
    add(ttrtRoleGetName((TtrtRole)i));
  for (int i = TTRT_ARG_PTR; i <= TTRT_ARG_TMA; i++)
    add(ttrtArgKindGetName((TtrtArgKind)i));
  for (int i = TTRT_DIRECTION_LT; i <= TTRT_DIRECTION_NE; i++)
    add(ttrtDirectionGetName((TtrtDirection)i));
}

/* The metadata's line kinds and keys (docs/metadata.md; runtime/meta.c, prim.c, expr.c
 * spell them inline, with no table to read). */
static const char *const metaWords[] = {
    "//@tt-meta ", "//@tensor %", "//@prim %", "//@launch ", "//@arg ", "//@zero %",
    "arch", "grid", "block", "shared", "pdl", "when", " in ", "..", "box", "scalar",
    "numel(%", "dim(%", "cdiv(", "dims=", "dim=", "dimension=", "keepdim=", "perm=",
    "value=", "low=", "high=", "start=", "stop=", "step=", "direction=", "s0*2", NULL};

/* Builtin MLIR syntax that tt programs use. */
static const char *const mlirWords[] = {
    "module {", "func.func @", "func.call @", "func.return", "return", "tensor<", "x",
    "f64", "f32", "f16", "bf16", "f8E4M3FN", "f8E5M2", "i1", "i8", "i32", "i64", "index",
    "dense<", "dense_resource<", "array<i64: ", "array<i32: ", "array<index: ", "loc(",
    "#loc", "unit", "true", "false", ": i64", ": i32", "->", "?", "arith.constant",
    "arith.addf", "arith.mulf", "arith.addi", "arith.cmpi", "arith.select", "math.exp",
    "scf.for", "scf.yield", "scf.if", "gpu.module", "gpu.func", "kernel", "//! ", "// -----",
    "expected-error", "@+1 {{", "}}", "sm_80", "sm_89", "sm_90", "sm_90a", "sync", "wgmma",
    NULL};

/* Tuning caches (lib/tune.c, docs/tune-cache.md), after fuzz-opt's `//--- tune-cache`. */
static const char *const tuneWords[] = {"\n//--- tune-cache\n", "tt-tune-cache 1", "arch ",
                                        "device ", "dot ", " : ", " nk", " kn", "f16xf16",
                                        "bf16xbf16", NULL};

static void printEntry(const char *w) {
  putchar('"');
  for (const char *p = w; *p; p++) {
    if (*p == '\n') { /* libFuzzer's dictionary escapes bytes as \xNN */
      fputs("\\x0A", stdout);
      continue;
    }
    if (*p == '"' || *p == '\\')
      putchar('\\');
    putchar(*p);
  }
  puts("\"");
}

int main(void) {
  int n;
  const TtDialectInfo *d = ttDialects(&n);
  for (int i = 0; i < n; i++)
    addDialect(&d[i]);
  addPasses();
  addRuntime();
  for (int i = 0; metaWords[i]; i++)
    add(metaWords[i]);
  for (int i = 0; mlirWords[i]; i++)
    add(mlirWords[i]);
  for (int i = 0; tuneWords[i]; i++)
    add(tuneWords[i]);
  printf("# tt.dict - libFuzzer dictionary of tt's fuzz harnesses (docs/fuzzing.md).\n"
         "# Generated by tt-fuzz-dict (test/fuzz/gen-dict.c) from the dialects' IRDL, the\n"
         "# pass registry and the runtime's tables; do not edit: regenerate with\n"
         "#   build/tt-fuzz-dict > test/fuzz/tt.dict\n");
  for (int i = 0; i < nwords; i++)
    printEntry(words[i]);
  return 0;
}
