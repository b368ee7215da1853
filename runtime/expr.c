/* expr.c - the expression language of grid sizes and integer arguments in
 * the launch metadata (docs/metadata.md): `cdiv(numel(%1),128)`.
 *
 * Grammar (no spaces, no minus, so every value is >= 0):
 *   sum     := product ('+' product)*
 *   product := term ('*' term)*
 *   term    := INTEGER | numel(ID) | dim(ID,INTEGER) | cdiv(sum,sum) | (sum)
 * A recursive-descent parser, one function per rule, appends the nodes of a
 * token to TtrtMeta.exprs (children before their parent; nodes refer to each
 * other by index) and returns the root, checking on the way that every `%N`
 * has a tensor line and every dim() is a dimension of its tensor. The
 * evaluator walks a tree with the tensor shapes of the metadata, failing on
 * int64 overflow and division by zero; the formatter writes a tree back in
 * the same syntax, with the parentheses a sum needs under `*`.
 */
#include "parse.h"

#include <ctype.h>
#include <limits.h>
#include <string.h>

/*===------------------------------------------------------------------===*
 * Parsing
 *===------------------------------------------------------------------===*/

/* Limits that keep the recursive parser, evaluator and formatter off deep
 * stacks: nesting of parentheses and cdiv, and nodes of one expression (a
 * chain of `*` or `+` makes a tree as deep as it is long). */
#define MAX_EXPR_DEPTH 32
#define MAX_EXPR_NODES 256

typedef struct ExprParser {
  Parser *p;
  const char *text;
  size_t pos;
  int depth;     /* sums being parsed, one inside another */
  int firstNode; /* meta->numExprs when this expression began */
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
  if (p->meta->numExprs - e->firstNode >= MAX_EXPR_NODES) {
    FAIL(p, "bad expression: more than %d terms and operators", MAX_EXPR_NODES);
    return -1;
  }
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
  if (n == 0 || !mpParseUnsigned(e->text + e->pos, n, max, out)) {
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
  if (!mpParseId(e->text + e->pos, n, &id)) {
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

/* Parses `operand (op operand)*`, folding to the left into nodes of
 * `kind`. */
static int parseChain(ExprParser *e, int (*operand)(ExprParser *),
                      const char *op, TtrtExprKind kind) {
  int lhs = operand(e);
  while (lhs >= 0 && exprAccept(e, op)) {
    int rhs = operand(e);
    lhs = rhs < 0 ? -1 : newExpr(e, kind, 0, -1, lhs, rhs);
  }
  return lhs;
}

/* product := term ('*' term)* */
static int parseProduct(ExprParser *e) {
  return parseChain(e, parseTerm, "*", TTRT_EXPR_MUL);
}

/* sum := product ('+' product)* */
static int parseSum(ExprParser *e) {
  if (e->depth == MAX_EXPR_DEPTH) {
    FAIL(e->p, "bad expression: nested more than %d deep", MAX_EXPR_DEPTH);
    return -1;
  }
  e->depth++;
  int root = parseChain(e, parseProduct, "+", TTRT_EXPR_ADD);
  e->depth--;
  return root;
}

int mpParseExpression(Parser *p, const char *token) {
  ExprParser e = {p, token, 0, 0, p->meta->numExprs};
  int root = parseSum(&e);
  if (root >= 0 && token[e.pos] != '\0')
    return exprFail(&e, "unexpected text");
  return root;
}

/*===------------------------------------------------------------------===*
 * Evaluation
 *===------------------------------------------------------------------===*/

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
  if (shape && !meta->resolved) {
    *why = "a symbolic size that is not bound yet";
    return false;
  }
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

/*===------------------------------------------------------------------===*
 * Formatting
 *===------------------------------------------------------------------===*/

static void formatNode(const TtrtMeta *meta, int i, Buf *b);

/* Formats an operand of `*`, parenthesized if it is a sum. */
static void formatFactor(const TtrtMeta *meta, int i, Buf *b) {
  bool paren = meta->exprs[i].kind == TTRT_EXPR_ADD;
  mpBufPrintf(b, "%s", paren ? "(" : "");
  formatNode(meta, i, b);
  mpBufPrintf(b, "%s", paren ? ")" : "");
}

/* Appends the spelling of node `i`. */
static void formatNode(const TtrtMeta *meta, int i, Buf *b) {
  const TtrtExpr *x = &meta->exprs[i];
  long long id = x->tensor >= 0 ? (long long)meta->tensors[x->tensor].id : 0;
  switch (x->kind) {
  case TTRT_EXPR_INT:
    mpBufPrintf(b, "%lld", (long long)x->value);
    break;
  case TTRT_EXPR_NUMEL:
    mpBufPrintf(b, "numel(%%%lld)", id);
    break;
  case TTRT_EXPR_DIM:
    mpBufPrintf(b, "dim(%%%lld,%lld)", id, (long long)x->value);
    break;
  case TTRT_EXPR_CDIV:
    mpBufPrintf(b, "cdiv(");
    formatNode(meta, x->lhs, b);
    mpBufPrintf(b, ",");
    formatNode(meta, x->rhs, b);
    mpBufPrintf(b, ")");
    break;
  case TTRT_EXPR_ADD:
    formatNode(meta, x->lhs, b);
    mpBufPrintf(b, "+");
    formatNode(meta, x->rhs, b);
    break;
  case TTRT_EXPR_MUL:
    formatFactor(meta, x->lhs, b);
    mpBufPrintf(b, "*");
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
