/* meta.c - parser of the launch metadata (docs/metadata.md).
 *
 * Reads the `//@` lines of a tt PTX file into a TtrtMeta: tensors, the prim
 * program, launches and their arguments, with grid sizes and integer
 * arguments kept as expression trees that ttrtExprEval evaluates for the
 * tensor shapes. Every error names the line and what is wrong with it. Also
 * holds the shared helpers of meta.h: errors, dtypes and shapes.
 */
#define _POSIX_C_SOURCE 200809L
#include "meta.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
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
 * Names
 *===------------------------------------------------------------------===*/

static const char *const kDtypeNames[TTRT_DTYPE_COUNT] = {
    "f64", "f32", "f16", "bf16", "f8e4m3", "f8e5m2", "i1", "i8", "i32", "i64"};
static const size_t kDtypeSizes[TTRT_DTYPE_COUNT] = {8, 4, 2, 2, 1,
                                                     1, 1, 1, 4, 8};
static const char *const kRoleNames[] = {"input", "output", "temp", "const"};
static const char *const kDirectionNames[] = {"lt", "le", "gt",
                                              "ge", "eq", "ne"};
static const char *const kArgKindNames[] = {"ptr", "i32", "i64", "f32", "tma"};

/* The newest format version this parser reads (docs/metadata.md). */
#define MAX_VERSION 5

/* Most attributes an op takes. */
#define MAX_ATTRIBUTES 2

/* What the parser knows about each op: its name, how many operands it takes
 * and which attributes it requires, every one of them (NULL-padded). */
typedef struct OpInfo {
  const char *name;
  int numOperands;
  const char *attributes[MAX_ATTRIBUTES];
} OpInfo;

static const OpInfo kOps[TTRT_OP_COUNT] = {
    [TTRT_OP_NEG] = {"neg", 1, {NULL}},
    [TTRT_OP_ABS] = {"abs", 1, {NULL}},
    [TTRT_OP_EXP] = {"exp", 1, {NULL}},
    [TTRT_OP_EXP2] = {"exp2", 1, {NULL}},
    [TTRT_OP_LOG] = {"log", 1, {NULL}},
    [TTRT_OP_SQRT] = {"sqrt", 1, {NULL}},
    [TTRT_OP_RSQRT] = {"rsqrt", 1, {NULL}},
    [TTRT_OP_TANH] = {"tanh", 1, {NULL}},
    [TTRT_OP_ERF] = {"erf", 1, {NULL}},
    [TTRT_OP_SIN] = {"sin", 1, {NULL}},
    [TTRT_OP_COS] = {"cos", 1, {NULL}},
    [TTRT_OP_RECIPROCAL] = {"reciprocal", 1, {NULL}},
    [TTRT_OP_ADD] = {"add", 2, {NULL}},
    [TTRT_OP_SUB] = {"sub", 2, {NULL}},
    [TTRT_OP_MUL] = {"mul", 2, {NULL}},
    [TTRT_OP_DIV] = {"div", 2, {NULL}},
    [TTRT_OP_MAX] = {"max", 2, {NULL}},
    [TTRT_OP_MIN] = {"min", 2, {NULL}},
    [TTRT_OP_POW] = {"pow", 2, {NULL}},
    [TTRT_OP_COMPARE] = {"compare", 2, {"direction"}},
    [TTRT_OP_WHERE] = {"where", 3, {NULL}},
    [TTRT_OP_CONVERT] = {"convert", 1, {NULL}},
    [TTRT_OP_BROADCAST_IN_DIM] = {"broadcast_in_dim", 1, {"dims"}},
    [TTRT_OP_RESHAPE] = {"reshape", 1, {NULL}},
    [TTRT_OP_CONSTANT] = {"constant", 0, {"value"}},
    [TTRT_OP_TRANSPOSE] = {"transpose", 1, {"perm"}},
    [TTRT_OP_MATMUL] = {"matmul", 2, {NULL}},
    [TTRT_OP_SUM] = {"sum", 1, {"dims", "keepdim"}},
    [TTRT_OP_AMAX] = {"amax", 1, {"dims", "keepdim"}},
    [TTRT_OP_AMIN] = {"amin", 1, {"dims", "keepdim"}},
};

/* Index of `name` in a table of `count` names, or -1. */
static int lookupName(const char *const *names, int count, const char *name) {
  for (int i = 0; i < count; ++i)
    if (strcmp(names[i], name) == 0)
      return i;
  return -1;
}

bool ttrtDtypeParse(const char *name, TtrtDtype *out) {
  int i = lookupName(kDtypeNames, TTRT_DTYPE_COUNT, name);
  if (i < 0)
    return false;
  *out = (TtrtDtype)i;
  return true;
}

const char *ttrtDtypeGetName(TtrtDtype dtype) { return kDtypeNames[dtype]; }
size_t ttrtDtypeGetSize(TtrtDtype dtype) { return kDtypeSizes[dtype]; }
bool ttrtDtypeIsFloat(TtrtDtype dtype) { return dtype <= TTRT_DTYPE_F8E5M2; }
const char *ttrtRoleGetName(TtrtRole role) { return kRoleNames[role]; }
const char *ttrtOpGetName(TtrtOp op) { return kOps[op].name; }
bool ttrtOpIsReduction(TtrtOp op) {
  return op == TTRT_OP_SUM || op == TTRT_OP_AMAX || op == TTRT_OP_AMIN;
}
const char *ttrtArgKindGetName(TtrtArgKind k) { return kArgKindNames[k]; }
const char *ttrtDirectionGetName(TtrtDirection direction) {
  return kDirectionNames[direction];
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
  if (shape->rank == 0) {
    snprintf(buf, size, "scalar");
    return;
  }
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < shape->rank && used < size; ++i) {
    int n = snprintf(buf + used, size - used, "%s%lld", i ? "x" : "",
                     (long long)shape->dims[i]);
    if (n < 0)
      return;
    used += (size_t)n;
  }
}

/*===------------------------------------------------------------------===*
 * Small lexical helpers
 *===------------------------------------------------------------------===*/

/* Parses a non-empty run of decimal digits with value <= max. */
static bool parseUnsigned(const char *s, size_t length, int64_t max,
                          int64_t *out) {
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

/* Parses a whole token as a decimal integer in [0, max]. */
static bool parseUnsignedToken(const char *token, int64_t max, int64_t *out) {
  return parseUnsigned(token, strlen(token), max, out);
}

/* Parses `%N` (the first `length` chars of s) into N. */
static bool parseIdText(const char *s, size_t length, int64_t *out) {
  return length >= 2 && s[0] == '%' &&
         parseUnsigned(s + 1, length - 1, INT64_MAX, out);
}

/* Parses a whole token as a float (decimal, inf, -inf, nan). */
static bool parseDouble(const char *token, double *out) {
  char *end;
  errno = 0;
  *out = strtod(token, &end);
  return *token != '\0' && *end == '\0';
}

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

#define MAX_TOKENS 64

/* The order the line kinds must come in. */
typedef enum Phase {
  PHASE_NONE,
  PHASE_META,
  PHASE_TENSOR,
  PHASE_PRIM,
  PHASE_LAUNCH
} Phase;

typedef struct Parser {
  TtrtMeta *meta;
  TtrtError *err;
  int line;
  Phase phase;
  const char *phaseKind; /* line kind that set the phase */
  int *definedAt;        /* per slot: line of its definition, 0 if none */
  int capTensors, capPrims, capLaunches, capArgs, capZeros, capExprs;
  int pendingZeros; /* zero lines since the last launch line */
  int numTokens;
  char *tokens[MAX_TOKENS];
} Parser;

/* Reports an error on the current line. */
#define FAIL(p, ...) ttrtErrorSet((p)->err, (p)->line, __VA_ARGS__)

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

/* Appends one zeroed element to a TtrtMeta array; returns its index or -1. */
static int appendElement(Parser *p, void **array, int *count, int *cap,
                         size_t size) {
  if (!growArray(array, cap, *count + 1, size)) {
    FAIL(p, "out of memory");
    return -1;
  }
  memset((char *)*array + (size_t)*count * size, 0, size);
  return (*count)++;
}

#define APPEND(p, field, count, cap)                                           \
  appendElement((p), (void **)&(p)->meta->field, &(p)->meta->count,            \
                &(p)->cap, sizeof *(p)->meta->field)

/* Resolves a `%N` token to the slot of its tensor line. */
static TtrtStatus resolveId(Parser *p, const char *token, int *slot) {
  int64_t id;
  if (!parseIdText(token, strlen(token), &id))
    return FAIL(p, "bad tensor id '%s' (expected %% and a decimal number)",
                token);
  *slot = ttrtMetaFindTensor(p->meta, id);
  if (*slot < 0)
    return FAIL(p, "%s has no tensor line", token);
  return TTRT_SUCCESS;
}

/*===------------------------------------------------------------------===*
 * Expressions
 *===------------------------------------------------------------------===*/

typedef struct ExprParser {
  Parser *p;
  const char *text;
  size_t pos;
} ExprParser;

static int parseSum(ExprParser *e);

/* Reports a syntax error at the current position; returns -1. */
static int exprFail(ExprParser *e, const char *what) {
  FAIL(e->p, "bad expression '%s': %s at character %zu", e->text, what,
       e->pos + 1);
  return -1;
}

/* Adds an expression node; returns its index or -1. */
static int newExpr(ExprParser *e, TtrtExprKind kind, int64_t value, int tensor,
                   int lhs, int rhs) {
  Parser *p = e->p;
  int i = APPEND(p, exprs, numExprs, capExprs);
  if (i >= 0)
    p->meta->exprs[i] = (TtrtExpr){kind, value, tensor, lhs, rhs};
  return i;
}

/* Consumes `s` if the text continues with it. */
static bool exprAccept(ExprParser *e, const char *s) {
  size_t n = strlen(s);
  if (strncmp(e->text + e->pos, s, n) != 0)
    return false;
  e->pos += n;
  return true;
}

/* Parses a run of digits (at most `max`); -1 and an error if none. */
static bool exprInteger(ExprParser *e, int64_t max, int64_t *out) {
  size_t n = 0;
  while (isdigit((unsigned char)e->text[e->pos + n]))
    ++n;
  if (n == 0 || !parseUnsigned(e->text + e->pos, n, max, out)) {
    exprFail(e, n ? "integer too large" : "expected an integer");
    return false;
  }
  e->pos += n;
  return true;
}

/* Parses `%N` and resolves it to a tensor slot. */
static bool exprTensor(ExprParser *e, int *slot) {
  if (e->text[e->pos] != '%') {
    exprFail(e, "expected a tensor id");
    return false;
  }
  size_t n = 1;
  while (isdigit((unsigned char)e->text[e->pos + n]))
    ++n;
  int64_t id;
  if (!parseIdText(e->text + e->pos, n, &id)) {
    exprFail(e, "expected a tensor id");
    return false;
  }
  *slot = ttrtMetaFindTensor(e->p->meta, id);
  if (*slot < 0) {
    FAIL(e->p, "bad expression '%s': %%%lld has no tensor line", e->text,
         (long long)id);
    return false;
  }
  e->pos += n;
  return true;
}

/* Consumes `s` or reports that it was expected. */
static bool exprExpect(ExprParser *e, const char *s) {
  if (exprAccept(e, s))
    return true;
  char what[32];
  snprintf(what, sizeof what, "expected '%s'", s);
  exprFail(e, what);
  return false;
}

/* Parses the rest of `dim(%t,d)` after `dim(`. */
static int parseDim(ExprParser *e) {
  int slot;
  int64_t d;
  if (!exprTensor(e, &slot) || !exprExpect(e, ",") ||
      !exprInteger(e, INT_MAX, &d) || !exprExpect(e, ")"))
    return -1;
  const TtrtTensor *t = &e->p->meta->tensors[slot];
  if (d >= t->shape.rank) {
    FAIL(e->p, "bad expression '%s': %%%lld has rank %d, so it has no dim %lld",
         e->text, (long long)t->id, t->shape.rank, (long long)d);
    return -1;
  }
  return newExpr(e, TTRT_EXPR_DIM, d, slot, -1, -1);
}

/* Parses the rest of `cdiv(a,b)` after `cdiv(`. */
static int parseCdiv(ExprParser *e) {
  int lhs = parseSum(e);
  if (lhs < 0 || !exprExpect(e, ","))
    return -1;
  int rhs = parseSum(e);
  if (rhs < 0 || !exprExpect(e, ")"))
    return -1;
  return newExpr(e, TTRT_EXPR_CDIV, 0, -1, lhs, rhs);
}

/* term := INTEGER | numel(ID) | dim(ID,INTEGER) | cdiv(expr,expr) | (expr) */
static int parseTerm(ExprParser *e) {
  if (isdigit((unsigned char)e->text[e->pos])) {
    int64_t v;
    return exprInteger(e, INT64_MAX, &v)
               ? newExpr(e, TTRT_EXPR_INT, v, -1, -1, -1)
               : -1;
  }
  if (exprAccept(e, "numel(")) {
    int slot;
    if (!exprTensor(e, &slot) || !exprExpect(e, ")"))
      return -1;
    return newExpr(e, TTRT_EXPR_NUMEL, 0, slot, -1, -1);
  }
  if (exprAccept(e, "dim("))
    return parseDim(e);
  if (exprAccept(e, "cdiv("))
    return parseCdiv(e);
  if (exprAccept(e, "(")) {
    int inner = parseSum(e);
    return inner >= 0 && exprExpect(e, ")") ? inner : -1;
  }
  return exprFail(e, "expected an integer, numel(, dim(, cdiv( or (");
}

/* product := term ('*' term)* */
static int parseProduct(ExprParser *e) {
  int lhs = parseTerm(e);
  while (lhs >= 0 && exprAccept(e, "*")) {
    int rhs = parseTerm(e);
    lhs = rhs < 0 ? -1 : newExpr(e, TTRT_EXPR_MUL, 0, -1, lhs, rhs);
  }
  return lhs;
}

/* sum := product ('+' product)* */
static int parseSum(ExprParser *e) {
  int lhs = parseProduct(e);
  while (lhs >= 0 && exprAccept(e, "+")) {
    int rhs = parseProduct(e);
    lhs = rhs < 0 ? -1 : newExpr(e, TTRT_EXPR_ADD, 0, -1, lhs, rhs);
  }
  return lhs;
}

/* Parses a whole token as an expression; returns the root node or -1. */
static int parseExpression(Parser *p, const char *token) {
  ExprParser e = {p, token, 0};
  int root = parseSum(&e);
  if (root >= 0 && token[e.pos] != '\0')
    return exprFail(&e, "unexpected text");
  return root;
}

/* Adds a and b, or multiplies them, failing on int64 overflow. Operands are
 * never negative (the grammar has no minus). */
static bool checkedArith(TtrtExprKind kind, int64_t a, int64_t b,
                         int64_t *out) {
  if (kind == TTRT_EXPR_ADD) {
    if (a > INT64_MAX - b)
      return false;
    *out = a + b;
    return true;
  }
  if (a != 0 && b > INT64_MAX / a)
    return false;
  *out = a * b;
  return true;
}

/* Evaluates node `i`; on failure sets *why to a short reason. */
static bool evalNode(const TtrtMeta *meta, int i, int64_t *out,
                     const char **why) {
  const TtrtExpr *x = &meta->exprs[i];
  const TtrtShape *shape = x->tensor >= 0 ? &meta->tensors[x->tensor].shape
                                          : NULL;
  int64_t a, b;
  switch (x->kind) {
  case TTRT_EXPR_INT:
    *out = x->value;
    return true;
  case TTRT_EXPR_NUMEL:
    *out = ttrtShapeGetNumel(shape);
    return true;
  case TTRT_EXPR_DIM:
    if (x->value >= shape->rank) {
      *why = "dim() of a dimension the tensor does not have";
      return false;
    }
    *out = shape->dims[x->value];
    return true;
  default:
    break;
  }
  if (!evalNode(meta, x->lhs, &a, why) || !evalNode(meta, x->rhs, &b, why))
    return false;
  if (x->kind == TTRT_EXPR_CDIV) {
    if (b == 0) {
      *why = "division by zero in cdiv";
      return false;
    }
    *out = a / b + (a % b != 0);
    return true;
  }
  if (!checkedArith(x->kind, a, b, out)) {
    *why = "the value overflows int64";
    return false;
  }
  return true;
}

TtrtStatus ttrtExprEval(const TtrtMeta *meta, int expr, int64_t *out,
                        TtrtError *err) {
  const char *why = "";
  if (evalNode(meta, expr, out, &why))
    return TTRT_SUCCESS;
  char text[512];
  ttrtExprFormat(meta, expr, text, sizeof text);
  return ttrtErrorSet(err, 0, "expression '%s': %s", text, why);
}

/* A bounded string builder for formatting. */
typedef struct Buf {
  char *data;
  size_t size;
  size_t used;
} Buf;

/* Appends formatted text, truncating at the end of the buffer. */
static void bufPrintf(Buf *b, const char *fmt, ...) TTRT_PRINTF(2, 3);
static void bufPrintf(Buf *b, const char *fmt, ...) {
  if (b->used + 1 >= b->size)
    return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(b->data + b->used, b->size - b->used, fmt, ap);
  va_end(ap);
  if (n > 0)
    b->used += (size_t)n < b->size - b->used ? (size_t)n : b->size - b->used;
}

static void formatNode(const TtrtMeta *meta, int i, Buf *b);

/* Formats an operand of `*`, parenthesized if it is a sum. */
static void formatFactor(const TtrtMeta *meta, int i, Buf *b) {
  bool paren = meta->exprs[i].kind == TTRT_EXPR_ADD;
  bufPrintf(b, "%s", paren ? "(" : "");
  formatNode(meta, i, b);
  bufPrintf(b, "%s", paren ? ")" : "");
}

/* Appends the spelling of node `i`. */
static void formatNode(const TtrtMeta *meta, int i, Buf *b) {
  const TtrtExpr *x = &meta->exprs[i];
  long long id = x->tensor >= 0 ? (long long)meta->tensors[x->tensor].id : 0;
  switch (x->kind) {
  case TTRT_EXPR_INT:
    bufPrintf(b, "%lld", (long long)x->value);
    break;
  case TTRT_EXPR_NUMEL:
    bufPrintf(b, "numel(%%%lld)", id);
    break;
  case TTRT_EXPR_DIM:
    bufPrintf(b, "dim(%%%lld,%lld)", id, (long long)x->value);
    break;
  case TTRT_EXPR_CDIV:
    bufPrintf(b, "cdiv(");
    formatNode(meta, x->lhs, b);
    bufPrintf(b, ",");
    formatNode(meta, x->rhs, b);
    bufPrintf(b, ")");
    break;
  case TTRT_EXPR_ADD:
    formatNode(meta, x->lhs, b);
    bufPrintf(b, "+");
    formatNode(meta, x->rhs, b);
    break;
  case TTRT_EXPR_MUL:
    formatFactor(meta, x->lhs, b);
    bufPrintf(b, "*");
    formatFactor(meta, x->rhs, b);
    break;
  }
}

void ttrtExprFormat(const TtrtMeta *meta, int expr, char *buf, size_t size) {
  Buf b = {buf, size, 0};
  if (size == 0)
    return;
  buf[0] = '\0';
  formatNode(meta, expr, &b);
}

/*===------------------------------------------------------------------===*
 * tt-meta and tensor lines
 *===------------------------------------------------------------------===*/

/* tt-meta VERSION arch ARCH */
static TtrtStatus parseMetaLine(Parser *p) {
  int64_t version;
  if (p->numTokens != 4 || strcmp(p->tokens[2], "arch") != 0)
    return FAIL(p, "'tt-meta' line must be: tt-meta VERSION arch ARCH");
  if (!parseUnsignedToken(p->tokens[1], INT_MAX, &version))
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

/* Parses SHAPE: `scalar` or positive dimensions joined by `x`. */
static TtrtStatus parseShape(Parser *p, const char *token, TtrtShape *shape) {
  shape->rank = 0;
  if (strcmp(token, "scalar") == 0)
    return TTRT_SUCCESS;
  const char *s = token;
  int64_t numel = 1;
  for (;;) {
    size_t n = strcspn(s, "x");
    int64_t d;
    if (!parseUnsigned(s, n, INT64_MAX, &d) || d == 0)
      return FAIL(p, "bad shape '%s' (expected dimensions >= 1 joined by 'x', "
                     "or 'scalar')",
                  token);
    if (shape->rank == TTRT_MAX_RANK)
      return FAIL(p, "shape '%s' has more than %d dimensions", token,
                  TTRT_MAX_RANK);
    if (d > INT64_MAX / numel)
      return FAIL(p, "shape '%s' has more than 2^63 elements", token);
    numel *= d;
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
  int role = lookupName(kRoleNames, 4, tok[2]);
  if (role < 0)
    return FAIL(p, "unknown role '%s' (expected input, output, temp or const)",
                tok[2]);
  t->role = (TtrtRole)role;
  bool indexed = t->role == TTRT_ROLE_INPUT || t->role == TTRT_ROLE_OUTPUT;
  if (p->numTokens != (indexed ? 6 : 5))
    return FAIL(p, "'tensor' line must be: tensor ID %s%s DTYPE SHAPE",
                kRoleNames[role], indexed ? " INDEX" : "");
  int64_t index = -1;
  if (indexed && !parseUnsignedToken(tok[3], INT_MAX - 1, &index))
    return FAIL(p, "bad %s index '%s'", kRoleNames[role], tok[3]);
  t->index = (int)index;
  const char *dtype = tok[indexed ? 4 : 3];
  if (!ttrtDtypeParse(dtype, &t->dtype))
    return FAIL(p, "unknown dtype '%s' (expected one of f64 f32 f16 bf16 "
                   "f8e4m3 f8e5m2 i1 i8 i32 i64)",
                dtype);
  if (parseShape(p, tok[indexed ? 5 : 4], &t->shape))
    return TTRT_FAILURE;
  return indexed ? checkIndexUnused(p, t) : TTRT_SUCCESS;
}

/* tensor ID ROLE [INDEX] DTYPE SHAPE */
static TtrtStatus parseTensorLine(Parser *p) {
  int64_t id;
  if (p->numTokens < 5)
    return FAIL(p, "'tensor' line must be: tensor ID ROLE [INDEX] DTYPE "
                   "SHAPE");
  const char *idText = p->tokens[1];
  if (!parseIdText(idText, strlen(idText), &id))
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
 * prim lines
 *===------------------------------------------------------------------===*/

/* The name of the attribute that holds prim->dims: `perm` for transpose,
 * `dims` for broadcast_in_dim and the reductions. */
static const char *dimsKey(TtrtOp op) {
  return op == TTRT_OP_TRANSPOSE ? "perm" : "dims";
}

/* Parses dims=D0,D1,... or perm=P0,P1,... (possibly empty) into
 * prim->dims. */
static TtrtStatus parseDims(Parser *p, const char *text, TtrtPrim *prim) {
  const char *key = dimsKey(prim->op);
  prim->numDims = 0;
  const char *s = text;
  while (*s) {
    size_t n = strcspn(s, ",");
    int64_t d;
    if (prim->numDims == TTRT_MAX_RANK)
      return FAIL(p, "%s=%s has more than %d entries", key, text,
                  TTRT_MAX_RANK);
    if (!parseUnsigned(s, n, TTRT_MAX_RANK, &d))
      return FAIL(p, "bad %s=%s (expected dimension numbers joined by ',')",
                  key, text);
    prim->dims[prim->numDims++] = (int)d;
    s += n;
    if (*s == ',' && *++s == '\0')
      return FAIL(p, "bad %s=%s (trailing ',')", key, text);
  }
  return TTRT_SUCCESS;
}

/* Parses keepdim=0|1 into prim->keepdim. */
static TtrtStatus parseKeepdim(Parser *p, const char *text, TtrtPrim *prim) {
  if (strcmp(text, "0") != 0 && strcmp(text, "1") != 0)
    return FAIL(p, "bad keepdim=%s (expected 0 or 1)", text);
  prim->keepdim = text[0] == '1';
  return TTRT_SUCCESS;
}

/* Parses the VALUE of the attribute `key` into `prim`. */
static TtrtStatus parseAttributeValue(Parser *p, const char *key,
                                      const char *value, TtrtPrim *prim) {
  if (strcmp(key, "dims") == 0 || strcmp(key, "perm") == 0)
    return parseDims(p, value, prim);
  if (strcmp(key, "keepdim") == 0)
    return parseKeepdim(p, value, prim);
  if (strcmp(key, "value") == 0) {
    if (!parseDouble(value, &prim->value))
      return FAIL(p, "bad value=%s (expected a decimal float, inf, -inf or "
                     "nan)",
                  value);
    return TTRT_SUCCESS;
  }
  int dir = lookupName(kDirectionNames, 6, value);
  if (dir < 0)
    return FAIL(p, "bad direction=%s (expected lt, le, gt, ge, eq or ne)",
                value);
  prim->direction = (TtrtDirection)dir;
  return TTRT_SUCCESS;
}

/* The index in info->attributes of the key of `length` chars at `key`, or
 * -1 if the op has no such attribute. */
static int findAttribute(const OpInfo *info, const char *key, size_t length) {
  for (int k = 0; k < MAX_ATTRIBUTES && info->attributes[k]; ++k)
    if (strlen(info->attributes[k]) == length &&
        strncmp(key, info->attributes[k], length) == 0)
      return k;
  return -1;
}

/* Parses one KEY=VALUE attribute of `prim`; bit k of *seen is set once the
 * op's k-th attribute has been given. */
static TtrtStatus parseAttribute(Parser *p, const char *token, TtrtPrim *prim,
                                 unsigned *seen) {
  const OpInfo *info = &kOps[prim->op];
  const char *eq = strchr(token, '=');
  size_t keyLength = (size_t)(eq - token);
  int k = findAttribute(info, token, keyLength);
  if (k < 0)
    return FAIL(p, "'%s' has no attribute '%.*s'", info->name, (int)keyLength,
                token);
  if (*seen & 1u << k)
    return FAIL(p, "attribute '%s' is given twice", info->attributes[k]);
  *seen |= 1u << k;
  return parseAttributeValue(p, info->attributes[k], eq + 1, prim);
}

/* Parses the operands and attributes (tokens from index 4 on). */
static TtrtStatus parseOperands(Parser *p, TtrtPrim *prim) {
  const OpInfo *info = &kOps[prim->op];
  unsigned seen = 0;
  for (int i = 4; i < p->numTokens; ++i) {
    const char *tok = p->tokens[i];
    if (strchr(tok, '=')) {
      if (parseAttribute(p, tok, prim, &seen))
        return TTRT_FAILURE;
      continue;
    }
    if (seen)
      return FAIL(p, "operand '%s' after an attribute", tok);
    if (prim->numOperands == TTRT_MAX_OPERANDS)
      return FAIL(p, "'%s' takes %d operands", info->name, info->numOperands);
    int *slot = &prim->operands[prim->numOperands++];
    if (resolveId(p, tok, slot))
      return TTRT_FAILURE;
    if (!p->definedAt[*slot])
      return FAIL(p, "%s is used before it is defined", tok);
  }
  if (prim->numOperands != info->numOperands)
    return FAIL(p, "'%s' takes %d operand%s, not %d", info->name,
                info->numOperands, info->numOperands == 1 ? "" : "s",
                prim->numOperands);
  for (int k = 0; k < MAX_ATTRIBUTES && info->attributes[k]; ++k)
    if (!(seen & 1u << k))
      return FAIL(p, "'%s' needs the attribute %s=", info->name,
                  info->attributes[k]);
  return TTRT_SUCCESS;
}

/* The id of tensor `slot` as a number for messages. */
static long long idOf(const Parser *p, int slot) {
  return (long long)p->meta->tensors[slot].id;
}

/* Checks the operands of an elementwise op have the result's shape. */
static TtrtStatus verifyElementwise(Parser *p, const TtrtPrim *prim) {
  const TtrtShape *rs = &p->meta->tensors[prim->result].shape;
  for (int i = 0; i < prim->numOperands; ++i) {
    const TtrtShape *os = &p->meta->tensors[prim->operands[i]].shape;
    if (!ttrtShapeEqual(os, rs)) {
      char a[256], b[256];
      ttrtShapeFormat(os, a, sizeof a);
      ttrtShapeFormat(rs, b, sizeof b);
      return FAIL(p, "'%s' operand %%%lld has shape %s but the result %%%lld "
                     "has shape %s",
                  kOps[prim->op].name, idOf(p, prim->operands[i]), a,
                  idOf(p, prim->result), b);
    }
  }
  return TTRT_SUCCESS;
}

/* Appends the attributes of `prim` as its prim line spells them, each after
 * a space (" dims=1,0 keepdim=1"; nothing for an op without attributes). */
static void formatAttributes(const TtrtPrim *prim, Buf *b) {
  if (prim->op == TTRT_OP_COMPARE)
    bufPrintf(b, " direction=%s", kDirectionNames[prim->direction]);
  if (prim->op == TTRT_OP_CONSTANT)
    bufPrintf(b, " value=%.17g", prim->value);
  if (prim->op == TTRT_OP_BROADCAST_IN_DIM || prim->op == TTRT_OP_TRANSPOSE ||
      ttrtOpIsReduction(prim->op)) {
    bufPrintf(b, " %s=", dimsKey(prim->op));
    for (int i = 0; i < prim->numDims; ++i)
      bufPrintf(b, "%s%d", i ? "," : "", prim->dims[i]);
  }
  if (ttrtOpIsReduction(prim->op))
    bufPrintf(b, " keepdim=%d", prim->keepdim);
}

/* Writes "OP ATTRIBUTES of %A (shape S) and %B (shape T)", the start of a
 * message about the shapes of `prim`. */
static void describeShapes(const Parser *p, const TtrtPrim *prim, char *buf,
                           size_t size) {
  Buf b = {buf, size, 0};
  buf[0] = '\0';
  bufPrintf(&b, "%s", kOps[prim->op].name);
  formatAttributes(prim, &b);
  bufPrintf(&b, " of");
  for (int i = 0; i < prim->numOperands; ++i) {
    char shape[256];
    ttrtShapeFormat(&p->meta->tensors[prim->operands[i]].shape, shape,
                    sizeof shape);
    bufPrintf(&b, "%s %%%lld (shape %s)", i ? " and" : "",
              idOf(p, prim->operands[i]), shape);
  }
}

/* Checks that the result of `prim` has the shape `want` that its operands
 * and attributes give it. */
static TtrtStatus verifyResultShape(Parser *p, const TtrtPrim *prim,
                                    const TtrtShape *want) {
  const TtrtShape *rs = &p->meta->tensors[prim->result].shape;
  if (ttrtShapeEqual(want, rs))
    return TTRT_SUCCESS;
  char what[1024], a[256], b[256];
  describeShapes(p, prim, what, sizeof what);
  ttrtShapeFormat(want, a, sizeof a);
  ttrtShapeFormat(rs, b, sizeof b);
  return FAIL(p, "%s has shape %s, but the result %%%lld has shape %s", what, a,
              idOf(p, prim->result), b);
}

/* Checks that prim->dims are dimensions of the tensor `slot` (the result of
 * broadcast_in_dim, the operand of a reduction or transpose; `which` says
 * which), no two equal; sets used[d] for each. */
static TtrtStatus verifyDimList(Parser *p, const TtrtPrim *prim, int slot,
                                const char *which, bool used[TTRT_MAX_RANK]) {
  int rank = p->meta->tensors[slot].shape.rank;
  for (int i = 0; i < prim->numDims; ++i) {
    int d = prim->dims[i];
    if (d >= rank)
      return FAIL(p, "%s %s[%d]=%d but the %s %%%lld has rank %d",
                  kOps[prim->op].name, dimsKey(prim->op), i, d, which,
                  idOf(p, slot), rank);
    if (used[d])
      return FAIL(p, "%s names %s dim %d twice", kOps[prim->op].name, which,
                  d);
    used[d] = true;
  }
  return TTRT_SUCCESS;
}

/* Checks broadcast_in_dim's dims against the operand and result shapes. */
static TtrtStatus verifyBroadcast(Parser *p, const TtrtPrim *prim) {
  const TtrtShape *os = &p->meta->tensors[prim->operands[0]].shape;
  const TtrtShape *rs = &p->meta->tensors[prim->result].shape;
  bool used[TTRT_MAX_RANK] = {false};
  if (prim->numDims != os->rank)
    return FAIL(p, "broadcast_in_dim has %d dims but operand %%%lld has rank "
                   "%d",
                prim->numDims, idOf(p, prim->operands[0]), os->rank);
  if (verifyDimList(p, prim, prim->result, "result", used))
    return TTRT_FAILURE;
  for (int i = 0; i < prim->numDims; ++i) {
    int d = prim->dims[i];
    if (os->dims[i] != 1 && os->dims[i] != rs->dims[d])
      return FAIL(p, "broadcast_in_dim operand dim %d has size %lld, but "
                     "result dim %d has size %lld (sizes must match or the "
                     "operand's be 1)",
                  i, (long long)os->dims[i], d, (long long)rs->dims[d]);
  }
  return TTRT_SUCCESS;
}

/* Checks a reduction's dims against its operand, and that the result has
 * the operand's shape without the reduced dims (keepdim=0) or with them set
 * to 1 (keepdim=1). */
static TtrtStatus verifyReduction(Parser *p, const TtrtPrim *prim) {
  const TtrtShape *os = &p->meta->tensors[prim->operands[0]].shape;
  bool reduced[TTRT_MAX_RANK] = {false};
  if (prim->numDims == 0)
    return FAIL(p, "%s needs at least one dimension in dims=",
                kOps[prim->op].name);
  if (verifyDimList(p, prim, prim->operands[0], "operand", reduced))
    return TTRT_FAILURE;
  TtrtShape want = {0, {0}};
  for (int i = 0; i < os->rank; ++i)
    if (!reduced[i] || prim->keepdim)
      want.dims[want.rank++] = reduced[i] ? 1 : os->dims[i];
  return verifyResultShape(p, prim, &want);
}

/* Checks that transpose's perm is a permutation of its operand's dims and
 * that result dim i has the size of operand dim perm[i]. */
static TtrtStatus verifyTranspose(Parser *p, const TtrtPrim *prim) {
  const TtrtShape *os = &p->meta->tensors[prim->operands[0]].shape;
  bool used[TTRT_MAX_RANK] = {false};
  if (prim->numDims != os->rank)
    return FAIL(p, "transpose has %d perm entries but operand %%%lld has rank "
                   "%d",
                prim->numDims, idOf(p, prim->operands[0]), os->rank);
  if (verifyDimList(p, prim, prim->operands[0], "operand", used))
    return TTRT_FAILURE;
  TtrtShape want = {os->rank, {0}};
  for (int i = 0; i < os->rank; ++i)
    want.dims[i] = os->dims[prim->dims[i]];
  return verifyResultShape(p, prim, &want);
}

/* Checks matmul's shapes: [M,K] x [K,N] -> [M,N], or batched
 * [B,M,K] x [B,K,N] -> [B,M,N]. */
static TtrtStatus verifyMatmul(Parser *p, const TtrtPrim *prim) {
  const TtrtShape *a = &p->meta->tensors[prim->operands[0]].shape;
  const TtrtShape *b = &p->meta->tensors[prim->operands[1]].shape;
  char what[1024];
  describeShapes(p, prim, what, sizeof what);
  if (a->rank != b->rank || (a->rank != 2 && a->rank != 3))
    return FAIL(p, "%s: the operands must both have rank 2 or both rank 3",
                what);
  int r = a->rank;
  if (a->dims[r - 1] != b->dims[r - 2])
    return FAIL(p, "%s: the first has %lld columns but the second %lld rows",
                what, (long long)a->dims[r - 1], (long long)b->dims[r - 2]);
  if (r == 3 && a->dims[0] != b->dims[0])
    return FAIL(p, "%s: the batch sizes %lld and %lld differ", what,
                (long long)a->dims[0], (long long)b->dims[0]);
  TtrtShape want = *a;
  want.dims[r - 1] = b->dims[r - 1];
  return verifyResultShape(p, prim, &want);
}

/* Checks operand and result types of a parsed prim. */
static TtrtStatus verifyPrim(Parser *p, const TtrtPrim *prim) {
  const TtrtTensor *result = &p->meta->tensors[prim->result];
  if (ttrtOpIsReduction(prim->op))
    return verifyReduction(p, prim);
  switch (prim->op) {
  case TTRT_OP_CONSTANT:
    return TTRT_SUCCESS;
  case TTRT_OP_BROADCAST_IN_DIM:
    return verifyBroadcast(p, prim);
  case TTRT_OP_TRANSPOSE:
    return verifyTranspose(p, prim);
  case TTRT_OP_MATMUL:
    return verifyMatmul(p, prim);
  case TTRT_OP_RESHAPE: {
    const TtrtShape *os = &p->meta->tensors[prim->operands[0]].shape;
    if (ttrtShapeGetNumel(os) != ttrtShapeGetNumel(&result->shape))
      return FAIL(p, "reshape of %lld elements into %%%lld of %lld elements",
                  (long long)ttrtShapeGetNumel(os), (long long)result->id,
                  (long long)ttrtShapeGetNumel(&result->shape));
    return TTRT_SUCCESS;
  }
  case TTRT_OP_COMPARE:
    if (result->dtype != TTRT_DTYPE_I1)
      return FAIL(p, "compare result %%%lld must be i1, not %s",
                  (long long)result->id, ttrtDtypeGetName(result->dtype));
    return verifyElementwise(p, prim);
  default:
    return verifyElementwise(p, prim);
  }
}

/* Checks that the result of a prim may be defined here. */
static TtrtStatus checkResult(Parser *p, const TtrtPrim *prim) {
  const TtrtTensor *t = &p->meta->tensors[prim->result];
  if (t->role == TTRT_ROLE_INPUT)
    return FAIL(p, "%%%lld is an input; a prim cannot define it",
                (long long)t->id);
  if (p->definedAt[prim->result])
    return FAIL(p, "%%%lld is already defined on line %d", (long long)t->id,
                p->definedAt[prim->result]);
  if (t->role == TTRT_ROLE_CONST && prim->op != TTRT_OP_CONSTANT)
    return FAIL(p, "const tensor %%%lld must be defined by 'constant', not "
                   "'%s'",
                (long long)t->id, kOps[prim->op].name);
  return TTRT_SUCCESS;
}

/* Marks the inputs defined; called once, at the first line after tensors. */
static TtrtStatus startDefinitions(Parser *p) {
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

/* prim ID = OP OPERAND... [KEY=VALUE]... */
static TtrtStatus parsePrimLine(Parser *p) {
  if (startDefinitions(p))
    return TTRT_FAILURE;
  if (p->numTokens < 4 || strcmp(p->tokens[2], "=") != 0)
    return FAIL(p, "'prim' line must be: prim ID = OP OPERAND... "
                   "[KEY=VALUE]...");
  int i = APPEND(p, prims, numPrims, capPrims);
  if (i < 0)
    return TTRT_FAILURE;
  TtrtPrim *prim = &p->meta->prims[i];
  prim->line = p->line;
  if (resolveId(p, p->tokens[1], &prim->result))
    return TTRT_FAILURE;
  int op = -1;
  for (int k = 0; k < TTRT_OP_COUNT && op < 0; ++k)
    if (strcmp(kOps[k].name, p->tokens[3]) == 0)
      op = k;
  if (op < 0)
    return FAIL(p, "unknown prim op '%s'", p->tokens[3]);
  prim->op = (TtrtOp)op;
  if (checkResult(p, prim) || parseOperands(p, prim) || verifyPrim(p, prim))
    return TTRT_FAILURE;
  p->definedAt[prim->result] = p->line;
  return TTRT_SUCCESS;
}

/*===------------------------------------------------------------------===*
 * launch and arg lines
 *===------------------------------------------------------------------===*/

/* Parses a positive (or, with allowZero, non-negative) uint32 token. */
static TtrtStatus parseU32(Parser *p, const char *token, const char *what,
                           bool allowZero, uint32_t *out) {
  int64_t v;
  if (!parseUnsignedToken(token, UINT32_MAX, &v) || (!allowZero && v == 0))
    return FAIL(p, "bad %s '%s' (expected an integer from %d to %u)", what,
                token, allowZero ? 0 : 1, UINT32_MAX);
  *out = (uint32_t)v;
  return TTRT_SUCCESS;
}

/* launch KERNEL grid GX GY GZ block BX BY BZ shared BYTES [pdl] */
static TtrtStatus parseLaunchLine(Parser *p) {
  char **tok = p->tokens;
  if (startDefinitions(p))
    return TTRT_FAILURE;
  bool pdl = p->numTokens == 13 && strcmp(tok[12], "pdl") == 0;
  if ((p->numTokens != 12 && !pdl) || strcmp(tok[2], "grid") != 0 ||
      strcmp(tok[6], "block") != 0 || strcmp(tok[10], "shared") != 0)
    return FAIL(p, "'launch' line must be: launch KERNEL grid GX GY GZ block "
                   "BX BY BZ shared BYTES [pdl]");
  if (pdl && p->meta->version < 5)
    return FAIL(p, "'pdl' launches need metadata version 5 (this file is "
                   "version %d)",
                p->meta->version);
  int i = APPEND(p, launches, numLaunches, capLaunches);
  if (i < 0)
    return TTRT_FAILURE;
  TtrtLaunch *l = &p->meta->launches[i];
  l->line = p->line;
  l->pdl = pdl;
  l->firstArg = p->meta->numArgs;
  l->firstZero = p->meta->numZeros - p->pendingZeros;
  l->numZeros = p->pendingZeros;
  p->pendingZeros = 0;
  l->kernel = strdup(tok[1]);
  if (!l->kernel)
    return FAIL(p, "out of memory");
  for (int k = 0; k < 3; ++k) {
    /* Parsing may grow meta->exprs but never meta->launches: l stays. */
    l->grid[k] = parseExpression(p, tok[3 + k]);
    if (l->grid[k] < 0 || parseU32(p, tok[7 + k], "block size", false,
                                   &l->block[k]))
      return TTRT_FAILURE;
  }
  return parseU32(p, tok[11], "shared memory size", true, &l->shared);
}

/* Parses the VALUE of an arg line of kind `a->kind`. */
static TtrtStatus parseArgValue(Parser *p, TtrtArg *a, const char *value) {
  double f;
  switch (a->kind) {
  case TTRT_ARG_PTR:
    return resolveId(p, value, &a->tensor);
  case TTRT_ARG_F32:
    if (!parseDouble(value, &f))
      return FAIL(p, "bad f32 value '%s'", value);
    a->f32 = (float)f;
    return TTRT_SUCCESS;
  default:
    a->expr = parseExpression(p, value);
    return a->expr < 0 ? TTRT_FAILURE : TTRT_SUCCESS;
  }
}

/* ROWSxCOLS of positive integers up to `max`. */
static bool parsePair(const char *s, int64_t max, int64_t out[2]) {
  char *end;
  long long r = strtoll(s, &end, 10);
  if (end == s || *end != 'x' || r < 1 || r > max)
    return false;
  const char *c = end + 1;
  long long n = strtoll(c, &end, 10);
  if (end == c || *end || n < 1 || n > max)
    return false;
  out[0] = r;
  out[1] = n;
  return true;
}

/* arg tma ID ROWSxCOLS box ROWSxCOLS: a tensor map of tensor ID (f16/bf16 or fp8, viewed
 * as a row-major ROWS x COLS matrix) whose boxes are R x C, swizzled by 128 bytes (C of
 * at most 128 bytes). */
static TtrtStatus parseTmaArg(Parser *p, TtrtArg *a) {
  if (resolveId(p, p->tokens[2], &a->tensor))
    return TTRT_FAILURE;
  const TtrtTensor *t = &p->meta->tensors[a->tensor];
  if (t->dtype != TTRT_DTYPE_F16 && t->dtype != TTRT_DTYPE_BF16 &&
      t->dtype != TTRT_DTYPE_F8E4M3 && t->dtype != TTRT_DTYPE_F8E5M2)
    return FAIL(p, "'arg tma' needs an f16, bf16, f8E4M3FN or f8E5M2 tensor");
  if (!parsePair(p->tokens[3], INT32_MAX, a->tmaDims) || strcmp(p->tokens[4], "box") ||
      !parsePair(p->tokens[5], 256, a->tmaBox))
    return FAIL(p, "'arg tma' line must be: arg tma ID ROWSxCOLS box ROWSxCOLS");
  if (a->tmaDims[0] * a->tmaDims[1] != ttrtShapeGetNumel(&t->shape))
    return FAIL(p, "'arg tma' matrix %lldx%lld does not hold the %lld elements of the "
                   "tensor",
                (long long)a->tmaDims[0], (long long)a->tmaDims[1],
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
  int kind = lookupName(kArgKindNames, 5, p->tokens[1]);
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
  if (resolveId(p, p->tokens[1], &slot))
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
    {"prim", PHASE_PRIM, parsePrimLine},
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
  if (startDefinitions(p) ||
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
  return TTRT_SUCCESS;
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
          kOps[prim->op].name);
  for (int i = 0; i < prim->numOperands; ++i)
    fprintf(file, " %%%lld", (long long)meta->tensors[prim->operands[i]].id);
  char attributes[512];
  Buf b = {attributes, sizeof attributes, 0};
  attributes[0] = '\0';
  formatAttributes(prim, &b);
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
  fprintf(file, " block %u %u %u shared %u%s\n", l->block[0], l->block[1],
          l->block[2], l->shared, l->pdl ? " pdl" : "");
  for (int i = l->firstArg; i < l->firstArg + l->numArgs; ++i) {
    const TtrtArg *a = &meta->args[i];
    fprintf(file, "arg %s ", kArgKindNames[a->kind]);
    if (a->kind == TTRT_ARG_PTR)
      fprintf(file, "%%%lld", (long long)meta->tensors[a->tensor].id);
    else if (a->kind == TTRT_ARG_TMA)
      fprintf(file, "%%%lld %lldx%lld box %lldx%lld", (long long)meta->tensors[a->tensor].id,
              (long long)a->tmaDims[0], (long long)a->tmaDims[1], (long long)a->tmaBox[0],
              (long long)a->tmaBox[1]);
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
    ttrtShapeFormat(&t->shape, shape, sizeof shape);
    fprintf(file, "tensor %%%lld %s", (long long)t->id, kRoleNames[t->role]);
    if (t->index >= 0)
      fprintf(file, " %d", t->index);
    fprintf(file, " %s %s\n", kDtypeNames[t->dtype], shape);
  }
  for (int i = 0; i < meta->numPrims; ++i)
    printPrim(meta, &meta->prims[i], file);
  for (int i = 0; i < meta->numLaunches; ++i)
    printLaunch(meta, &meta->launches[i], file);
}
