/* prim.c - the prim lines of the launch metadata (docs/metadata.md): the
 * program the reference interpreter (ref.c) runs.
 *
 * kOps says, per op, its name, how many operands it takes and which
 * attributes it requires. A prim line resolves its result and operands to
 * tensor slots (each operand defined on an earlier line, the result defined
 * once and never an input), reads its KEY=VALUE attributes, each once and
 * after the operands, and then checks the op's types and shapes:
 * elementwise ops (compare with an i1 result) need equal shapes,
 * broadcast_in_dim, transpose and the reductions check their dimension lists
 * (each in range, none twice) and the result shape the list implies,
 * matmul checks [M,K] x [K,N] -> [M,N] (and batched), reshape keeps the
 * number of elements. A shape error spells out the op, its attributes and
 * its operands with their shapes.
 */
#include "parse.h"

#include <string.h>

/*===------------------------------------------------------------------===*
 * Ops
 *===------------------------------------------------------------------===*/

static const char *const kDirectionNames[] = {"lt", "le", "gt",
                                              "ge", "eq", "ne"};

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

const char *ttrtOpGetName(TtrtOp op) { return kOps[op].name; }
bool ttrtOpIsReduction(TtrtOp op) {
  return op == TTRT_OP_SUM || op == TTRT_OP_AMAX || op == TTRT_OP_AMIN;
}
const char *ttrtDirectionGetName(TtrtDirection direction) {
  return kDirectionNames[direction];
}

/*===------------------------------------------------------------------===*
 * Operands and attributes
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
    if (!mpParseUnsigned(s, n, TTRT_MAX_RANK, &d))
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
    if (!mpParseDouble(value, &prim->value))
      return FAIL(p, "bad value=%s (expected a decimal float, inf, -inf or "
                     "nan)",
                  value);
    return TTRT_SUCCESS;
  }
  int dir = mpLookupName(kDirectionNames, 6, value);
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
    if (mpResolveId(p, tok, slot))
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

void mpFormatAttributes(const TtrtPrim *prim, Buf *b) {
  if (prim->op == TTRT_OP_COMPARE)
    mpBufPrintf(b, " direction=%s", kDirectionNames[prim->direction]);
  if (prim->op == TTRT_OP_CONSTANT)
    mpBufPrintf(b, " value=%.17g", prim->value);
  if (prim->op == TTRT_OP_BROADCAST_IN_DIM || prim->op == TTRT_OP_TRANSPOSE ||
      ttrtOpIsReduction(prim->op)) {
    mpBufPrintf(b, " %s=", dimsKey(prim->op));
    for (int i = 0; i < prim->numDims; ++i)
      mpBufPrintf(b, "%s%d", i ? "," : "", prim->dims[i]);
  }
  if (ttrtOpIsReduction(prim->op))
    mpBufPrintf(b, " keepdim=%d", prim->keepdim);
}

/*===------------------------------------------------------------------===*
 * Shape checks
 *===------------------------------------------------------------------===*/

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

/* Writes "OP ATTRIBUTES of %A (shape S) and %B (shape T)", the start of a
 * message about the shapes of `prim`. */
static void describeShapes(const Parser *p, const TtrtPrim *prim, char *buf,
                           size_t size) {
  Buf b = {buf, size, 0};
  buf[0] = '\0';
  mpBufPrintf(&b, "%s", kOps[prim->op].name);
  mpFormatAttributes(prim, &b);
  mpBufPrintf(&b, " of");
  for (int i = 0; i < prim->numOperands; ++i) {
    char shape[256];
    ttrtShapeFormat(&p->meta->tensors[prim->operands[i]].shape, shape,
                    sizeof shape);
    mpBufPrintf(&b, "%s %%%lld (shape %s)", i ? " and" : "",
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

/*===------------------------------------------------------------------===*
 * prim lines
 *===------------------------------------------------------------------===*/

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

TtrtStatus mpParsePrimLine(Parser *p) {
  if (mpStartDefinitions(p))
    return TTRT_FAILURE;
  if (p->numTokens < 4 || strcmp(p->tokens[2], "=") != 0)
    return FAIL(p, "'prim' line must be: prim ID = OP OPERAND... "
                   "[KEY=VALUE]...");
  int i = APPEND(p, prims, numPrims, capPrims);
  if (i < 0)
    return TTRT_FAILURE;
  TtrtPrim *prim = &p->meta->prims[i];
  prim->line = p->line;
  if (mpResolveId(p, p->tokens[1], &prim->result))
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
