/* prim-simplify.c - a tt pass plugin: pointwise simplification of prim ops
 * (`tt-opt --load-pass-plugin=prim-simplify.so --prim-simplify`).
 *
 * prim ops are defined in IRDL, so they have no folders and --canonicalize leaves them as
 * they are; a front end's programs still carry identities (`x * 1`, `x / 8` for an
 * attention scale, `x.pow(2)` in RMSNorm). This pass rewrites the ones whose result is
 * the same value for every input (NaN stays NaN), and the pow exponents that PyTorch's
 * own pow kernel computes without pow (so the result is eager PyTorch's):
 *
 *   rule          from                                     to
 *   mul-one       mul(x, 1), mul(1, x)                     x
 *   div-one       div(x, 1)                                x           (float)
 *   add-zero      add(x, -0.0), add(-0.0, x); int: +0      x           (x + +0.0 is not x
 *   sub-zero      sub(x, +0.0); int: 0                     x            at x = -0.0)
 *   div-pow2      div(x, 2^k)                              mul(x, 2^-k) (both normal in the
 *                                                                        element type)
 *   pow-scalar    pow(x, 1) / 2 / -1 / 0.5 / -0.5          x, mul(x, x), reciprocal(x),
 *                                                          sqrt(x), rsqrt(x)   (float)
 *   neg-neg       neg(neg(x))                              x
 *   abs-abs       abs(neg(x)), abs(abs(x))                 abs(x)
 *   same-operand  max(x, x), min(x, x), where(c, x, x)     x
 *   no-op         convert, reshape, broadcast_in_dim or transpose to x's own type
 *                 (identity dims / permutation)            x
 *   widen-narrow  convert(convert(x: A -> B) -> A) where B holds every value of A
 *                 (float: mantissa and exponent bits at least A's; int: wider)  x
 *
 * The algorithm:
 *  1. collect the prim ops of the module (pre-order);
 *  2. for each op, the first rule of the table whose op name and test match gives a
 *     replacement value: an operand, or ops built just before it (at its location);
 *  3. the op's uses take the replacement, the op is erased, and so are the ops it read
 *     that no one else reads any more (constants, the inner op of a pair);
 *  4. repeat from 1 while a rule fired, at most max-iterations times.
 * Each rule that fires adds one to its statistic (--mlir-pass-statistics) and, with
 * report=1, prints a remark at the op.
 */
#include "tt/pass.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const TtPassApi *tt; /* tt's helpers, from initialize */

enum { OPT_REPORT, OPT_MAX_ITERATIONS, OPT_POW, NOPTIONS };

/* --- Reading ops --------------------------------------------------------------------- */

static MlirValue operand(MlirOperation op, intptr_t i) {
  return mlirOperationGetOperand(op, i);
}
static MlirValue result(MlirOperation op) { return mlirOperationGetResult(op, 0); }

/* The op defining v, or a null op (a block argument). */
static MlirOperation def(MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
}

/* True when v is a prim.full or splat prim.constant of value c (as written). */
static bool splatIs(MlirValue v, double c, bool negZero) {
  MlirOperation d = def(v);
  double x;
  if (mlirOperationIsNull(d) || !tt->primSplatValue(d, &x) || x != c)
    return false;
  return c != 0 || signbit(x) == negZero;
}

static bool isFloat(MlirType t) {
  MlirType e = tt->elementType(t);
  return mlirTypeIsAFloat(e);
}

/* Mantissa and exponent bits of a float element type; false for others. */
static bool floatBits(MlirType t, int *mant, int *exp) {
  static const struct {
    const char *name;
    int mant, exp;
  } formats[] = {{"f64", 52, 11}, {"f32", 23, 8},    {"bf16", 7, 8},
                 {"f16", 10, 5},  {"f8e4m3", 3, 4}, {"f8e5m2", 2, 5}};
  const char *name = tt->dtypeName(t);
  for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
    if (strcmp(formats[i].name, name) == 0) {
      *mant = formats[i].mant;
      *exp = formats[i].exp;
      return true;
    }
  return false;
}

/* True when every value of `from`'s element type is one of `to`'s. */
static bool holds(MlirType to, MlirType from) {
  int ma, ea, mb, eb;
  if (floatBits(from, &ma, &ea) && floatBits(to, &mb, &eb))
    return mb >= ma && eb >= ea;
  MlirType a = tt->elementType(from), b = tt->elementType(to);
  return mlirTypeIsAInteger(a) && mlirTypeIsAInteger(b) &&
         mlirIntegerTypeGetWidth(b) > mlirIntegerTypeGetWidth(a);
}

/* True when the dense i64 array attribute `name` of op is 0, 1, ..., n-1. */
static bool iotaAttr(MlirOperation op, const char *name, intptr_t n) {
  MlirAttribute a = tt->opAttr(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a) ||
      mlirDenseArrayGetNumElements(a) != n)
    return false;
  for (intptr_t i = 0; i < n; i++)
    if (mlirDenseI64ArrayGetElement(a, i) != i)
      return false;
  return true;
}

/* --- Rules: each returns the replacement of op's result, or a null value --------------- */

typedef MlirValue (*RuleFn)(MlirOperation op, const TtPassOptions *opts);
static const MlirValue none = {NULL};

/* A new prim op `name` before op, at its location, of op's result type. */
static MlirValue buildBefore(MlirOperation op, const char *name, intptr_t n,
                             const MlirValue *operands) {
  TtBuilder b = {mlirOperationGetBlock(op), op};
  return tt->build(&b, name, mlirOperationGetLocation(op), n, operands,
                   mlirValueGetType(result(op)), 0, NULL);
}

static MlirValue mulOne(MlirOperation op, const TtPassOptions *opts) {
  (void)opts;
  if (splatIs(operand(op, 1), 1, false))
    return operand(op, 0);
  return splatIs(operand(op, 0), 1, false) ? operand(op, 1) : none;
}

static MlirValue divOne(MlirOperation op, const TtPassOptions *opts) {
  (void)opts;
  return isFloat(mlirValueGetType(result(op))) && splatIs(operand(op, 1), 1, false)
             ? operand(op, 0)
             : none;
}

static MlirValue addZero(MlirOperation op, const TtPassOptions *opts) {
  (void)opts;
  bool negZero = isFloat(mlirValueGetType(result(op))); /* x + (-0.0) == x, always */
  if (splatIs(operand(op, 1), 0, negZero))
    return operand(op, 0);
  return splatIs(operand(op, 0), 0, negZero) ? operand(op, 1) : none;
}

static MlirValue subZero(MlirOperation op, const TtPassOptions *opts) {
  (void)opts;
  return splatIs(operand(op, 1), 0, false) ? operand(op, 0) : none;
}

/* div(x, 2^k) -> mul(x, 2^-k) when 2^k and 2^-k are normal numbers of the element type
 * (then both round nothing, and x * 2^-k is x / 2^k rounded once, the same way). */
static MlirValue divPow2(MlirOperation op, const TtPassOptions *opts) {
  (void)opts;
  MlirOperation d = def(operand(op, 1));
  int mant, bits;
  double c;
  if (mlirOperationIsNull(d) || !tt->primSplatValue(d, &c) || c == 0 || !isfinite(c) ||
      !floatBits(mlirValueGetType(result(op)), &mant, &bits))
    return none;
  int k;
  if (frexp(fabs(c), &k) != 0.5) /* c = ±2^(k-1) */
    return none;
  int maxExp = (1 << (bits - 1)) - 1; /* normal exponents: 1 - maxExp ... maxExp */
  if (abs(k - 1) > maxExp - 1)
    return none;
  MlirContext ctx = mlirOperationGetContext(op);
  MlirNamedAttribute value = tt->namedAttr(
      ctx, "value", mlirFloatAttrDoubleGet(ctx, mlirF64TypeGet(ctx), 1.0 / c));
  TtBuilder b = {mlirOperationGetBlock(op), op};
  MlirValue inv = tt->build(&b, "prim.full", mlirOperationGetLocation(op), 0, NULL,
                            mlirValueGetType(result(op)), 1, &value);
  MlirValue ops[2] = {operand(op, 0), inv};
  return buildBefore(op, "prim.mul", 2, ops);
}

/* pow(x, e) for the exponents PyTorch's pow kernel special-cases (option pow=0: none). */
static MlirValue powScalar(MlirOperation op, const TtPassOptions *opts) {
  MlirValue x = operand(op, 0);
  MlirOperation d = def(operand(op, 1));
  double e;
  if (!opts->v[OPT_POW] || !isFloat(mlirValueGetType(result(op))) ||
      mlirOperationIsNull(d) || !tt->primSplatValue(d, &e))
    return none;
  if (e == 1)
    return x;
  if (e == 2) {
    MlirValue xx[2] = {x, x};
    return buildBefore(op, "prim.mul", 2, xx);
  }
  static const struct {
    double e;
    const char *op;
  } unary[] = {{-1, "prim.reciprocal"}, {0.5, "prim.sqrt"}, {-0.5, "prim.rsqrt"}};
  for (size_t i = 0; i < sizeof unary / sizeof unary[0]; i++)
    if (e == unary[i].e)
      return buildBefore(op, unary[i].op, 1, &x);
  return none;
}

static MlirValue negNeg(MlirOperation op, const TtPassOptions *opts) {
  (void)opts;
  MlirOperation d = def(operand(op, 0));
  return !mlirOperationIsNull(d) && tt->opIs(d, "prim.neg") ? operand(d, 0) : none;
}

static MlirValue absAbs(MlirOperation op, const TtPassOptions *opts) {
  (void)opts;
  MlirOperation d = def(operand(op, 0));
  if (mlirOperationIsNull(d))
    return none;
  if (tt->opIs(d, "prim.abs"))
    return result(d);
  if (tt->opIs(d, "prim.neg")) {
    MlirValue x = operand(d, 0);
    return buildBefore(op, "prim.abs", 1, &x);
  }
  return none;
}

static MlirValue sameOperand(MlirOperation op, const TtPassOptions *opts) {
  (void)opts;
  intptr_t n = mlirOperationGetNumOperands(op); /* where: (cond, a, b); max, min: (a, b) */
  return mlirValueEqual(operand(op, n - 2), operand(op, n - 1)) ? operand(op, n - 1) : none;
}

static MlirValue noOp(MlirOperation op, const TtPassOptions *opts) {
  (void)opts;
  MlirValue x = operand(op, 0);
  MlirType t = mlirValueGetType(x);
  if (!mlirTypeEqual(t, mlirValueGetType(result(op))) || !mlirTypeIsARankedTensor(t))
    return none;
  intptr_t rank = mlirShapedTypeGetRank(t);
  if (tt->opIs(op, "prim.broadcast_in_dim") && !iotaAttr(op, "broadcast_dimensions", rank))
    return none;
  if (tt->opIs(op, "prim.transpose") && !iotaAttr(op, "permutation", rank))
    return none;
  return x;
}

static MlirValue widenNarrow(MlirOperation op, const TtPassOptions *opts) {
  (void)opts;
  MlirOperation d = def(operand(op, 0));
  if (mlirOperationIsNull(d) || !tt->opIs(d, "prim.convert"))
    return none;
  MlirValue x = operand(d, 0);
  MlirType a = mlirValueGetType(x), b = mlirValueGetType(result(d));
  return mlirTypeEqual(a, mlirValueGetType(result(op))) && holds(b, a) ? x : none;
}

/* The rules, first match wins; a rule's name is its statistic. */
static const struct {
  const char *op, *name, *help;
  RuleFn fn;
} rules[] = {
    {"prim.mul", "mul-one", "mul(x, 1) became x", mulOne},
    {"prim.div", "div-one", "div(x, 1) became x", divOne},
    {"prim.div", "div-pow2", "div(x, 2^k) became mul(x, 2^-k)", divPow2},
    {"prim.add", "add-zero", "add(x, -0.0) became x", addZero},
    {"prim.sub", "sub-zero", "sub(x, 0.0) became x", subZero},
    {"prim.pow", "pow-scalar", "pow(x, 1|2|-1|0.5|-0.5) became x or one op", powScalar},
    {"prim.neg", "neg-neg", "neg(neg(x)) became x", negNeg},
    {"prim.abs", "abs-abs", "abs(abs(x)) or abs(neg(x)) became abs(x)", absAbs},
    {"prim.max", "same-operand", "max/min/where of one value twice became it", sameOperand},
    {"prim.min", "same-operand", "max/min/where of one value twice became it", sameOperand},
    {"prim.where", "same-operand", "max/min/where of one value twice became it", sameOperand},
    {"prim.convert", "widen-narrow", "convert(convert(x) to a wider type) back became x",
     widenNarrow},
    {"prim.convert", "no-op", "a convert/reshape/broadcast/transpose to x's type became x",
     noOp},
    {"prim.reshape", "no-op", "a convert/reshape/broadcast/transpose to x's type became x",
     noOp},
    {"prim.broadcast_in_dim", "no-op",
     "a convert/reshape/broadcast/transpose to x's type became x", noOp},
    {"prim.transpose", "no-op", "a convert/reshape/broadcast/transpose to x's type became x",
     noOp},
};

/* --- The driver ------------------------------------------------------------------------ */

typedef struct {
  MlirOperation *ops;
  int n, cap;
} OpList;

static void push(OpList *l, MlirOperation op) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    l->ops = realloc(l->ops, (size_t)l->cap * sizeof *l->ops);
    if (!l->ops)
      abort();
  }
  l->ops[l->n++] = op;
}

static bool collectPrim(MlirOperation op, void *userData) {
  if (tt->opHasPrefix(op, "prim.") && mlirOperationGetNumResults(op) == 1)
    push(userData, op);
  return true;
}

/* Step 3: erases op when nothing reads its result, then the ops it read that became
 * unread (prim ops only: they have no effects). */
static void eraseUnread(MlirOperation op) {
  OpList work = {0};
  push(&work, op);
  while (work.n) {
    MlirOperation o = work.ops[--work.n];
    if (!tt->opHasPrefix(o, "prim.") || mlirOperationGetNumResults(o) != 1 ||
        !mlirOpOperandIsNull(mlirValueGetFirstUse(result(o))))
      continue; /* read by another op still */
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(o); i++) {
      MlirOperation d = def(operand(o, i));
      bool seen = false; /* an op read twice is pushed once */
      for (int k = 0; k < work.n && !seen; k++)
        seen = mlirOperationEqual(work.ops[k], d);
      if (!mlirOperationIsNull(d) && !seen)
        push(&work, d);
    }
    mlirOperationDestroy(o);
  }
  free(work.ops);
}

/* Steps 1-3 once; returns the rewrites made. */
static int sweep(MlirOperation module, const TtPassOptions *opts) {
  OpList prims = {0};
  tt->walk(module, collectPrim, &prims);
  int rewrites = 0;
  for (int i = 0; i < prims.n; i++) {
    MlirOperation op = prims.ops[i];
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
      if (!tt->opIs(op, rules[r].op))
        continue;
      MlirValue with = rules[r].fn(op, opts);
      if (mlirValueIsNull(with))
        continue;
      if (opts->v[OPT_REPORT])
        tt->emitRemark(op, "prim-simplify: %s: %s", rules[r].name, rules[r].help);
      tt->statisticAdd(rules[r].name, rules[r].help, 1);
      mlirValueReplaceAllUsesOfWith(result(op), with);
      eraseUnread(op);
      rewrites++;
      break;
    }
  }
  free(prims.ops);
  return rewrites;
}

/* Step 4. */
static MlirLogicalResult run(MlirOperation module, const TtPassOptions *opts, void *userData) {
  (void)userData;
  for (int64_t it = 0; it < opts->v[OPT_MAX_ITERATIONS]; it++)
    if (sweep(module, opts) == 0)
      break;
  return mlirLogicalResultSuccess();
}

/* --- The plugin ------------------------------------------------------------------------ */

static const TtPassOption options[] = {
    [OPT_REPORT] = {"report", "1: print a remark at each op rewritten", 0, 0, 1, NULL},
    [OPT_MAX_ITERATIONS] = {"max-iterations",
                            "sweeps over the module at most (a sweep's rewrites may enable "
                            "more in the next)",
                            4, 1, 100, NULL},
    [OPT_POW] = {"pow",
                 "1: pow with a scalar exponent of 1, 2, -1, 0.5 or -0.5 becomes x, x * x, "
                 "reciprocal, sqrt or rsqrt (PyTorch's pow kernel computes these so); 0: pow "
                 "stays",
                 1, 0, 1, NULL},
};
_Static_assert(sizeof options / sizeof options[0] == NOPTIONS, "one row per option");

static const TtPassInfo passes[] = {{
    "prim-simplify",
    "Rewrite pointwise identities of prim ops (x * 1, x / 2^k, pow(x, 2), ...)",
    "prim ops are defined in IRDL and have no folders, so --canonicalize leaves them as they "
    "are. This pass rewrites the identities whose result is the same value for every input "
    "(x * 1, x / 1, x + -0.0, x - 0.0, neg(neg(x)), abs(abs(x)), max(x, x), a convert or "
    "shape op to x's own type, a widening convert converted back), division by a power of "
    "two into a multiplication, and pow with a scalar exponent of 1, 2, -1, 0.5 or -0.5 "
    "into the op PyTorch's own pow kernel uses. Run it before --fuse.",
    options,
    NOPTIONS,
    run,
    NULL,
    NULL,
}};

static MlirLogicalResult initialize(const TtPassApi *api) {
  tt = api;
  return mlirLogicalResultSuccess();
}

static const TtPassPluginInfo info = {
    TT_PASS_API_VERSION, "prim-simplify", "1.0", initialize, passes, 1,
};

const TtPassPluginInfo *ttGetPassPluginInfo(void) { return &info; }
