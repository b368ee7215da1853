/* meta.c - parser of the launch metadata (docs/metadata.md): the file and
 * its line kinds.
 *
 * Reads the `//@` lines of a tt PTX file into a TtrtMeta: tensors, the prim
 * program, launches and their arguments, with grid sizes and integer
 * arguments kept as expression trees that ttrtExprEval evaluates for the
 * tensor shapes. Each line is split into tokens and dispatched on its first
 * (kLineKinds), which also fixes the order the kinds must come in: tt-meta,
 * tensor, prim, then launch/arg/zero. A tensor line puts its id in an
 * open-addressing map to its slot; later lines refer to tensors by `%id`
 * through it. After the last line, whole-file checks: input and output
 * indices 0..n-1, every output and const computed by a prim line. Every
 * error names the line and what is wrong with it. prim lines are parsed in
 * prim.c and expressions in expr.c (parse.h); ttrtMetaPrint writes the
 * parsed form back in the same syntax. ttrtPtxEntryParams reads the other
 * part of the file a launch needs: how many parameters a kernel's `.entry`
 * declares.
 */
#define _POSIX_C_SOURCE 200809L
#include "parse.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/*===------------------------------------------------------------------===*
 * Names
 *===------------------------------------------------------------------===*/

static const char *const kRoleNames[] = {"input", "output", "temp", "const"};
static const char *const kArgKindNames[] = {"ptr", "i32", "i64", "f32", "tma"};

const char *ttrtRoleGetName(TtrtRole role) { return kRoleNames[role]; }
const char *ttrtArgKindGetName(TtrtArgKind k) { return kArgKindNames[k]; }

/* The newest format version this parser reads (docs/metadata.md). */
#define MAX_VERSION 10

/*===------------------------------------------------------------------===*
 * Tensor id map (open addressing, id -> slot + 1)
 *===------------------------------------------------------------------===*/

/* The home bucket of `id` in a table of `size` (a power of two). */
static int idBucket(int64_t id, int size) {
  uint64_t h = (uint64_t)id * 0x9E3779B97F4A7C15ull;
  return (int)(h >> 32) & (size - 1);
}

/* Inserts slot `slot` under its tensor's id; the table has room. */
static void idTableInsert(TtrtMeta *meta, int slot) {
  int b = idBucket(meta->tensors[slot].id, meta->idTableSize);
  while (meta->idTable[b] != 0)
    b = (b + 1) & (meta->idTableSize - 1);
  meta->idTable[b] = slot + 1;
}

int ttrtMetaFindTensor(const TtrtMeta *meta, int64_t id) {
  if (meta->idTableSize == 0)
    return -1;
  int b = idBucket(id, meta->idTableSize);
  while (meta->idTable[b] != 0) {
    int slot = meta->idTable[b] - 1;
    if (meta->tensors[slot].id == id)
      return slot;
    b = (b + 1) & (meta->idTableSize - 1);
  }
  return -1;
}

/* Makes the id table hold at most half-full for `count` tensors. */
static bool idTableReserve(TtrtMeta *meta, int count) {
  if (2 * count <= meta->idTableSize)
    return true;
  int size = 16;
  while (size < 2 * count)
    size *= 2;
  int *table = calloc((size_t)size, sizeof *table);
  if (!table)
    return false;
  free(meta->idTable);
  meta->idTable = table;
  meta->idTableSize = size;
  for (int slot = 0; slot < meta->numTensors; ++slot)
    idTableInsert(meta, slot);
  return true;
}

/*===------------------------------------------------------------------===*
 * Parser state
 *===------------------------------------------------------------------===*/

/* Grows *array (of *cap elements of `size` bytes) to hold `need`. */
static bool growArray(void **array, int *cap, int need, size_t size) {
  if (need <= *cap)
    return true;
  int newCap = *cap ? *cap : 8;
  while (newCap < need)
    newCap *= 2;
  void *grown = realloc(*array, (size_t)newCap * size);
  if (!grown)
    return false;
  *array = grown;
  *cap = newCap;
  return true;
}

int mpAppend(Parser *p, void **array, int *count, int *cap, size_t size) {
  if (!growArray(array, cap, *count + 1, size)) {
    FAIL(p, "out of memory");
    return -1;
  }
  memset((char *)*array + (size_t)*count * size, 0, size);
  return (*count)++;
}

TtrtStatus mpResolveId(Parser *p, const char *token, int *slot) {
  int64_t id;
  if (!mpParseId(token, strlen(token), &id))
    return FAIL(p, "bad tensor id '%s' (expected %% and a decimal number)",
                token);
  *slot = ttrtMetaFindTensor(p->meta, id);
  if (*slot < 0)
    return FAIL(p, "%s has no tensor line", token);
  return TTRT_SUCCESS;
}

TtrtStatus mpStartDefinitions(Parser *p) {
  if (p->definedAt)
    return TTRT_SUCCESS;
  p->definedAt = calloc((size_t)p->meta->numTensors + 1, sizeof(int));
  if (!p->definedAt)
    return FAIL(p, "out of memory");
  for (int slot = 0; slot < p->meta->numTensors; ++slot)
    if (p->meta->tensors[slot].role == TTRT_ROLE_INPUT)
      p->definedAt[slot] = p->meta->tensors[slot].line;
  return TTRT_SUCCESS;
}

/*===------------------------------------------------------------------===*
 * tt-meta and tensor lines
 *===------------------------------------------------------------------===*/

/* tt-meta VERSION arch ARCH */
static TtrtStatus parseMetaLine(Parser *p) {
  int64_t version;
  if (p->numTokens != 4 || strcmp(p->tokens[2], "arch") != 0)
    return FAIL(p, "'tt-meta' line must be: tt-meta VERSION arch ARCH");
  if (!mpParseUnsignedToken(p->tokens[1], INT_MAX, &version))
    return FAIL(p, "bad metadata version '%s'", p->tokens[1]);
  if (version < 1 || version > MAX_VERSION)
    return FAIL(p, "unsupported metadata version %lld (this runtime reads "
                   "versions 1 to %d)",
                (long long)version, MAX_VERSION);
  if (strlen(p->tokens[3]) >= sizeof p->meta->arch)
    return FAIL(p, "arch name '%s' is too long", p->tokens[3]);
  p->meta->version = (int)version;
  strcpy(p->meta->arch, p->tokens[3]);
  return TTRT_SUCCESS;
}

/* Parses SHAPE: `scalar` or dimensions joined by `x`, each an integer >= 1
 * or (format 6) a symbolic size, `?` or a name (dims.c), or (format 7) a name
 * times an integer >= 2 (`s0*8`: a dim that merges a dynamic one with static
 * ones), whose multiplier goes to scale[d] (1 for every other dim). */
static TtrtStatus parseShape(Parser *p, const char *token, TtrtShape *shape,
                             int64_t *scale) {
  shape->rank = 0;
  if (strcmp(token, "scalar") == 0)
    return TTRT_SUCCESS;
  const char *s = token;
  int64_t numel = 1;
  for (;;) {
    size_t n = strcspn(s, "x");
    int64_t d, mult = 1;
    bool symbolic = n > 0 && (s[0] == '?' || (s[0] >= 'a' && s[0] <= 'z'));
    const char *star = symbolic ? memchr(s, '*', n) : NULL;
    if (star && s[0] == '?')
      return FAIL(p, "bad multiple '%.*s' (expected NAME*N: '?' takes no multiple)",
                  (int)n, s);
    if (star) { /* NAME*N */
      size_t k = (size_t)(star - s);
      if (p->meta->version < 7)
        return FAIL(p, "a multiple of a symbolic size ('%.*s') needs metadata "
                       "version 7 (this file is version %d)",
                    (int)n, s, p->meta->version);
      if (!mpParseUnsigned(star + 1, n - k - 1, INT64_MAX, &mult) || mult < 2)
        return FAIL(p, "bad multiple '%.*s' (expected NAME*N, N an integer >= 2)",
                    (int)n, s);
      n = k;
    }
    if (symbolic) {
      if ((d = mpSymbolDim(p, s, n)) == 0)
        return TTRT_FAILURE;
      if (star)
        n = (size_t)(strcspn(s, "x"));
    } else if (!mpParseUnsigned(s, n, INT64_MAX, &d) || d == 0) {
      return FAIL(p, "bad shape '%s' (expected dimensions >= 1 or symbolic "
                     "sizes joined by 'x', or 'scalar')",
                  token);
    }
    if (shape->rank == TTRT_MAX_RANK)
      return FAIL(p, "shape '%s' has more than %d dimensions", token,
                  TTRT_MAX_RANK);
    if (d > 0 && d > INT64_MAX / numel)
      return FAIL(p, "shape '%s' has more than 2^63 elements", token);
    numel *= d > 0 ? d : 1;
    scale[shape->rank] = mult;
    shape->dims[shape->rank++] = d;
    if (s[n] == '\0')
      return TTRT_SUCCESS;
    s += n + 1;
  }
}

/* Checks that no earlier input/output has the same index. */
static TtrtStatus checkIndexUnused(Parser *p, const TtrtTensor *t) {
  for (int i = 0; i < p->meta->numTensors - 1; ++i) {
    const TtrtTensor *o = &p->meta->tensors[i];
    if (o->role == t->role && o->index == t->index)
      return FAIL(p, "%s index %d is already used by %%%lld (line %d)",
                  kRoleNames[t->role], t->index, (long long)o->id, o->line);
  }
  return TTRT_SUCCESS;
}

/* Parses the tokens of a tensor line into *t (already appended). */
static TtrtStatus parseTensorFields(Parser *p, TtrtTensor *t) {
  char **tok = p->tokens;
  int role = mpLookupName(kRoleNames, 4, tok[2]);
  if (role < 0)
    return FAIL(p, "unknown role '%s' (expected input, output, temp or const)",
                tok[2]);
  t->role = (TtrtRole)role;
  bool indexed = t->role == TTRT_ROLE_INPUT || t->role == TTRT_ROLE_OUTPUT;
  if (p->numTokens != (indexed ? 6 : 5))
    return FAIL(p, "'tensor' line must be: tensor ID %s%s DTYPE SHAPE",
                kRoleNames[role], indexed ? " INDEX" : "");
  int64_t index = -1;
  if (indexed && !mpParseUnsignedToken(tok[3], INT_MAX - 1, &index))
    return FAIL(p, "bad %s index '%s'", kRoleNames[role], tok[3]);
  t->index = (int)index;
  const char *dtype = tok[indexed ? 4 : 3];
  if (!ttrtDtypeParse(dtype, &t->dtype)) {
    char names[256];
    Buf b = {names, sizeof names, 0};
    names[0] = '\0';
    for (int i = 0; i < TTRT_DTYPE_COUNT; ++i)
      mpBufPrintf(&b, " %s", ttrtDtypeGetName((TtrtDtype)i));
    return FAIL(p, "unknown dtype '%s' (expected one of%s)", dtype, names);
  }
  if (parseShape(p, tok[indexed ? 5 : 4], &t->declared, t->scale))
    return TTRT_FAILURE;
  t->shape = t->declared;
  return indexed ? checkIndexUnused(p, t) : TTRT_SUCCESS;
}

/* tensor ID ROLE [INDEX] DTYPE SHAPE */
static TtrtStatus parseTensorLine(Parser *p) {
  int64_t id;
  if (p->numTokens < 5)
    return FAIL(p, "'tensor' line must be: tensor ID ROLE [INDEX] DTYPE "
                   "SHAPE");
  const char *idText = p->tokens[1];
  if (!mpParseId(idText, strlen(idText), &id))
    return FAIL(p, "bad tensor id '%s' (expected %% and a decimal number)",
                idText);
  int old = ttrtMetaFindTensor(p->meta, id);
  if (old >= 0)
    return FAIL(p, "tensor %s is already declared on line %d", idText,
                p->meta->tensors[old].line);
  int slot = APPEND(p, tensors, numTensors, capTensors);
  if (slot < 0)
    return TTRT_FAILURE;
  TtrtTensor *t = &p->meta->tensors[slot];
  t->id = id;
  t->line = p->line;
  if (parseTensorFields(p, t))
    return TTRT_FAILURE;
  if (!idTableReserve(p->meta, p->meta->numTensors))
    return FAIL(p, "out of memory");
  idTableInsert(p->meta, slot);
  return TTRT_SUCCESS;
}

/*===------------------------------------------------------------------===*
 * launch and arg lines
 *===------------------------------------------------------------------===*/

/* Parses a positive (or, with allowZero, non-negative) uint32 token. */
static TtrtStatus parseU32(Parser *p, const char *token, const char *what,
                           bool allowZero, uint32_t *out) {
  int64_t v;
  if (!mpParseUnsignedToken(token, UINT32_MAX, &v) || (!allowZero && v == 0))
    return FAIL(p, "bad %s '%s' (expected an integer from %d to %u)", what,
                token, allowZero ? 0 : 1, UINT32_MAX);
  *out = (uint32_t)v;
  return TTRT_SUCCESS;
}

/* LO..HI or LO.. (no upper bound) of a `when` clause. */
static TtrtStatus parseWhenRange(Parser *p, const char *token, TtrtLaunch *l) {
  const char *dots = strstr(token, "..");
  int64_t lo, hi = INT64_MAX;
  if (!dots || !mpParseUnsigned(token, (size_t)(dots - token), INT64_MAX, &lo) ||
      (dots[2] != '\0' && !mpParseUnsignedToken(dots + 2, INT64_MAX, &hi)) ||
      hi < lo)
    return FAIL(p, "bad 'when' range '%s' (expected LO..HI or LO.., LO <= HI)",
                token);
  l->whenLo = lo;
  l->whenHi = hi;
  return TTRT_SUCCESS;
}

/* launch KERNEL grid GX GY GZ block BX BY BZ shared BYTES [pdl] [once]
 *        [cluster C] [when EXPR in LO..HI] */
static TtrtStatus parseLaunchLine(Parser *p) {
  char **tok = p->tokens;
  if (mpStartDefinitions(p))
    return TTRT_FAILURE;
  int n = p->numTokens;
  bool when = n >= 16 && strcmp(tok[n - 4], "when") == 0 &&
              strcmp(tok[n - 2], "in") == 0;
  int base = when ? n - 4 : n; /* tokens before the when clause */
  bool cluster = base >= 14 && strcmp(tok[base - 2], "cluster") == 0;
  const char *clusterSize = cluster ? tok[base - 1] : NULL;
  base -= cluster ? 2 : 0;
  bool once = base >= 13 && strcmp(tok[base - 1], "once") == 0;
  base -= once;
  bool pdl = base == 13 && strcmp(tok[12], "pdl") == 0;
  if ((base != 12 && !pdl) || strcmp(tok[2], "grid") != 0 ||
      strcmp(tok[6], "block") != 0 || strcmp(tok[10], "shared") != 0)
    return FAIL(p, "'launch' line must be: launch KERNEL grid GX GY GZ block "
                   "BX BY BZ shared BYTES [pdl] [once] [cluster C] [when EXPR in LO..HI]");
  if (cluster && p->meta->version < 10)
    return FAIL(p, "'cluster' launches need metadata version 10 (this file is "
                   "version %d)",
                p->meta->version);
  uint32_t clusterBlocks = 1;
  if (cluster && (parseU32(p, clusterSize, "cluster size", false, &clusterBlocks) ||
                  clusterBlocks > 8))
    return clusterBlocks > 8
               ? FAIL(p, "bad cluster size '%s' (expected an integer from 1 to 8)", clusterSize)
               : TTRT_FAILURE;
  if (once && p->meta->version < 9)
    return FAIL(p, "'once' launches need metadata version 9 (this file is "
                   "version %d)",
                p->meta->version);
  if (pdl && p->meta->version < 5)
    return FAIL(p, "'pdl' launches need metadata version 5 (this file is "
                   "version %d)",
                p->meta->version);
  if (when && p->meta->version < 6)
    return FAIL(p, "'when' clauses need metadata version 6 (this file is "
                   "version %d)",
                p->meta->version);
  int i = APPEND(p, launches, numLaunches, capLaunches);
  if (i < 0)
    return TTRT_FAILURE;
  TtrtLaunch *l = &p->meta->launches[i];
  l->line = p->line;
  l->pdl = pdl;
  l->once = once;
  l->cluster = clusterBlocks;
  l->when = -1;
  l->firstArg = p->meta->numArgs;
  l->firstZero = p->meta->numZeros - p->pendingZeros;
  l->numZeros = p->pendingZeros;
  p->pendingZeros = 0;
  l->kernel = strdup(tok[1]);
  if (!l->kernel)
    return FAIL(p, "out of memory");
  for (int k = 0; k < 3; ++k) {
    /* Parsing may grow meta->exprs but never meta->launches: l stays. */
    l->grid[k] = mpParseExpression(p, tok[3 + k]);
    if (l->grid[k] < 0 || parseU32(p, tok[7 + k], "block size", false,
                                   &l->block[k]))
      return TTRT_FAILURE;
  }
  if (when && ((l->when = mpParseExpression(p, tok[n - 3])) < 0 ||
               parseWhenRange(p, tok[n - 1], l)))
    return TTRT_FAILURE;
  return parseU32(p, tok[11], "shared memory size", true, &l->shared);
}

/* Parses the VALUE of an arg line of kind `a->kind`. */
static TtrtStatus parseArgValue(Parser *p, TtrtArg *a, const char *value) {
  double f;
  switch (a->kind) {
  case TTRT_ARG_PTR:
    return mpResolveId(p, value, &a->tensor);
  case TTRT_ARG_F32:
    if (!mpParseDouble(value, &f))
      return FAIL(p, "bad f32 value '%s'", value);
    a->f32 = (float)f;
    return TTRT_SUCCESS;
  default:
    a->expr = mpParseExpression(p, value);
    return a->expr < 0 ? TTRT_FAILURE : TTRT_SUCCESS;
  }
}

/* ROWSxCOLS of positive integers up to `max`; with `rowsOpen`, ROWS may be `?` (format
 * 6: numel / COLS rows, at run time), stored as -1. */
static bool parsePair(const char *s, int64_t max, bool rowsOpen, int64_t out[2]) {
  char *end;
  long long r;
  if (rowsOpen && s[0] == '?') {
    r = -1;
    end = (char *)s + 1;
  } else {
    r = strtoll(s, &end, 10);
    if (end == s || r < 1 || r > max)
      return false;
  }
  if (*end != 'x')
    return false;
  const char *c = end + 1;
  long long n = strtoll(c, &end, 10);
  if (end == c || *end || n < 1 || n > max)
    return false;
  out[0] = r;
  out[1] = n;
  return true;
}

/* arg tma ID [BATCHx]ROWSxCOLS box ROWSxCOLS: a tensor map of tensor ID (f16/bf16 or fp8,
 * viewed as a row-major ROWS x COLS matrix, or from format 8 as BATCH such matrices one
 * after another: a rank-3 map whose boxes stay within one matrix) whose boxes are R x C,
 * swizzled by 128 bytes (C of at most 128 bytes). ROWS may be `?` (format 6, matrices
 * only): numel / COLS rows at run time, checked by ttrtMetaResolve. */
static TtrtStatus parseTmaArg(Parser *p, TtrtArg *a) {
  if (mpResolveId(p, p->tokens[2], &a->tensor))
    return TTRT_FAILURE;
  const TtrtTensor *t = &p->meta->tensors[a->tensor];
  if (t->dtype != TTRT_DTYPE_F16 && t->dtype != TTRT_DTYPE_BF16 &&
      t->dtype != TTRT_DTYPE_F8E4M3 && t->dtype != TTRT_DTYPE_F8E5M2)
    return FAIL(p, "'arg tma' needs an f16, bf16, f8E4M3FN or f8E5M2 tensor");
  const char *dims = p->tokens[3];
  a->tmaBatch = 0;
  if (p->meta->version >= 8 && strchr(dims, 'x') != strrchr(dims, 'x')) { /* BATCHx... */
    char *end;
    long long b = strtoll(dims, &end, 10);
    if (end == dims || *end != 'x' || b < 1 || b > INT32_MAX)
      return FAIL(p, "'arg tma' line must be: arg tma ID [BATCHx]ROWSxCOLS box ROWSxCOLS");
    a->tmaBatch = b;
    dims = end + 1;
  }
  if (!parsePair(dims, INT32_MAX, p->meta->version >= 6 && !a->tmaBatch, a->tmaDims) ||
      strcmp(p->tokens[4], "box") || !parsePair(p->tokens[5], 256, false, a->tmaBox))
    return FAIL(p, "'arg tma' line must be: arg tma ID %sROWSxCOLS box ROWSxCOLS",
                p->meta->version >= 8 ? "[BATCHx]" : "");
  if (a->tmaBatch && (a->tmaBox[0] > a->tmaDims[0] ||
                      a->tmaDims[0] * a->tmaDims[1] > INT64_MAX / a->tmaBatch))
    return FAIL(p, "'arg tma' batched map: a box of at most ROWS rows, BATCH x ROWS x COLS "
                   "within 2^63 - 1");

  bool symbolic = false; /* the tensor's sizes are bound later: ttrtMetaResolve checks */
  for (int d = 0; d < t->declared.rank; ++d)
    symbolic |= t->declared.dims[d] < 0;
  if (a->tmaBatch && symbolic)
    return FAIL(p, "'arg tma' batched map needs a tensor of static shape");
  if (!symbolic && a->tmaDims[0] < 0 && ttrtShapeGetNumel(&t->shape) % a->tmaDims[1])
    return FAIL(p, "'arg tma' matrix ?x%lld does not hold the %lld elements of the tensor "
                   "in whole rows",
                (long long)a->tmaDims[1], (long long)ttrtShapeGetNumel(&t->shape));
  int64_t batch = a->tmaBatch ? a->tmaBatch : 1;
  if (!symbolic && a->tmaDims[0] > 0 &&
      batch * a->tmaDims[0] * a->tmaDims[1] != ttrtShapeGetNumel(&t->shape))
    return FAIL(p, "'arg tma' matrix %lldx%lld%s does not hold the %lld elements of the "
                   "tensor",
                (long long)a->tmaDims[0], (long long)a->tmaDims[1],
                a->tmaBatch ? " (each of the batch)" : "",
                (long long)ttrtShapeGetNumel(&t->shape));
  int64_t eb = (int64_t)ttrtDtypeGetSize(t->dtype);
  if ((a->tmaDims[1] * eb) % 16 || a->tmaBox[1] * eb > 128)
    return FAIL(p, "'arg tma' needs rows of a multiple of 16 bytes and boxes of at most "
                   "128 bytes a row");
  return TTRT_SUCCESS;
}

/* arg KIND VALUE */
static TtrtStatus parseArgLine(Parser *p) {
  if (p->meta->numLaunches == 0)
    return FAIL(p, "'arg' line before any 'launch' line");
  if (p->pendingZeros)
    return FAIL(p, "'arg' line after a 'zero' line (a 'zero' line belongs to "
                   "the 'launch' line after it, and a launch's 'arg' lines "
                   "follow it)");
  if (p->numTokens < 2) /* (tokens[1] would be the last line's, freed) */
    return FAIL(p, "'arg' line must be: arg KIND VALUE");
  int kind = mpLookupName(kArgKindNames, 5, p->tokens[1]);
  if (kind < 0)
    return FAIL(p, "unknown arg kind '%s' (expected ptr, i32, i64, f32 or tma)",
                p->tokens[1]);
  if (kind == TTRT_ARG_TMA && p->numTokens != 6)
    return FAIL(p, "'arg tma' line must be: arg tma ID ROWSxCOLS box ROWSxCOLS");
  if (kind != TTRT_ARG_TMA && p->numTokens != 3)
    return FAIL(p, "'arg' line must be: arg KIND VALUE");
  if (kind == TTRT_ARG_TMA && p->meta->version < 4) /* 3 passed them by pointer */
    return FAIL(p, "'arg tma' lines need metadata version 4 (tensor maps passed by "
                   "value; this file is version %d: compile it again)",
                p->meta->version);
  int i = APPEND(p, args, numArgs, capArgs);
  if (i < 0)
    return TTRT_FAILURE;
  TtrtArg *a = &p->meta->args[i];
  a->kind = (TtrtArgKind)kind;
  a->tensor = -1;
  a->expr = -1;
  a->line = p->line;
  p->meta->launches[p->meta->numLaunches - 1].numArgs++;
  if (kind == TTRT_ARG_TMA)
    return parseTmaArg(p, a);
  return parseArgValue(p, a, p->tokens[2]);
}

/* zero ID (format version 2) */
static TtrtStatus parseZeroLine(Parser *p) {
  if (p->meta->version < 2)
    return FAIL(p, "'zero' lines need metadata version 2 (this file is "
                   "version %d)",
                p->meta->version);
  if (p->numTokens != 2)
    return FAIL(p, "'zero' line must be: zero ID");
  int slot;
  if (mpResolveId(p, p->tokens[1], &slot))
    return TTRT_FAILURE;
  const TtrtTensor *t = &p->meta->tensors[slot];
  if (t->role == TTRT_ROLE_INPUT || t->role == TTRT_ROLE_CONST)
    return FAIL(p, "%s is %s tensor; only outputs and temps can be zeroed",
                p->tokens[1],
                t->role == TTRT_ROLE_INPUT ? "an input" : "a const");
  int i = APPEND(p, zeros, numZeros, capZeros);
  if (i < 0)
    return TTRT_FAILURE;
  p->meta->zeros[i] = (TtrtZero){slot, p->line};
  p->pendingZeros++;
  return TTRT_SUCCESS;
}

/*===------------------------------------------------------------------===*
 * Lines and the file
 *===------------------------------------------------------------------===*/

typedef TtrtStatus (*LineParser)(Parser *);

typedef struct LineKind {
  const char *name;
  Phase phase;
  LineParser parse;
} LineKind;

static const LineKind kLineKinds[] = {
    {"tt-meta", PHASE_META, parseMetaLine},
    {"tensor", PHASE_TENSOR, parseTensorLine},
    {"prim", PHASE_PRIM, mpParsePrimLine},
    {"launch", PHASE_LAUNCH, parseLaunchLine},
    {"arg", PHASE_LAUNCH, parseArgLine},
    {"zero", PHASE_LAUNCH, parseZeroLine},
};

/* Splits `text` (modified in place) into p->tokens at spaces and tabs. */
static TtrtStatus tokenize(Parser *p, char *text) {
  p->numTokens = 0;
  char *s = text;
  for (;;) {
    s += strspn(s, " \t\r");
    if (*s == '\0')
      return TTRT_SUCCESS;
    if (p->numTokens == MAX_TOKENS)
      return FAIL(p, "more than %d tokens on one line", MAX_TOKENS);
    p->tokens[p->numTokens++] = s;
    s += strcspn(s, " \t\r");
    if (*s != '\0')
      *s++ = '\0';
  }
}

/* Checks the kind of line comes in its place in the order, then parses it. */
static TtrtStatus dispatchLine(Parser *p) {
  if (p->numTokens == 0)
    return FAIL(p, "empty metadata line");
  const LineKind *kind = NULL;
  for (size_t i = 0; i < sizeof kLineKinds / sizeof *kLineKinds; ++i)
    if (strcmp(kLineKinds[i].name, p->tokens[0]) == 0)
      kind = &kLineKinds[i];
  if (!kind)
    return FAIL(p, "unknown metadata line kind '%s'", p->tokens[0]);
  if (p->phase == PHASE_NONE && kind->phase != PHASE_META)
    return FAIL(p, "the first metadata line must be 'tt-meta', not '%s'",
                kind->name);
  if (p->phase == PHASE_META && kind->phase == PHASE_META)
    return FAIL(p, "a second 'tt-meta' line");
  if (kind->phase < p->phase)
    return FAIL(p, "'%s' line after a '%s' line (the order is tt-meta, "
                   "tensor, prim, launch/arg/zero)",
                kind->name, p->phaseKind);
  p->phase = kind->phase;
  p->phaseKind = kind->name;
  return kind->parse(p);
}

/* Parses one `//@` line: `text` holds what follows the `//@`. */
static TtrtStatus parseLine(Parser *p, const char *text, size_t length) {
  char *copy = malloc(length + 1);
  if (!copy)
    return FAIL(p, "out of memory");
  memcpy(copy, text, length);
  copy[length] = '\0';
  TtrtStatus s = tokenize(p, copy);
  if (s == TTRT_SUCCESS)
    s = dispatchLine(p);
  free(copy);
  return s;
}

/* Checks that the indices of `role` are 0..count-1 and fills `slots`. */
static TtrtStatus collectIndexed(Parser *p, TtrtRole role, int *count,
                                 int **slots) {
  TtrtMeta *m = p->meta;
  *count = 0;
  for (int i = 0; i < m->numTensors; ++i)
    *count += m->tensors[i].role == role;
  *slots = malloc(((size_t)*count + 1) * sizeof **slots);
  if (!*slots)
    return ttrtErrorSet(p->err, 0, "out of memory");
  for (int i = 0; i < *count; ++i)
    (*slots)[i] = -1;
  for (int i = 0; i < m->numTensors; ++i) {
    const TtrtTensor *t = &m->tensors[i];
    if (t->role != role)
      continue;
    if (t->index >= *count)
      return ttrtErrorSet(p->err, t->line,
                          "%s index %d but there are only %d %ss (indices "
                          "must be 0 to %d)",
                          kRoleNames[role], t->index, *count, kRoleNames[role],
                          *count - 1);
    (*slots)[t->index] = i;
  }
  return TTRT_SUCCESS;
}

/* Whole-file checks after the last line. */
static TtrtStatus finish(Parser *p) {
  TtrtMeta *m = p->meta;
  if (p->phase == PHASE_NONE)
    return ttrtErrorSet(p->err, 0, "no metadata: no '//@tt-meta' line");
  if (p->pendingZeros)
    return ttrtErrorSet(p->err, m->zeros[m->numZeros - p->pendingZeros].line,
                        "'zero' line with no 'launch' line after it");
  if (mpStartDefinitions(p) ||
      collectIndexed(p, TTRT_ROLE_INPUT, &m->numInputs, &m->inputs) ||
      collectIndexed(p, TTRT_ROLE_OUTPUT, &m->numOutputs, &m->outputs))
    return TTRT_FAILURE;
  for (int i = 0; i < m->numTensors; ++i) {
    const TtrtTensor *t = &m->tensors[i];
    bool mustBeDefined =
        t->role == TTRT_ROLE_OUTPUT || t->role == TTRT_ROLE_CONST;
    if (mustBeDefined && !p->definedAt[i])
      return ttrtErrorSet(p->err, t->line,
                          "%s %%%lld is not computed by any prim line",
                          kRoleNames[t->role], (long long)t->id);
  }
  m->resolved = m->numSymbols == 0; /* else ttrtMetaResolve, once bound */
  return m->resolved ? mpCheckExpressions(m, p->err) : TTRT_SUCCESS;
}

/* Runs the parser over every line of the text. */
static TtrtStatus parseText(Parser *p, const char *text, size_t length) {
  const char *end = text + length;
  for (const char *s = text; s < end;) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    const char *lineEnd = nl ? nl : end;
    ++p->line;
    if (lineEnd - s >= 3 && memcmp(s, "//@", 3) == 0 &&
        parseLine(p, s + 3, (size_t)(lineEnd - s - 3)))
      return TTRT_FAILURE;
    s = lineEnd + 1;
  }
  p->line = 0;
  return finish(p);
}

TtrtStatus ttrtMetaParse(const char *text, size_t length, TtrtMeta **out,
                         TtrtError *err) {
  Parser p;
  memset(&p, 0, sizeof p);
  p.err = err;
  p.meta = calloc(1, sizeof *p.meta);
  *out = NULL;
  if (!p.meta)
    return ttrtErrorSet(err, 0, "out of memory");
  TtrtStatus s = parseText(&p, text, length);
  free(p.definedAt);
  if (s != TTRT_SUCCESS) {
    ttrtMetaDestroy(p.meta);
    return s;
  }
  *out = p.meta;
  return TTRT_SUCCESS;
}

void ttrtMetaDestroy(TtrtMeta *meta) {
  if (!meta)
    return;
  for (int i = 0; i < meta->numLaunches; ++i)
    free(meta->launches[i].kernel);
  free(meta->tensors);
  free(meta->prims);
  free(meta->launches);
  free(meta->args);
  free(meta->zeros);
  free(meta->exprs);
  free(meta->inputs);
  free(meta->outputs);
  free(meta->idTable);
  free(meta);
}

/*===------------------------------------------------------------------===*
 * Printing
 *===------------------------------------------------------------------===*/

/* Prints an expression and its value (or `=?` if it cannot be evaluated). */
static void printExpr(const TtrtMeta *meta, int expr, FILE *file) {
  char text[512];
  int64_t value;
  ttrtExprFormat(meta, expr, text, sizeof text);
  if (ttrtExprEval(meta, expr, &value, NULL) == TTRT_SUCCESS)
    fprintf(file, "%s=%lld", text, (long long)value);
  else
    fprintf(file, "%s=?", text);
}

/* Prints one prim line. */
static void printPrim(const TtrtMeta *meta, const TtrtPrim *prim, FILE *file) {
  fprintf(file, "prim %%%lld = %s", (long long)meta->tensors[prim->result].id,
          ttrtOpGetName(prim->op));
  for (int i = 0; i < prim->numOperands; ++i)
    fprintf(file, " %%%lld", (long long)meta->tensors[prim->operands[i]].id);
  char attributes[512];
  Buf b = {attributes, sizeof attributes, 0};
  attributes[0] = '\0';
  mpFormatAttributes(prim, &b);
  fprintf(file, "%s\n", attributes);
}

/* Prints the zero lines before a launch, its launch line and its arg lines. */
static void printLaunch(const TtrtMeta *meta, const TtrtLaunch *l,
                        FILE *file) {
  for (int i = l->firstZero; i < l->firstZero + l->numZeros; ++i)
    fprintf(file, "zero %%%lld\n",
            (long long)meta->tensors[meta->zeros[i].tensor].id);
  fprintf(file, "launch %s grid", l->kernel);
  for (int k = 0; k < 3; ++k) {
    fprintf(file, " ");
    printExpr(meta, l->grid[k], file);
  }
  fprintf(file, " block %u %u %u shared %u%s%s", l->block[0], l->block[1],
          l->block[2], l->shared, l->pdl ? " pdl" : "", l->once ? " once" : "");
  if (l->cluster > 1)
    fprintf(file, " cluster %u", l->cluster);
  if (l->when >= 0) {
    fprintf(file, " when ");
    printExpr(meta, l->when, file);
    fprintf(file, " in %lld..", (long long)l->whenLo);
    if (l->whenHi < INT64_MAX)
      fprintf(file, "%lld", (long long)l->whenHi);
  }
  fprintf(file, "\n");
  for (int i = l->firstArg; i < l->firstArg + l->numArgs; ++i) {
    const TtrtArg *a = &meta->args[i];
    fprintf(file, "arg %s ", kArgKindNames[a->kind]);
    if (a->kind == TTRT_ARG_PTR)
      fprintf(file, "%%%lld", (long long)meta->tensors[a->tensor].id);
    else if (a->kind == TTRT_ARG_TMA) {
      char rows[24] = "?";
      if (a->tmaDims[0] > 0)
        snprintf(rows, sizeof rows, "%lld", (long long)a->tmaDims[0]);
      fprintf(file, "%%%lld ", (long long)meta->tensors[a->tensor].id);
      if (a->tmaBatch)
        fprintf(file, "%lldx", (long long)a->tmaBatch);
      fprintf(file, "%sx%lld box %lldx%lld", rows, (long long)a->tmaDims[1],
              (long long)a->tmaBox[0], (long long)a->tmaBox[1]);
    }
    else if (a->kind == TTRT_ARG_F32)
      fprintf(file, "%.9g", (double)a->f32);
    else
      printExpr(meta, a->expr, file);
    fprintf(file, "\n");
  }
}

void ttrtMetaPrint(const TtrtMeta *meta, FILE *file) {
  fprintf(file, "tt-meta %d arch %s\n", meta->version, meta->arch);
  for (int i = 0; i < meta->numTensors; ++i) {
    const TtrtTensor *t = &meta->tensors[i];
    char shape[256];
    ttrtMetaFormatScaledShape(meta, &t->declared, t->scale, shape, sizeof shape);
    fprintf(file, "tensor %%%lld %s", (long long)t->id, kRoleNames[t->role]);
    if (t->index >= 0)
      fprintf(file, " %d", t->index);
    fprintf(file, " %s %s\n", ttrtDtypeGetName(t->dtype), shape);
  }
  for (int i = 0; i < meta->numPrims; ++i)
    printPrim(meta, &meta->prims[i], file);
  for (int i = 0; i < meta->numLaunches; ++i)
    printLaunch(meta, &meta->launches[i], file);
}

long ttrtPtxEntryParams(const char *ptx, const char *name) {
  size_t n = strlen(name);
  for (const char *e = strstr(ptx, ".entry "); e; e = strstr(e + 1, ".entry ")) {
    const char *q = e + 7;
    while (*q == ' ' || *q == '\t')
      q++;
    if (strncmp(q, name, n) != 0)
      continue;
    q += n;
    while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')
      q++;
    if (*q != '(')
      continue; /* a longer name that starts with this one */
    long count = 0;
    for (q++; *q && *q != ')'; q++)
      if (strncmp(q, ".param", 6) == 0)
        count++;
    return *q == ')' ? count : -1;
  }
  return -1;
}
