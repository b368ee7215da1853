/* rules.c - the rules of the prim ops (rules.h): what the reference's
 * metadata parser (prim.c) and the compiler's prim verifier
 * (dialects/prim/verify.c) both check.
 *
 * kRules holds, per op, its name, its arity, the attributes a prim line
 * must give, its dtype rule and its shape rule. ttrtPrimCheck applies the
 * dtype rule first: compare's result is i1 everywhere; with strictDtypes
 * (the compiler, which computes in the tensors' dtypes; the reference
 * computes in float64 and converts each result, so it takes mixed dtypes)
 * also one dtype for every tensor, compare: one dtype for the operands,
 * where: an i1 condition and one dtype for the rest, convert, matmul and
 * constant: any. Then that every dimension is at
 * least 1, then the shape rule: elementwise ops need equal shapes,
 * broadcast_in_dim, transpose and the reductions check their dimension list
 * (each in range, none twice) and the result shape it implies, matmul
 * checks [M,K] x [K,N] -> [M,N] (and batched), reshape keeps the number of
 * elements, slice checks start, stop and step per dim (0 <= start < stop <=
 * size, step >= 1) and the result shape they give, concat (two operands;
 * torch.cat of more is a chain) checks its dim and that the operands differ
 * only there; index_select and gather (an i32 or i64 index in every mode,
 * the dtype rule DTYPE_INDEX) check dim, the index's rank (1; gather: the
 * operand's, no larger than it outside dim) and the result shape (the
 * operand's with dim resized to the index's length; gather: the index's),
 * iota its dimension against the result's rank, pad one low and high entry
 * per dim, each >= 0, and the result shape low + size + high; argmax and
 * argmin (an i32 or i64 result: PyTorch's is i64; DTYPE_ARGREDUCE) check
 * their one dim (or none: all dims) and the result shape it implies. A
 * dynamic dimension (< 0) matches any size, and a reshape with
 * one is not counted. Messages spell out the op, its attributes and its
 * tensors by the names the caller gives them.
 */
#include "rules.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*===------------------------------------------------------------------===*
 * The table
 *===------------------------------------------------------------------===*/

/* How the dtypes of an op's tensors relate. */
typedef enum DtypeRule {
  DTYPE_ANY,     /* convert, matmul, constant */
  DTYPE_SAME,    /* every operand and the result have one dtype */
  DTYPE_COMPARE, /* one dtype for the operands, an i1 result */
  DTYPE_WHERE,   /* an i1 condition, one dtype for the others */
  DTYPE_INDEX,    /* index_select, gather: an i32/i64 index, x's dtype for the result */
  DTYPE_ARGREDUCE /* argmax/argmin: a float operand, an i32 or i64 result */
} DtypeRule;

/* How an op's shapes relate (each a check below). */
typedef enum ShapeRule {
  SHAPE_NONE, /* constant */
  SHAPE_ELEMENTWISE,
  SHAPE_BROADCAST,
  SHAPE_RESHAPE,
  SHAPE_TRANSPOSE,
  SHAPE_REDUCTION,
  SHAPE_MATMUL,
  SHAPE_SLICE,
  SHAPE_CONCAT,
  SHAPE_INDEX_SELECT,
  SHAPE_GATHER,
  SHAPE_IOTA,
  SHAPE_PAD,
  SHAPE_ARGREDUCE
} ShapeRule;

/* Most attributes an op takes. */
#define MAX_ATTRIBUTES 3

typedef struct OpRule {
  const char *name;
  int numOperands;
  const char *attributes[MAX_ATTRIBUTES]; /* required, NULL-padded */
  DtypeRule dtype;
  ShapeRule shape;
} OpRule;

#define UNARY(op, name) [op] = {name, 1, {NULL}, DTYPE_SAME, SHAPE_ELEMENTWISE}
#define BINARY(op, name) [op] = {name, 2, {NULL}, DTYPE_SAME, SHAPE_ELEMENTWISE}
#define REDUCTION(op, name)                                                    \
  [op] = {name, 1, {"dims", "keepdim"}, DTYPE_SAME, SHAPE_REDUCTION}
#define ARGREDUCTION(op, name)                                                 \
  [op] = {name, 1, {"dims", "keepdim"}, DTYPE_ARGREDUCE, SHAPE_ARGREDUCE}

static const OpRule kRules[TTRT_OP_COUNT] = {
    UNARY(TTRT_OP_NEG, "neg"),
    UNARY(TTRT_OP_ABS, "abs"),
    UNARY(TTRT_OP_EXP, "exp"),
    UNARY(TTRT_OP_EXP2, "exp2"),
    UNARY(TTRT_OP_LOG, "log"),
    UNARY(TTRT_OP_SQRT, "sqrt"),
    UNARY(TTRT_OP_RSQRT, "rsqrt"),
    UNARY(TTRT_OP_TANH, "tanh"),
    UNARY(TTRT_OP_ERF, "erf"),
    UNARY(TTRT_OP_SIN, "sin"),
    UNARY(TTRT_OP_COS, "cos"),
    UNARY(TTRT_OP_RECIPROCAL, "reciprocal"),
    BINARY(TTRT_OP_ADD, "add"),
    BINARY(TTRT_OP_SUB, "sub"),
    BINARY(TTRT_OP_MUL, "mul"),
    BINARY(TTRT_OP_DIV, "div"),
    BINARY(TTRT_OP_MAX, "max"),
    BINARY(TTRT_OP_MIN, "min"),
    BINARY(TTRT_OP_POW, "pow"),
    [TTRT_OP_COMPARE] = {"compare", 2, {"direction"}, DTYPE_COMPARE,
                         SHAPE_ELEMENTWISE},
    [TTRT_OP_WHERE] = {"where", 3, {NULL}, DTYPE_WHERE, SHAPE_ELEMENTWISE},
    [TTRT_OP_CONVERT] = {"convert", 1, {NULL}, DTYPE_ANY, SHAPE_ELEMENTWISE},
    [TTRT_OP_BROADCAST_IN_DIM] = {"broadcast_in_dim", 1, {"dims"}, DTYPE_SAME,
                                  SHAPE_BROADCAST},
    [TTRT_OP_RESHAPE] = {"reshape", 1, {NULL}, DTYPE_SAME, SHAPE_RESHAPE},
    [TTRT_OP_CONSTANT] = {"constant", 0, {"value"}, DTYPE_ANY, SHAPE_NONE},
    [TTRT_OP_TRANSPOSE] = {"transpose", 1, {"perm"}, DTYPE_SAME,
                           SHAPE_TRANSPOSE},
    [TTRT_OP_MATMUL] = {"matmul", 2, {NULL}, DTYPE_ANY, SHAPE_MATMUL},
    [TTRT_OP_CONCAT] = {"concat", 2, {"dim"}, DTYPE_SAME, SHAPE_CONCAT},
    [TTRT_OP_SLICE] = {"slice", 1, {"start", "stop", "step"}, DTYPE_SAME,
                       SHAPE_SLICE},
    [TTRT_OP_INDEX_SELECT] = {"index_select", 2, {"dim"}, DTYPE_INDEX,
                              SHAPE_INDEX_SELECT},
    [TTRT_OP_GATHER] = {"gather", 2, {"dim"}, DTYPE_INDEX, SHAPE_GATHER},
    [TTRT_OP_IOTA] = {"iota", 0, {"dimension"}, DTYPE_ANY, SHAPE_IOTA},
    [TTRT_OP_PAD] = {"pad", 1, {"low", "high", "value"}, DTYPE_SAME, SHAPE_PAD},
    REDUCTION(TTRT_OP_SUM, "sum"),
    REDUCTION(TTRT_OP_AMAX, "amax"),
    REDUCTION(TTRT_OP_AMIN, "amin"),
    ARGREDUCTION(TTRT_OP_ARGMAX, "argmax"),
    ARGREDUCTION(TTRT_OP_ARGMIN, "argmin"),
};

const char *const ttrtSliceKeys[3] = {"start", "stop", "step"};
const char *const ttrtPadKeys[2] = {"low", "high"};

static const char *const kDirectionNames[] = {"lt", "le", "gt",
                                              "ge", "eq", "ne"};

const char *ttrtOpGetName(TtrtOp op) { return kRules[op].name; }

bool ttrtOpIsReduction(TtrtOp op) {
  return kRules[op].shape == SHAPE_REDUCTION;
}

bool ttrtOpIsArgReduction(TtrtOp op) {
  return kRules[op].shape == SHAPE_ARGREDUCE;
}

/* Ops whose prim line gives dims= and keepdim=. */
static bool hasDimsKeepdim(TtrtOp op) {
  return ttrtOpIsReduction(op) || ttrtOpIsArgReduction(op);
}

bool ttrtOpLookup(const char *name, TtrtOp *out) {
  for (int k = 0; k < TTRT_OP_COUNT; ++k)
    if (strcmp(kRules[k].name, name) == 0) {
      *out = (TtrtOp)k;
      return true;
    }
  return false;
}

int ttrtOpGetNumOperands(TtrtOp op) { return kRules[op].numOperands; }

const char *ttrtOpGetAttribute(TtrtOp op, int k) {
  return k >= 0 && k < MAX_ATTRIBUTES ? kRules[op].attributes[k] : NULL;
}

const char *ttrtDirectionGetName(TtrtDirection direction) {
  return kDirectionNames[direction];
}

bool ttrtDirectionParse(const char *name, TtrtDirection *out) {
  for (int k = 0; k < 6; ++k)
    if (strcmp(kDirectionNames[k], name) == 0) {
      *out = (TtrtDirection)k;
      return true;
    }
  return false;
}

/*===------------------------------------------------------------------===*
 * Text
 *===------------------------------------------------------------------===*/

/* Appends formatted text to buf (of `size` bytes, `*used` of them used),
 * stopping at its end. */
static void appendf(char *buf, size_t size, size_t *used, const char *fmt,
                    ...) TTRT_PRINTF(4, 5);
static void appendf(char *buf, size_t size, size_t *used, const char *fmt,
                    ...) {
  if (*used + 1 >= size)
    return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf + *used, size - *used, fmt, ap);
  va_end(ap);
  if (n > 0)
    *used += (size_t)n < size - *used ? (size_t)n : size - *used - 1;
}

/* The name of prim->dims on a prim line: `perm` for transpose, `dims` for
 * broadcast_in_dim and the reductions. */
static const char *lineDimsKey(TtrtOp op) {
  return op == TTRT_OP_TRANSPOSE ? "perm" : "dims";
}

void ttrtPrimFormatAttributes(const TtrtPrim *prim, const char *dimsKey,
                              char *buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  TtrtOp op = prim->op;
  if (op == TTRT_OP_COMPARE)
    appendf(buf, size, &used, " direction=%s",
            kDirectionNames[prim->direction]);
  if (op == TTRT_OP_CONSTANT)
    appendf(buf, size, &used, " value=%.17g", prim->value);
  if (op == TTRT_OP_IOTA)
    appendf(buf, size, &used, " dimension=%d", prim->dims[0]);
  if (op == TTRT_OP_PAD) {
    for (int k = 0; k < 2; ++k) {
      appendf(buf, size, &used, " %s=", ttrtPadKeys[k]);
      for (int i = 0; i < prim->numSlice[k]; ++i)
        appendf(buf, size, &used, "%s%lld", i ? "," : "",
                (long long)prim->slice[k][i]);
    }
    appendf(buf, size, &used, " value=%.17g", prim->value);
  }
  if (op == TTRT_OP_BROADCAST_IN_DIM || op == TTRT_OP_TRANSPOSE ||
      hasDimsKeepdim(op)) {
    appendf(buf, size, &used, " %s=", dimsKey ? dimsKey : lineDimsKey(op));
    for (int i = 0; i < prim->numDims; ++i)
      appendf(buf, size, &used, "%s%d", i ? "," : "", prim->dims[i]);
  }
  if (hasDimsKeepdim(op))
    appendf(buf, size, &used, " keepdim=%d", prim->keepdim);
  if (op == TTRT_OP_CONCAT || op == TTRT_OP_INDEX_SELECT ||
      op == TTRT_OP_GATHER)
    appendf(buf, size, &used, " dim=%d", prim->dims[0]);
  if (op == TTRT_OP_SLICE)
    for (int k = 0; k < 3; ++k) {
      appendf(buf, size, &used, " %s=", ttrtSliceKeys[k]);
      for (int i = 0; i < prim->numSlice[k]; ++i)
        appendf(buf, size, &used, "%s%lld", i ? "," : "",
                (long long)prim->slice[k][i]);
    }
}

void ttrtPrimFormatShape(const TtrtShape *shape, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  if (shape->rank == 0)
    appendf(buf, size, &used, "scalar");
  for (int i = 0; i < shape->rank; ++i) {
    if (shape->dims[i] < 0)
      appendf(buf, size, &used, "%s?", i ? "x" : "");
    else
      appendf(buf, size, &used, "%s%lld", i ? "x" : "",
              (long long)shape->dims[i]);
  }
}

/* "operand %1", "the result %2", "the result": `noun` and the name. */
static const char *named(char *buf, size_t size, const char *noun,
                         const TtrtPrimTensor *t) {
  snprintf(buf, size, "%s%s%s", noun, t->name[0] ? " " : "", t->name);
  return buf;
}

/* The state of one ttrtPrimCheck. */
typedef struct Check {
  const TtrtPrim *prim;
  const TtrtPrimTensor *operands, *result;
  const char *name;    /* the op's */
  const char *dimsKey; /* the name of prim->dims in messages */
  bool compiler;       /* strictDtypes: the compiler's matmul broadcasts batch dims */
  char *msg;
  size_t size;
} Check;

static bool fail(Check *c, const char *fmt, ...) TTRT_PRINTF(2, 3);
static bool fail(Check *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->msg, c->size, fmt, ap);
  va_end(ap);
  return false;
}

/* Writes "OP ATTRIBUTES of %A (shape S) and %B (shape T)", the start of a
 * message about the shapes of the prim. */
static void describeShapes(const Check *c, char *buf, size_t size) {
  size_t used = 0;
  char attributes[512];
  buf[0] = '\0';
  ttrtPrimFormatAttributes(c->prim, c->dimsKey, attributes, sizeof attributes);
  appendf(buf, size, &used, "%s%s of", c->name, attributes);
  for (int i = 0; i < c->prim->numOperands; ++i) {
    char shape[256];
    ttrtPrimFormatShape(&c->operands[i].shape, shape, sizeof shape);
    appendf(buf, size, &used, "%s %s (shape %s)", i ? " and" : "",
            c->operands[i].name, shape);
  }
}

/*===------------------------------------------------------------------===*
 * Dtypes
 *===------------------------------------------------------------------===*/

/* Checks that operand i has the dtype of `other` (its name `noun`). */
static bool sameDtype(Check *c, int i, const char *noun,
                      const TtrtPrimTensor *other) {
  const TtrtPrimTensor *t = &c->operands[i];
  if (t->dtype == other->dtype)
    return true;
  char a[64], b[64];
  return fail(c, "'%s' %s has dtype %s but %s has dtype %s", c->name,
              named(a, sizeof a, "operand", t), ttrtDtypeGetName(t->dtype),
              named(b, sizeof b, noun, other), ttrtDtypeGetName(other->dtype));
}

static bool checkDtypes(Check *c, bool strict) {
  const TtrtPrimTensor *r = c->result;
  char a[64];
  DtypeRule rule = kRules[c->prim->op].dtype;
  if (rule == DTYPE_COMPARE && r->dtype != TTRT_DTYPE_I1)
    return fail(c, "%s %s must be i1, not %s", c->name,
                named(a, sizeof a, "result", r), ttrtDtypeGetName(r->dtype));
  if (rule == DTYPE_INDEX && c->operands[1].dtype != TTRT_DTYPE_I32 &&
      c->operands[1].dtype != TTRT_DTYPE_I64)
    return fail(c, "%s %s must be i32 or i64, not %s", c->name,
                named(a, sizeof a, "index", &c->operands[1]),
                ttrtDtypeGetName(c->operands[1].dtype));
  if (rule == DTYPE_ARGREDUCE && r->dtype != TTRT_DTYPE_I64 &&
      r->dtype != TTRT_DTYPE_I32)
    return fail(c, "%s %s must be i64 (or i32), not %s", c->name,
                named(a, sizeof a, "result", r), ttrtDtypeGetName(r->dtype));
  if (rule == DTYPE_ARGREDUCE && strict &&
      !ttrtDtypeIsFloat(c->operands[0].dtype))
    return fail(c, "%s %s must be a float tensor, not %s", c->name,
                named(a, sizeof a, "operand", &c->operands[0]),
                ttrtDtypeGetName(c->operands[0].dtype));
  if (!strict)
    return true;
  switch (rule) {
  case DTYPE_ANY:
    return true;
  case DTYPE_INDEX:
    return sameDtype(c, 0, "the result", r);
  case DTYPE_SAME:
    for (int i = 0; i < c->prim->numOperands; ++i)
      if (!sameDtype(c, i, "the result", r))
        return false;
    return true;
  case DTYPE_COMPARE:
    return sameDtype(c, 1, "operand", &c->operands[0]);
  case DTYPE_ARGREDUCE:
    return true;
  case DTYPE_WHERE:
    if (c->operands[0].dtype != TTRT_DTYPE_I1)
      return fail(c, "%s %s must be i1, not %s", c->name,
                  named(a, sizeof a, "condition", &c->operands[0]),
                  ttrtDtypeGetName(c->operands[0].dtype));
    return sameDtype(c, 1, "the result", r) && sameDtype(c, 2, "the result", r);
  }
  return true;
}

/*===------------------------------------------------------------------===*
 * Shapes
 *===------------------------------------------------------------------===*/

/* True when the sizes a and b may be equal (either dynamic, or equal). */
static bool sizesMatch(int64_t a, int64_t b) { return a < 0 || b < 0 || a == b; }

static bool shapesMatch(const TtrtShape *a, const TtrtShape *b) {
  if (a->rank != b->rank)
    return false;
  for (int i = 0; i < a->rank; ++i)
    if (!sizesMatch(a->dims[i], b->dims[i]))
      return false;
  return true;
}

/* Checks that every dimension of t is at least 1 (or dynamic). */
static bool checkSizes(Check *c, const char *noun, const TtrtPrimTensor *t) {
  for (int i = 0; i < t->shape.rank; ++i)
    if (t->shape.dims[i] == 0) {
      char a[64], s[256];
      ttrtPrimFormatShape(&t->shape, s, sizeof s);
      return fail(c, "'%s' %s has shape %s (dimensions must be at least 1)",
                  c->name, named(a, sizeof a, noun, t), s);
    }
  return true;
}

/* Checks the operands of an elementwise op have the result's shape. */
static bool checkElementwise(Check *c) {
  for (int i = 0; i < c->prim->numOperands; ++i) {
    const TtrtPrimTensor *t = &c->operands[i];
    if (!shapesMatch(&t->shape, &c->result->shape)) {
      char a[256], b[256], x[64], y[64];
      ttrtPrimFormatShape(&t->shape, a, sizeof a);
      ttrtPrimFormatShape(&c->result->shape, b, sizeof b);
      return fail(c, "'%s' %s has shape %s but %s has shape %s", c->name,
                  named(x, sizeof x, "operand", t), a,
                  named(y, sizeof y, "the result", c->result), b);
    }
  }
  return true;
}

/* Checks that the result has the shape `want` that the operands and
 * attributes give it. */
static bool checkResultShape(Check *c, const TtrtShape *want) {
  if (shapesMatch(want, &c->result->shape))
    return true;
  char what[1024], a[256], b[256], y[64];
  describeShapes(c, what, sizeof what);
  ttrtPrimFormatShape(want, a, sizeof a);
  ttrtPrimFormatShape(&c->result->shape, b, sizeof b);
  return fail(c, "%s has shape %s, but %s has shape %s", what, a,
              named(y, sizeof y, "the result", c->result), b);
}

/* Checks that prim->dims are dimensions of t (the result of
 * broadcast_in_dim, the operand of a reduction or transpose; `which` says
 * which), no two equal; writes them to dims (a negative one counted from the
 * end where `fromEnd`) and sets used[d] for each. */
static bool checkDimList(Check *c, const TtrtPrimTensor *t, const char *which,
                         bool fromEnd, int dims[TTRT_MAX_RANK],
                         bool used[TTRT_MAX_RANK]) {
  int rank = t->shape.rank;
  for (int i = 0; i < c->prim->numDims; ++i) {
    int d = c->prim->dims[i];
    int k = fromEnd && d < 0 ? d + rank : d;
    char a[64];
    if (k < 0 || k >= rank)
      return fail(c, "%s %s[%d]=%d but %s has rank %d", c->name, c->dimsKey,
                  i, d, named(a, sizeof a, which, t), rank);
    if (used[k])
      return fail(c, "%s names %s dim %d twice", c->name, which + 4, k);
    used[k] = true;
    dims[i] = k;
  }
  return true;
}

/* Checks broadcast_in_dim's dims against the operand and result shapes. */
static bool checkBroadcast(Check *c) {
  const TtrtShape *os = &c->operands[0].shape, *rs = &c->result->shape;
  bool used[TTRT_MAX_RANK] = {false};
  int dims[TTRT_MAX_RANK];
  char a[64];
  if (c->prim->numDims != os->rank)
    return fail(c, "%s has %d %s but %s has rank %d", c->name,
                c->prim->numDims, c->dimsKey,
                named(a, sizeof a, "operand", &c->operands[0]), os->rank);
  if (!checkDimList(c, c->result, "the result", false, dims, used))
    return false;
  for (int i = 0; i < c->prim->numDims; ++i) {
    int d = dims[i];
    if (os->dims[i] != 1 && !sizesMatch(os->dims[i], rs->dims[d]))
      return fail(c, "%s operand dim %d has size %lld, but result dim %d has "
                     "size %lld (sizes must match or the operand's be 1)",
                  c->name, i, (long long)os->dims[i], d,
                  (long long)rs->dims[d]);
  }
  return true;
}

/* The result of a reduction of shape os over the dims marked in reduced: without
 * them, or with them as 1s (keepdim). */
static bool checkReducedShape(Check *c, const TtrtShape *os, const bool *reduced) {
  TtrtShape want = {0, {0}};
  for (int i = 0; i < os->rank; ++i)
    if (!reduced[i] || c->prim->keepdim)
      want.dims[want.rank++] = reduced[i] ? 1 : os->dims[i];
  return checkResultShape(c, &want);
}

/* Checks a reduction's dims against its operand, and that the result has
 * the operand's shape without the reduced dims (keepdim=0) or with them set
 * to 1 (keepdim=1). */
static bool checkReduction(Check *c) {
  const TtrtShape *os = &c->operands[0].shape;
  bool reduced[TTRT_MAX_RANK] = {false};
  int dims[TTRT_MAX_RANK];
  if (c->prim->numDims == 0)
    return fail(c, "%s needs at least one dimension in %s=", c->name,
                c->dimsKey);
  if (!checkDimList(c, &c->operands[0], "the operand", true, dims, reduced))
    return false;
  return checkReducedShape(c, os, reduced);
}

/* Checks argmax/argmin's dims (none: every dim, the result a scalar, or all
 * 1s with keepdim; else one dim, negative from the end) and the result
 * shape. */
static bool checkArgReduction(Check *c) {
  const TtrtShape *os = &c->operands[0].shape;
  bool reduced[TTRT_MAX_RANK] = {false};
  int dims[TTRT_MAX_RANK];
  if (c->prim->numDims > 1)
    return fail(c, "%s takes one dim or none (all dims), not %d", c->name,
                c->prim->numDims);
  if (c->prim->numDims == 0)
    for (int i = 0; i < os->rank; ++i)
      reduced[i] = true;
  else if (!checkDimList(c, &c->operands[0], "the operand", true, dims,
                         reduced))
    return false;
  return checkReducedShape(c, os, reduced);
}

/* Checks that transpose's perm is a permutation of its operand's dims and
 * that result dim i has the size of operand dim perm[i]. */
static bool checkTranspose(Check *c) {
  const TtrtShape *os = &c->operands[0].shape;
  bool used[TTRT_MAX_RANK] = {false};
  int dims[TTRT_MAX_RANK];
  char a[64];
  if (c->prim->numDims != os->rank)
    return fail(c, "%s has %d %s entries but %s has rank %d", c->name,
                c->prim->numDims, c->dimsKey,
                named(a, sizeof a, "operand", &c->operands[0]), os->rank);
  if (!checkDimList(c, &c->operands[0], "the operand", false, dims, used))
    return false;
  TtrtShape want = {os->rank, {0}};
  for (int i = 0; i < os->rank; ++i)
    want.dims[i] = os->dims[dims[i]];
  return checkResultShape(c, &want);
}

int ttrtBroadcastBatch(const int64_t *a, int na, const int64_t *b, int nb, int64_t *out,
                       int64_t *x, int64_t *y) {
  int n = na > nb ? na : nb;
  for (int i = 0; i < n; ++i) { /* batch dim i of the result */
    int64_t p = i - (n - na) >= 0 ? a[i - (n - na)] : 1;
    int64_t q = i - (n - nb) >= 0 ? b[i - (n - nb)] : 1;
    if (p != 1 && q != 1 && !sizesMatch(p, q)) {
      *x = p;
      *y = q;
      return -1;
    }
    out[i] = p == 1 ? q : p;
  }
  return n;
}

/* The compiler's matmul, torch.matmul's shapes: operands of rank 1 or more, a
 * 1-D first operand [K] read as [1,K] and a 1-D second [K] as [K,1] (their
 * 1 dropped from the result), the batch dims (all but the last two) aligned
 * from the right and broadcast (sizes equal or one of them 1; missing ones
 * count as 1): [..., M, K] x [..., K, N] -> [batch..., M, N]. --decompose
 * rewrites every form but [M,K] x [K,N] and [B,M,K] x [B,K,N] into those. */
static bool checkMatmulBroadcast(Check *c, const char *what) {
  const TtrtShape *a = &c->operands[0].shape, *b = &c->operands[1].shape;
  if (a->rank < 1 || b->rank < 1)
    return fail(c, "%s: the operands must have rank 1 or more", what);
  int64_t k = a->dims[a->rank - 1], kb = b->dims[b->rank == 1 ? 0 : b->rank - 2];
  if (!sizesMatch(k, kb))
    return fail(c, "%s: the first has %lld columns but the second %lld rows",
                what, (long long)k, (long long)kb);
  TtrtShape want = {0, {0}};
  int64_t x, y;
  want.rank = ttrtBroadcastBatch(a->dims, a->rank > 2 ? a->rank - 2 : 0, b->dims,
                                 b->rank > 2 ? b->rank - 2 : 0, want.dims, &x, &y);
  if (want.rank < 0)
    return fail(c, "%s: the batch sizes %lld and %lld differ (and neither "
                   "is 1)",
                what, (long long)x, (long long)y);
  if (a->rank >= 2)
    want.dims[want.rank++] = a->dims[a->rank - 2];
  if (b->rank >= 2)
    want.dims[want.rank++] = b->dims[b->rank - 1];
  return checkResultShape(c, &want);
}

/* Checks matmul's shapes: [M,K] x [K,N] -> [M,N], or batched
 * [B,M,K] x [B,K,N] -> [B,M,N] (the reference computes those); the
 * compiler's (strictDtypes) broadcasts as torch.matmul, checkMatmulBroadcast. */
static bool checkMatmul(Check *c) {
  const TtrtShape *a = &c->operands[0].shape, *b = &c->operands[1].shape;
  char what[1024];
  describeShapes(c, what, sizeof what);
  if (c->compiler)
    return checkMatmulBroadcast(c, what);
  if (a->rank != b->rank || (a->rank != 2 && a->rank != 3))
    return fail(c, "%s: the operands must both have rank 2 or both rank 3",
                what);
  int r = a->rank;
  if (!sizesMatch(a->dims[r - 1], b->dims[r - 2]))
    return fail(c, "%s: the first has %lld columns but the second %lld rows",
                what, (long long)a->dims[r - 1], (long long)b->dims[r - 2]);
  if (r == 3 && !sizesMatch(a->dims[0], b->dims[0]))
    return fail(c, "%s: the batch sizes %lld and %lld differ", what,
                (long long)a->dims[0], (long long)b->dims[0]);
  TtrtShape want = *a;
  want.dims[r - 1] = b->dims[r - 1];
  return checkResultShape(c, &want);
}

/* Checks slice's start, stop and step (one entry per operand dim, step at
 * least 1, 0 <= start < stop <= size) and that result dim d has
 * ceil((stop - start) / step) elements. */
static bool checkSlice(Check *c) {
  const TtrtShape *os = &c->operands[0].shape;
  const TtrtPrim *p = c->prim;
  char a[64];
  for (int k = 0; k < 3; ++k)
    if (p->numSlice[k] != os->rank)
      return fail(c, "%s has %d %s entries but %s has rank %d", c->name,
                  p->numSlice[k], ttrtSliceKeys[k],
                  named(a, sizeof a, "operand", &c->operands[0]), os->rank);
  TtrtShape want = {os->rank, {0}};
  for (int d = 0; d < os->rank; ++d) {
    int64_t start = p->slice[0][d], stop = p->slice[1][d];
    int64_t step = p->slice[2][d], size = os->dims[d];
    if (step < 1)
      return fail(c, "%s step[%d]=%lld must be at least 1", c->name, d,
                  (long long)step);
    if (start < 0 || start >= stop || (size >= 0 && stop > size))
      return fail(c, "%s dim %d: start=%lld stop=%lld must satisfy 0 <= "
                     "start < stop <= %lld (the operand's size)",
                  c->name, d, (long long)start, (long long)stop,
                  (long long)size);
    want.dims[d] = (stop - start + step - 1) / step;
  }
  return checkResultShape(c, &want);
}

/* Checks the one dimension prim->dims[0] (the attribute `key`: concat's,
 * index_select's and gather's dim, iota's dimension) against the rank of t
 * (`noun` names it). */
static bool checkOneDim(Check *c, const char *key, const char *noun,
                        const TtrtPrimTensor *t) {
  int d = c->prim->dims[0];
  char a[64];
  if (d < 0 || d >= t->shape.rank)
    return fail(c, "%s %s=%d but %s has rank %d", c->name, key, d,
                named(a, sizeof a, noun, t), t->shape.rank);
  return true;
}

/* Checks index_select (a 1-D index; the result is the operand with dim
 * resized to the index's length) and gather (an index of the operand's rank,
 * no larger than it outside dim; the result has the index's shape). */
static bool checkIndex(Check *c) {
  const TtrtShape *xs = &c->operands[0].shape, *is = &c->operands[1].shape;
  int d = c->prim->dims[0];
  char what[1024];
  if (!checkOneDim(c, "dim", "operand", &c->operands[0]))
    return false;
  describeShapes(c, what, sizeof what);
  bool gather = c->prim->op == TTRT_OP_GATHER;
  int rank = gather ? xs->rank : 1;
  if (is->rank != rank)
    return fail(c, "%s: the index must have rank %d%s", what, rank,
                gather ? " (the operand's)" : "");
  TtrtShape want = *xs;
  want.dims[d] = is->dims[0];
  if (gather) {
    want = *is;
    for (int k = 0; k < rank; ++k)
      if (k != d && xs->dims[k] >= 0 && is->dims[k] > xs->dims[k])
        return fail(c, "%s: the index has %lld elements in dim %d, more "
                       "than the operand's %lld",
                    what, (long long)is->dims[k], k, (long long)xs->dims[k]);
  }
  return checkResultShape(c, &want);
}

/* Checks iota's dimension against the result's rank. */
static bool checkIota(Check *c) {
  return checkOneDim(c, "dimension", "the result", c->result);
}

/* Checks pad's low and high (one entry per operand dim, each >= 0) and that
 * result dim d has low[d] + size + high[d] elements. */
static bool checkPad(Check *c) {
  const TtrtShape *os = &c->operands[0].shape;
  const TtrtPrim *p = c->prim;
  char a[64];
  TtrtShape want = *os;
  for (int k = 0; k < 2; ++k) {
    if (p->numSlice[k] != os->rank)
      return fail(c, "%s has %d %s entries but %s has rank %d", c->name,
                  p->numSlice[k], ttrtPadKeys[k],
                  named(a, sizeof a, "operand", &c->operands[0]), os->rank);
    for (int d = 0; d < os->rank; ++d) {
      int64_t w = p->slice[k][d];
      if (w < 0)
        return fail(c, "%s %s[%d]=%lld must be at least 0 (negative widths "
                       "crop: use slice)",
                    c->name, ttrtPadKeys[k], d, (long long)w);
      if (w > INT32_MAX)
        return fail(c, "%s %s[%d]=%lld is too large", c->name, ttrtPadKeys[k],
                    d, (long long)w);
      if (want.dims[d] >= 0)
        want.dims[d] += w;
    }
  }
  return checkResultShape(c, &want);
}

/* Checks concat's dim (below the operands' rank; the operands all of one rank) and that
 * the result has the operands' sizes in every other dim and their sum in dim. */
static bool checkConcat(Check *c) {
  const TtrtShape *s0 = &c->operands[0].shape;
  int d = c->prim->dims[0];
  if (!checkOneDim(c, "dim", "operand", &c->operands[0]))
    return false;
  TtrtShape want = *s0;
  for (int i = 1; i < c->prim->numOperands; ++i) {
    const TtrtShape *s = &c->operands[i].shape;
    char what[1024];
    describeShapes(c, what, sizeof what);
    if (s->rank != s0->rank)
      return fail(c, "%s: the operands must have one rank", what);
    for (int k = 0; k < s->rank; ++k)
      if (k != d && !sizesMatch(s->dims[k], s0->dims[k]))
        return fail(c, "%s: the operands differ in dim %d (only dim %d may)",
                    what, k, d);
    want.dims[d] = want.dims[d] < 0 || s->dims[d] < 0
                       ? -1
                       : want.dims[d] + s->dims[d];
  }
  return checkResultShape(c, &want);
}

/* Checks that reshape keeps the number of elements (unless a dimension is
 * dynamic). */
static bool checkReshape(Check *c) {
  int64_t n[2] = {1, 1};
  const TtrtShape *s[2] = {&c->operands[0].shape, &c->result->shape};
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < s[k]->rank; ++i) {
      if (s[k]->dims[i] < 0)
        return true;
      n[k] = n[k] > INT64_MAX / s[k]->dims[i] ? INT64_MAX
                                              : n[k] * s[k]->dims[i];
    }
  char y[64];
  if (n[0] != n[1])
    return fail(c, "reshape of %lld elements into %s of %lld elements",
                (long long)n[0], named(y, sizeof y, "the result", c->result),
                (long long)n[1]);
  return true;
}

bool ttrtPrimCheck(const TtrtPrim *prim, const TtrtPrimTensor *operands,
                   const TtrtPrimTensor *result, const char *dimsKey,
                   bool strictDtypes, char *msg, size_t size) {
  const OpRule *rule = &kRules[prim->op];
  Check c = {prim,       operands,
             result,     rule->name,
             dimsKey ? dimsKey : lineDimsKey(prim->op),
             strictDtypes,
             msg,        size};
  msg[0] = '\0';
  if (prim->numOperands != rule->numOperands)
    return fail(&c, "'%s' takes %d operand%s, not %d", rule->name,
                rule->numOperands, rule->numOperands == 1 ? "" : "s",
                prim->numOperands);
  if (!checkDtypes(&c, strictDtypes) || !checkSizes(&c, "result", result))
    return false;
  for (int i = 0; i < prim->numOperands; ++i)
    if (!checkSizes(&c, "operand", &operands[i]))
      return false;
  if ((prim->op == TTRT_OP_CONSTANT || prim->op == TTRT_OP_PAD) &&
      !ttrtDtypeHolds(result->dtype, prim->value))
    return fail(&c, "'%s' value %.17g does not fit %s (%s)", c.name, prim->value,
                ttrtDtypeGetName(result->dtype),
                ttrtDtypeIsFloat(result->dtype)
                    ? "past its largest finite value"
                    : "an integer dtype takes an integer in its range");
  switch (rule->shape) {
  case SHAPE_NONE:
    return true;
  case SHAPE_ELEMENTWISE:
    return checkElementwise(&c);
  case SHAPE_BROADCAST:
    return checkBroadcast(&c);
  case SHAPE_RESHAPE:
    return checkReshape(&c);
  case SHAPE_TRANSPOSE:
    return checkTranspose(&c);
  case SHAPE_REDUCTION:
    return checkReduction(&c);
  case SHAPE_MATMUL:
    return checkMatmul(&c);
  case SHAPE_SLICE:
    return checkSlice(&c);
  case SHAPE_CONCAT:
    return checkConcat(&c);
  case SHAPE_INDEX_SELECT:
  case SHAPE_GATHER:
    return checkIndex(&c);
  case SHAPE_IOTA:
    return checkIota(&c);
  case SHAPE_PAD:
    return checkPad(&c);
  case SHAPE_ARGREDUCE:
    return checkArgReduction(&c);
  }
  return true;
}
