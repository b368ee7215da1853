/* prim.c - the prim lines of the launch metadata (docs/metadata.md): the
 * program the reference interpreter (ref.c) runs.
 *
 * The op table (names, arities, required attributes) and the dtype and
 * shape rules of every op live in rules.c, shared with the compiler's prim
 * verifier. A prim line resolves its result and operands to tensor slots
 * (each operand defined on an earlier line, the result defined once and
 * never an input), reads its KEY=VALUE attributes, each once and after the
 * operands, and then checks the op's dtypes and shapes with ttrtPrimCheck,
 * naming the tensors by their ids.
 */
#include "parse.h"
#include "rules.h"

#include <string.h>

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

/* Parses slice's start=, stop= or step=, or pad's low= or high= (`key`, row
 * k of prim->slice): numbers joined by ','. */
static TtrtStatus parseSliceList(Parser *p, const char *key, int k,
                                 const char *text, TtrtPrim *prim) {
  prim->numSlice[k] = 0;
  for (const char *s = text; *s;) {
    size_t n = strcspn(s, ",");
    int64_t v;
    if (prim->numSlice[k] == TTRT_MAX_RANK)
      return FAIL(p, "%s=%s has more than %d entries", key, text,
                  TTRT_MAX_RANK);
    if (!mpParseUnsigned(s, n, INT64_MAX / 2, &v))
      return FAIL(p, "bad %s=%s (expected numbers joined by ',')", key, text);
    prim->slice[k][prim->numSlice[k]++] = v;
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
  /* concat, index_select, gather: dim; iota: dimension */
  if (strcmp(key, "dim") == 0 || strcmp(key, "dimension") == 0) {
    int64_t d;
    if (!mpParseUnsignedToken(value, TTRT_MAX_RANK, &d))
      return FAIL(p, "bad %s=%s (expected a dimension number)", key, value);
    prim->numDims = 1;
    prim->dims[0] = (int)d;
    return TTRT_SUCCESS;
  }
  for (int k = 0; k < 3; ++k)
    if (strcmp(key, ttrtSliceKeys[k]) == 0)
      return parseSliceList(p, key, k, value, prim);
  for (int k = 0; k < 2; ++k)
    if (strcmp(key, ttrtPadKeys[k]) == 0)
      return parseSliceList(p, key, k, value, prim);
  if (strcmp(key, "value") == 0) {
    if (!mpParseDouble(value, &prim->value))
      return FAIL(p, "bad value=%s (expected a decimal float, inf, -inf or "
                     "nan)",
                  value);
    return TTRT_SUCCESS;
  }
  if (!ttrtDirectionParse(value, &prim->direction))
    return FAIL(p, "bad direction=%s (expected lt, le, gt, ge, eq or ne)",
                value);
  return TTRT_SUCCESS;
}

/* The index among the attributes of `op` of the key of `length` chars at
 * `key`, or -1 if the op has no such attribute. */
static int findAttribute(TtrtOp op, const char *key, size_t length) {
  const char *name;
  for (int k = 0; (name = ttrtOpGetAttribute(op, k)) != NULL; ++k)
    if (strlen(name) == length && strncmp(key, name, length) == 0)
      return k;
  return -1;
}

/* Parses one KEY=VALUE attribute of `prim`; bit k of *seen is set once the
 * op's k-th attribute has been given. */
static TtrtStatus parseAttribute(Parser *p, const char *token, TtrtPrim *prim,
                                 unsigned *seen) {
  const char *eq = strchr(token, '=');
  size_t keyLength = (size_t)(eq - token);
  int k = findAttribute(prim->op, token, keyLength);
  if (k < 0)
    return FAIL(p, "'%s' has no attribute '%.*s'", ttrtOpGetName(prim->op),
                (int)keyLength, token);
  const char *key = ttrtOpGetAttribute(prim->op, k);
  if (*seen & 1u << k)
    return FAIL(p, "attribute '%s' is given twice", key);
  *seen |= 1u << k;
  return parseAttributeValue(p, key, eq + 1, prim);
}

/* Parses the operands and attributes (tokens from index 4 on). */
static TtrtStatus parseOperands(Parser *p, TtrtPrim *prim) {
  const char *name = ttrtOpGetName(prim->op);
  int arity = ttrtOpGetNumOperands(prim->op);
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
      return FAIL(p, "'%s' takes %d operands", name, arity);
    int *slot = &prim->operands[prim->numOperands++];
    if (mpResolveId(p, tok, slot))
      return TTRT_FAILURE;
    if (!p->definedAt[*slot])
      return FAIL(p, "%s is used before it is defined", tok);
  }
  if (prim->numOperands != arity)
    return FAIL(p, "'%s' takes %d operand%s, not %d", name, arity,
                arity == 1 ? "" : "s", prim->numOperands);
  const char *key;
  for (int k = 0; (key = ttrtOpGetAttribute(prim->op, k)) != NULL; ++k)
    if (!(seen & 1u << k))
      return FAIL(p, "'%s' needs the attribute %s=", name, key);
  return TTRT_SUCCESS;
}

void mpFormatAttributes(const TtrtPrim *prim, Buf *b) {
  char text[512];
  ttrtPrimFormatAttributes(prim, NULL, text, sizeof text);
  mpBufPrintf(b, "%s", text);
}

/*===------------------------------------------------------------------===*
 * Shape and dtype checks
 *===------------------------------------------------------------------===*/

/* Checks the dtypes and shapes of a parsed prim by the rules of rules.h,
 * its tensors named by their ids. */
static TtrtStatus verifyPrim(Parser *p, const TtrtPrim *prim) {
  TtrtPrimTensor tensors[TTRT_MAX_OPERANDS + 1];
  char names[TTRT_MAX_OPERANDS + 1][32];
  for (int i = 0; i <= prim->numOperands; ++i) {
    const TtrtTensor *t =
        &p->meta->tensors[i < prim->numOperands ? prim->operands[i]
                                                : prim->result];
    snprintf(names[i], sizeof names[i], "%%%lld", (long long)t->id);
    tensors[i] = (TtrtPrimTensor){names[i], t->dtype, t->shape};
  }
  char msg[2048];
  if (!ttrtPrimCheck(prim, tensors, &tensors[prim->numOperands], NULL,
                     false, msg, sizeof msg))
    return FAIL(p, "%s", msg);
  return TTRT_SUCCESS;
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
                (long long)t->id, ttrtOpGetName(prim->op));
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
  if (!ttrtOpLookup(p->tokens[3], &prim->op))
    return FAIL(p, "unknown prim op '%s'", p->tokens[3]);
  if (checkResult(p, prim) || parseOperands(p, prim) || verifyPrim(p, prim))
    return TTRT_FAILURE;
  p->definedAt[prim->result] = p->line;
  return TTRT_SUCCESS;
}
