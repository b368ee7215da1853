/* decompose.c - the --decompose pass: rewrite composite prim ops into primitive prim ops.
 *
 * A composite (softmax, layer_norm, gelu, ...) is a formula over primitives; after this
 * pass a program holds only ops that --fuse and --tile know: unary/binary elementwise ops,
 * convert, broadcast_in_dim, reshape, transpose, full, the reductions sum/amax (over
 * `dims`, keepdim = false) and matmul. Each composite has one rule function below, and
 * the table `rules` maps the op's name to it. The formulas are PyTorch's (its own
 * decompositions in torch/_decomp and its CUDA kernels), with x the input, r its rank,
 * N the size of the reduced dimension, and b(v) the reduced value v broadcast back to x's
 * shape with prim.broadcast_in_dim (every dimension but the reduced one):
 *
 *   softmax(x, d)          m = amax(x, d); e = exp(x - b(m)); y = e / b(sum(e, d))
 *   log_softmax(x, d)      s = x - b(amax(x, d)); y = s - b(log(sum(exp(s), d)))
 *                          (d < 0 counts from the end; a tensor with no elements skips
 *                          the max, as PyTorch does)
 *   layer_norm(x, w, c, eps) over the last dimension:
 *                          mean = sum(x)/N; v = x - b(mean); var = sum(v*v)/N;
 *                          y = v * b(rsqrt(var + eps)) * bw(w) + bw(c)
 *   rms_norm(x, w, eps)    y = x * b(rsqrt(sum(x*x)/N + eps)) * bw(w)
 *   gelu "none"            y = x*0.5 * (1 + erf(x * (1/sqrt 2)))
 *   gelu "tanh"            y = 0.5*x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x*x*x)))
 *   sigmoid(x)             y = reciprocal(1 + exp(-x))
 *   silu(x)                y = x * sigmoid(x)
 *   swiglu(a, c)           y = a * sigmoid(a) * c
 *   linear(x, w, c?)       y = matmul(x, transpose(w, [1, 0])) + bw(c); an x of rank other
 *                          than 2 is reshaped to [M, K] and the product back to [..., N]
 *   scaled_mm(a, b, sa, sb, c?)  (fp8 a [M, K], b [K, N]; f32 scales of rank 0)
 *                          y = matmul(a, b) (in f32) * bs(sa) * bs(sb) + bw(c), then
 *                          converted to the result's dtype; bs(s) broadcasts a scale
 *   mean(x, dims)          sum(x, dims) / N (N the product of the reduced dims' sizes)
 *   var(x, dims, c)        m = sum(x, dims) / N; d = x - b(m); sum(d*d, dims) / max(N - c, 0)
 *   std(x, dims, c)        sqrt(var(x, dims, c))
 *   relu(x)                max(x, 0)
 *   clamp(x, lo?, hi?)     min(max(x, lo), hi), either bound optional
 *   matmul(a, b)           (a primitive, rewritten when it is not [M, K] x [K, N] or
 *                          [B, M, K] x [B, K, N]: torch.matmul's 1-D operands and batch
 *                          dims become reshapes, broadcasts and one of those; see below)
 *
 * where bw(w) broadcasts a 1-D weight or bias along the last dimension.
 *
 * Dtypes (PyTorch's policy): an f16 or bf16 composite converts its operands to f32 once
 * (prim.convert), computes in f32 and converts the result back once; f32 and f64 compute
 * in their own dtype. Constants are `prim.full` of the compute dtype (an f32 `value`, f64
 * for f64). linear is the exception: prim.matmul reads x and w in their own dtype and
 * accumulates in f32; with a bias its result is asked in f32, the bias is added in f32,
 * and one convert rounds the sum.
 *
 * Algorithm:
 *  1. Walk every func.func and collect the ops whose name is in `rules`.
 *  2. For each, its rule checks the operands and attributes first (types ranked, static,
 *     of a float dtype; dims in range; sizes that agree). An unsupported form gets a
 *     located error, the op stays and the pass fails at the end (other ops are still
 *     rewritten, so one run reports every error).
 *  3. Otherwise the rule builds the primitives before the op; the op's uses are replaced
 *     by the new value and the op is erased.
 */
#include "tt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SQRT1_2 0.70710678118654752440        /* 1/sqrt(2) */
#define SQRT_2_OVER_PI 0.79788456080286535588 /* sqrt(2/pi) */
#define GELU_KAPPA 0.044715

/* The rewrite of one composite op: where new ops go and what they compute in. */
typedef struct {
  MlirContext ctx;
  MlirLocation loc;
  TtBuilder b;      /* before the composite op */
  MlirOperation op; /* the composite op */
  const char *name; /* its short name, for diagnostics */
  MlirType compute; /* the element type the math runs in (set by computeType) */
  MlirOperation dead[2]; /* ops to erase after the composite when nothing uses them */
  int ndead;
} Rw;

/* A static tensor type as read by checkTensor. */
typedef struct {
  MlirType type;
  int64_t rank, shape[TT_MAX_RANK];
} Shape;

/* --- building primitives ---------------------------------------------------------- *
 * A call builds at most one operand of another call: C leaves the order in which
 * arguments are evaluated open, and the order of the new ops must not depend on it. */

/* A ranked tensor type of the given shape and element type. */
static MlirType tensorOf(int64_t rank, const int64_t *shape, MlirType elem) {
  return mlirRankedTensorTypeGet(rank, shape, elem, mlirAttributeGetNull());
}

/* t with its element type replaced by elem. */
static MlirType withElem(MlirType t, MlirType elem) {
  int64_t shape[TT_MAX_RANK], r = ttTensorShape(t, shape);
  return tensorOf(r, shape, elem);
}

/* Builds `prim.<name>` with a result of type `result` before the composite. */
static MlirValue prim(Rw *w, const char *name, intptr_t nOperands,
                      const MlirValue *operands, MlirType result, intptr_t nAttrs,
                      const MlirNamedAttribute *attrs) {
  char full[64];
  snprintf(full, sizeof full, "prim.%s", name);
  return ttBuild(&w->b, full, w->loc, nOperands, operands, result, nAttrs, attrs);
}

static MlirValue unary(Rw *w, const char *name, MlirValue x) {
  return prim(w, name, 1, &x, mlirValueGetType(x), 0, NULL);
}

static MlirValue binary(Rw *w, const char *name, MlirValue lhs, MlirValue rhs) {
  MlirValue operands[2] = {lhs, rhs};
  return prim(w, name, 2, operands, mlirValueGetType(lhs), 0, NULL);
}

/* `prim.full` of type t (of the compute dtype) with every element `value`. */
static MlirValue full(Rw *w, MlirType t, double value) {
  MlirType attrType = mlirTypeIsAF64(w->compute) ? w->compute : mlirF32TypeGet(w->ctx);
  MlirNamedAttribute a =
      ttNamedAttr(w->ctx, "value", mlirFloatAttrDoubleGet(w->ctx, attrType, value));
  return prim(w, "full", 0, NULL, t, 1, &a);
}

/* x converted to element type elem (x itself when it has it already). */
static MlirValue convertTo(Rw *w, MlirValue x, MlirType elem) {
  MlirType t = mlirValueGetType(x);
  if (mlirTypeEqual(ttElementType(t), elem))
    return x;
  return prim(w, "convert", 1, &x, withElem(t, elem), 0, NULL);
}

static MlirValue toCompute(Rw *w, MlirValue x) { return convertTo(w, x, w->compute); }

/* `prim.<kind>(x) {dims = [dim], keepdim = false}`: x without dimension dim. */
static MlirValue reduce(Rw *w, const char *kind, MlirValue x, int64_t dim) {
  MlirType t = mlirValueGetType(x);
  int64_t shape[TT_MAX_RANK], r = ttTensorShape(t, shape);
  for (int64_t i = dim; i + 1 < r; i++)
    shape[i] = shape[i + 1];
  MlirNamedAttribute attrs[2] = {
      ttNamedAttr(w->ctx, "dims", mlirDenseI64ArrayGet(w->ctx, 1, &dim)),
      ttNamedAttr(w->ctx, "keepdim", mlirBoolAttrGet(w->ctx, 0)),
  };
  return prim(w, kind, 1, &x, tensorOf(r - 1, shape, ttElementType(t)), 2, attrs);
}

/* `prim.broadcast_in_dim` of x to type t, x's dimension i becoming t's dims[i]. */
static MlirValue broadcast(Rw *w, MlirValue x, MlirType t, intptr_t n,
                           const int64_t *dims) {
  MlirNamedAttribute a =
      ttNamedAttr(w->ctx, "broadcast_dimensions", mlirDenseI64ArrayGet(w->ctx, n, dims));
  return prim(w, "broadcast_in_dim", 1, &x, t, 1, &a);
}

/* A value reduced over dimension dim, broadcast back to type t (every other dimension). */
static MlirValue broadcastBack(Rw *w, MlirValue v, MlirType t, int64_t dim) {
  int64_t dims[TT_MAX_RANK], r = mlirShapedTypeGetRank(t), n = 0;
  for (int64_t i = 0; i < r; i++)
    if (i != dim)
      dims[n++] = i;
  return broadcast(w, v, t, n, dims);
}

/* A 1-D value (weight, bias) broadcast along the last dimension of type t. */
static MlirValue broadcastLast(Rw *w, MlirValue v, MlirType t) {
  int64_t last = mlirShapedTypeGetRank(t) - 1;
  return broadcast(w, v, t, 1, &last);
}

/* reciprocal(1 + exp(-x)), x in the compute dtype. */
static MlirValue buildSigmoid(Rw *w, MlirValue x) {
  MlirValue one = full(w, mlirValueGetType(x), 1.0);
  MlirValue e = unary(w, "exp", unary(w, "neg", x));
  return unary(w, "reciprocal", binary(w, "add", one, e));
}

/* --- checks ------------------------------------------------------------------------ */

static void typeString(MlirType t, char *buf, size_t n) {
  TtStr s = {0};
  mlirTypePrint(t, ttStrCallback, &s);
  snprintf(buf, n, "%s", s.data ? s.data : "?");
  ttStrDestroy(&s);
}

/* Reads v's type into *s: a ranked tensor of static shape and rank <= TT_MAX_RANK. */
static bool checkTensor(Rw *w, MlirValue v, const char *what, Shape *s) {
  s->type = mlirValueGetType(v);
  s->rank = ttTensorShape(s->type, s->shape);
  if (s->rank < 0) {
    ttEmitError(w->op, "decompose: %s: %s must be a ranked tensor", w->name, what);
    return false;
  }
  if (s->rank > TT_MAX_RANK) {
    ttEmitError(w->op, "decompose: %s: %s has rank %lld; at most %d is supported", w->name,
                what, (long long)s->rank, TT_MAX_RANK);
    return false;
  }
  for (int64_t i = 0; i < s->rank; i++)
    if (s->shape[i] < 0) {
      ttEmitError(w->op, "decompose: %s: dynamic dimensions are not supported yet (%s)",
                  w->name, what);
      return false;
    }
  return true;
}

/* True for the float dtypes a composite computes on: f32, f16, bf16, f64. */
static bool checkFloat(Rw *w, MlirType t, const char *what) {
  MlirType e = ttElementType(t);
  if (mlirTypeIsAF32(e) || mlirTypeIsAF16(e) || mlirTypeIsABF16(e) || mlirTypeIsAF64(e))
    return true;
  ttEmitError(w->op, "decompose: %s: %s has dtype %s; f32, f16, bf16 or f64 is supported",
              w->name, what, ttDtypeName(e));
  return false;
}

/* Checks that t is float and sets the compute dtype: f32 for f16/bf16, else t's own. */
static bool computeType(Rw *w, MlirType t) {
  if (!checkFloat(w, t, "the input"))
    return false;
  w->compute = ttTypeIsHalf(t) ? mlirF32TypeGet(w->ctx) : ttElementType(t);
  return true;
}

/* The operand `v` is a float tensor of shape [n] (a weight or bias of the last dim). */
static bool checkVector(Rw *w, MlirValue v, const char *what, int64_t n) {
  Shape s;
  if (!checkTensor(w, v, what, &s) || !checkFloat(w, s.type, what))
    return false;
  if (s.rank != 1 || s.shape[0] != n) {
    char buf[128];
    typeString(s.type, buf, sizeof buf);
    ttEmitError(w->op,
                "decompose: %s: %s must be 1-D of size %lld (the last dimension of x), got "
                "%s",
                w->name, what, (long long)n, buf);
    return false;
  }
  return true;
}

/* The input x (operand 0) of a composite that reduces over a dimension of it. */
static bool checkRows(Rw *w, Shape *x) {
  if (!checkTensor(w, mlirOperationGetOperand(w->op, 0), "x", x) ||
      !computeType(w, x->type))
    return false;
  if (x->rank < 1) {
    ttEmitError(w->op, "decompose: %s: x must have rank 1 or more", w->name);
    return false;
  }
  return true;
}

/* The float attribute `eps`. */
static bool readEps(Rw *w, double *eps) {
  MlirAttribute a = ttOpAttr(w->op, "eps");
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAFloat(a)) {
    ttEmitError(w->op, "decompose: %s: eps must be a float attribute", w->name);
    return false;
  }
  *eps = mlirFloatAttrGetValueDouble(a);
  return true;
}

/* --- the rules: each checks, then builds, and returns the result (null after an error) */

typedef MlirValue (*RuleFn)(Rw *w);

static MlirValue nullValue(void) {
  MlirValue v = {NULL};
  return v;
}

/* softmax and log_softmax along `dim`. */
static MlirValue softmaxRule(Rw *w, bool log) {
  Shape x;
  MlirValue in = mlirOperationGetOperand(w->op, 0);
  if (!checkRows(w, &x))
    return nullValue();
  MlirAttribute da = ttOpAttr(w->op, "dim");
  if (mlirAttributeIsNull(da) || !mlirAttributeIsAInteger(da)) {
    ttEmitError(w->op, "decompose: %s: dim must be an integer attribute", w->name);
    return nullValue();
  }
  int64_t dim = mlirIntegerAttrGetValueInt(da), d = dim < 0 ? dim + x.rank : dim;
  if (d < 0 || d >= x.rank) {
    ttEmitError(w->op,
                "decompose: %s: dim %lld is out of range for a tensor of rank %lld "
                "(expected %lld to %lld)",
                w->name, (long long)dim, (long long)x.rank, (long long)-x.rank,
                (long long)x.rank - 1);
    return nullValue();
  }
  MlirValue xc = toCompute(w, in);
  MlirType t = mlirValueGetType(xc);
  MlirValue s = xc; /* x - max, or x when there are no elements to take the max of */
  if (ttTensorNumel(x.type) > 0)
    s = binary(w, "sub", xc, broadcastBack(w, reduce(w, "amax", xc, d), t, d));
  MlirValue e = unary(w, "exp", s);
  MlirValue y;
  if (log)
    y = binary(w, "sub", s,
               broadcastBack(w, unary(w, "log", reduce(w, "sum", e, d)), t, d));
  else
    y = binary(w, "div", e, broadcastBack(w, reduce(w, "sum", e, d), t, d));
  return convertTo(w, y, ttElementType(x.type));
}

static MlirValue ruleSoftmax(Rw *w) { return softmaxRule(w, false); }
static MlirValue ruleLogSoftmax(Rw *w) { return softmaxRule(w, true); }

static MlirValue ruleLayerNorm(Rw *w) {
  Shape x;
  double eps;
  MlirValue weight = mlirOperationGetOperand(w->op, 1);
  MlirValue bias = mlirOperationGetOperand(w->op, 2);
  if (!checkRows(w, &x))
    return nullValue();
  int64_t last = x.rank - 1, n = x.shape[last];
  if (!checkVector(w, weight, "weight", n) || !checkVector(w, bias, "bias", n) ||
      !readEps(w, &eps))
    return nullValue();
  MlirValue xc = toCompute(w, mlirOperationGetOperand(w->op, 0));
  MlirType t = mlirValueGetType(xc);
  MlirValue sum = reduce(w, "sum", xc, last);
  MlirType red = mlirValueGetType(sum);
  MlirValue count = full(w, red, (double)n); /* N, shared by the two means */
  MlirValue mu = binary(w, "div", sum, count);
  MlirValue v = binary(w, "sub", xc, broadcastBack(w, mu, t, last));
  MlirValue var = binary(w, "div", reduce(w, "sum", binary(w, "mul", v, v), last), count);
  MlirValue rstd = unary(w, "rsqrt", binary(w, "add", var, full(w, red, eps)));
  MlirValue y = binary(w, "mul", v, broadcastBack(w, rstd, t, last));
  y = binary(w, "mul", y, broadcastLast(w, toCompute(w, weight), t));
  y = binary(w, "add", y, broadcastLast(w, toCompute(w, bias), t));
  return convertTo(w, y, ttElementType(x.type));
}

static MlirValue ruleRmsNorm(Rw *w) {
  Shape x;
  double eps;
  MlirValue weight = mlirOperationGetOperand(w->op, 1);
  if (!checkRows(w, &x))
    return nullValue();
  int64_t last = x.rank - 1, n = x.shape[last];
  if (!checkVector(w, weight, "weight", n) || !readEps(w, &eps))
    return nullValue();
  MlirValue xc = toCompute(w, mlirOperationGetOperand(w->op, 0));
  MlirType t = mlirValueGetType(xc);
  MlirValue ms = reduce(w, "sum", binary(w, "mul", xc, xc), last);
  MlirType red = mlirValueGetType(ms);
  ms = binary(w, "div", ms, full(w, red, (double)n));
  MlirValue r = unary(w, "rsqrt", binary(w, "add", ms, full(w, red, eps)));
  MlirValue y = binary(w, "mul", xc, broadcastBack(w, r, t, last));
  y = binary(w, "mul", y, broadcastLast(w, toCompute(w, weight), t));
  return convertTo(w, y, ttElementType(x.type));
}

static MlirValue ruleGelu(Rw *w) {
  Shape x;
  char approx[32];
  MlirValue in = mlirOperationGetOperand(w->op, 0);
  if (!checkTensor(w, in, "x", &x) || !computeType(w, x.type))
    return nullValue();
  if (!ttOpAttrStr(w->op, "approximate", approx, sizeof approx)) {
    ttEmitError(w->op, "decompose: gelu: approximate must be a string attribute");
    return nullValue();
  }
  bool tanhForm = strcmp(approx, "tanh") == 0;
  if (!tanhForm && strcmp(approx, "none") != 0) {
    ttEmitError(w->op,
                "decompose: gelu: approximate = \"%s\" is not supported (\"none\" or "
                "\"tanh\")",
                approx);
    return nullValue();
  }
  MlirValue xc = toCompute(w, in);
  MlirType t = mlirValueGetType(xc);
  MlirValue one = full(w, t, 1.0), half = full(w, t, 0.5), y;
  if (tanhForm) {
    MlirValue x3 = binary(w, "mul", binary(w, "mul", xc, xc), xc);
    MlirValue inner = binary(w, "add", xc, binary(w, "mul", full(w, t, GELU_KAPPA), x3));
    inner = binary(w, "mul", full(w, t, SQRT_2_OVER_PI), inner);
    MlirValue th = binary(w, "add", one, unary(w, "tanh", inner));
    MlirValue hx = binary(w, "mul", half, xc);
    y = binary(w, "mul", hx, th);
  } else {
    MlirValue xh = binary(w, "mul", xc, half);
    MlirValue er = unary(w, "erf", binary(w, "mul", xc, full(w, t, SQRT1_2)));
    y = binary(w, "mul", xh, binary(w, "add", one, er));
  }
  return convertTo(w, y, ttElementType(x.type));
}

static MlirValue ruleSigmoid(Rw *w) {
  Shape x;
  MlirValue in = mlirOperationGetOperand(w->op, 0);
  if (!checkTensor(w, in, "x", &x) || !computeType(w, x.type))
    return nullValue();
  return convertTo(w, buildSigmoid(w, toCompute(w, in)), ttElementType(x.type));
}

static MlirValue ruleSilu(Rw *w) {
  Shape x;
  MlirValue in = mlirOperationGetOperand(w->op, 0);
  if (!checkTensor(w, in, "x", &x) || !computeType(w, x.type))
    return nullValue();
  MlirValue xc = toCompute(w, in);
  return convertTo(w, binary(w, "mul", xc, buildSigmoid(w, xc)), ttElementType(x.type));
}

static MlirValue ruleSwiglu(Rw *w) {
  Shape a;
  MlirValue in = mlirOperationGetOperand(w->op, 0);
  if (!checkTensor(w, in, "a", &a) || !computeType(w, a.type))
    return nullValue();
  MlirValue ac = toCompute(w, in);
  MlirValue bc = toCompute(w, mlirOperationGetOperand(w->op, 1));
  MlirValue y = binary(w, "mul", binary(w, "mul", ac, buildSigmoid(w, ac)), bc);
  return convertTo(w, y, ttElementType(a.type));
}

static MlirValue ruleLinear(Rw *w) {
  Shape x, wt, res;
  MlirValue in = mlirOperationGetOperand(w->op, 0);
  MlirValue weight = mlirOperationGetOperand(w->op, 1);
  bool hasBias = mlirOperationGetNumOperands(w->op) > 2;
  MlirValue bias = hasBias ? mlirOperationGetOperand(w->op, 2) : nullValue();
  if (!checkTensor(w, in, "x", &x) || !computeType(w, x.type) ||
      !checkTensor(w, weight, "weight", &wt) ||
      !checkTensor(w, mlirOperationGetResult(w->op, 0), "the result", &res))
    return nullValue();
  MlirType et = ttElementType(x.type);
  if (x.rank < 1) {
    ttEmitError(w->op, "decompose: linear: x must have rank 1 or more");
    return nullValue();
  }
  int64_t k = x.shape[x.rank - 1];
  if (wt.rank != 2 || wt.shape[1] != k) {
    char buf[128];
    typeString(wt.type, buf, sizeof buf);
    ttEmitError(w->op,
                "decompose: linear: weight must be 2-D [N, K] with K = %lld (the last "
                "dimension of x), got %s",
                (long long)k, buf);
    return nullValue();
  }
  if (!mlirTypeEqual(ttElementType(wt.type), et)) {
    ttEmitError(w->op, "decompose: linear: weight has dtype %s but x has %s",
                ttDtypeName(wt.type), ttDtypeName(et));
    return nullValue();
  }
  int64_t n = wt.shape[0];
  if (hasBias && !checkVector(w, bias, "bias", n))
    return nullValue();
  int64_t outShape[TT_MAX_RANK], m = 1;
  for (int64_t i = 0; i + 1 < x.rank; i++) {
    outShape[i] = x.shape[i];
    m *= x.shape[i];
  }
  outShape[x.rank - 1] = n;
  MlirType expect = tensorOf(x.rank, outShape, et);
  if (!mlirTypeEqual(expect, res.type)) {
    char got[128], want[128];
    typeString(res.type, got, sizeof got);
    typeString(expect, want, sizeof want);
    ttEmitError(w->op, "decompose: linear: the result has type %s; expected %s", got, want);
    return nullValue();
  }

  int64_t perm[2] = {1, 0}, wtShape[2] = {k, n}, x2Shape[2] = {m, k}, yShape[2] = {m, n};
  MlirNamedAttribute pa =
      ttNamedAttr(w->ctx, "permutation", mlirDenseI64ArrayGet(w->ctx, 2, perm));
  MlirValue wT = prim(w, "transpose", 1, &weight, tensorOf(2, wtShape, et), 1, &pa);
  MlirValue x2 = in;
  if (x.rank != 2)
    x2 = prim(w, "reshape", 1, &in, tensorOf(2, x2Shape, et), 0, NULL);
  MlirValue operands[2] = {x2, wT};
  MlirValue y = prim(w, "matmul", 2, operands,
                     tensorOf(2, yShape, hasBias ? w->compute : et), 0, NULL);
  if (hasBias) {
    MlirType t = mlirValueGetType(y);
    y = binary(w, "add", y, broadcastLast(w, toCompute(w, bias), t));
  }
  if (x.rank != 2)
    y = prim(w, "reshape", 1, &y,
             tensorOf(x.rank, outShape, ttElementType(mlirValueGetType(y))), 0, NULL);
  return convertTo(w, y, et);
}

/* Operand i of the op, a per-tensor scale: an f32 tensor of rank 0. */
static bool checkScale(Rw *w, int i, const char *what) {
  Shape s;
  if (!checkTensor(w, mlirOperationGetOperand(w->op, i), what, &s))
    return false;
  if (s.rank != 0 || !mlirTypeIsAF32(ttElementType(s.type))) {
    char buf[128];
    typeString(s.type, buf, sizeof buf);
    ttEmitError(w->op, "decompose: scaled_mm: %s must be tensor<f32> (per-tensor), got %s",
                what, buf);
    return false;
  }
  return true;
}

static MlirValue ruleScaledMm(Rw *w) {
  Shape a, b, res;
  MlirValue av = mlirOperationGetOperand(w->op, 0), bv = mlirOperationGetOperand(w->op, 1);
  bool hasBias = mlirOperationGetNumOperands(w->op) > 4;
  if (!checkTensor(w, av, "a", &a) || !checkTensor(w, bv, "b", &b) ||
      !checkScale(w, 2, "scale_a") || !checkScale(w, 3, "scale_b") ||
      !checkTensor(w, mlirOperationGetResult(w->op, 0), "the result", &res))
    return nullValue();
  if (!ttTypeIsFp8(a.type) || !ttTypeIsFp8(b.type)) {
    ttEmitError(w->op, "decompose: scaled_mm: a and b must be fp8 (f8E4M3FN or f8E5M2), got "
                       "%s and %s",
                ttDtypeName(a.type), ttDtypeName(b.type));
    return nullValue();
  }
  MlirType out = ttElementType(res.type);
  int64_t yShape[2] = {a.rank == 2 ? a.shape[0] : 0, b.rank == 2 ? b.shape[1] : 0};
  if (a.rank != 2 || b.rank != 2 || a.shape[1] != b.shape[0] ||
      !mlirTypeEqual(res.type, tensorOf(2, yShape, out)) ||
      !(mlirTypeIsAF32(out) || ttTypeIsHalf(out))) {
    char ta[128], tb[128], tr[128];
    typeString(a.type, ta, sizeof ta);
    typeString(b.type, tb, sizeof tb);
    typeString(res.type, tr, sizeof tr);
    ttEmitError(w->op, "decompose: scaled_mm: needs a [M, K], b [K, N] and a result [M, N] "
                       "of f32, f16 or bf16; got %s, %s -> %s",
                ta, tb, tr);
    return nullValue();
  }
  w->compute = mlirF32TypeGet(w->ctx);
  if (hasBias && !checkVector(w, mlirOperationGetOperand(w->op, 4), "bias", yShape[1]))
    return nullValue();
  MlirValue operands[2] = {av, bv};
  MlirType t = tensorOf(2, yShape, w->compute);
  MlirValue y = prim(w, "matmul", 2, operands, t, 0, NULL);
  for (int i = 2; i < 4; i++) /* the scales, one product each (as the reference does) */
    y = binary(w, "mul", y, broadcast(w, mlirOperationGetOperand(w->op, i), t, 0, NULL));
  if (hasBias)
    y = binary(w, "add", y, broadcastLast(w, toCompute(w, mlirOperationGetOperand(w->op, 4)), t));
  return convertTo(w, y, out);
}

/* --- matmul with any batch dims ---------------------------------------------------- *
 * prim.matmul takes torch.matmul's shapes (the prim verifier checks them); the dot kernels
 * take [M, K] x [K, N] and [B, M, K] x [B, K, N]. Every other matmul is rewritten into one
 * of those, with free reshapes (row-major) where it can:
 *  - a 1-D a [K] is reshaped to [1, K], a 1-D b [K] to [K, 1] (the final reshape drops
 *    their 1 from the result, as torch.matmul does);
 *  - the batch dims (all but the last two, aligned from the right, a missing one counting
 *    as 1) broadcast to `batch`, of product P;
 *  - when b has no batch (its batch dims' product is 1: a weight), a [..., M, K] is
 *    reshaped to [P * M, K] and b to [K, N]: one 2-D GEMM, the weight read once;
 *  - else both operands become [P, ., .]: reshaped when their batch dims' product is P,
 *    materialized first with prim.broadcast_in_dim to batch's dims when a dim of theirs
 *    broadcasts (size 1 or missing against a larger one);
 *  - the product is reshaped to the result's shape.
 * An operand that is a prim.transpose swapping the last two dims (attention's k^T) stays
 * a transpose feeding the matmul, which the dot kernel reads in place: the reshape (and
 * broadcast) apply to the transpose's input, then a transpose of the 2-D or 3-D form
 * ([1, 0] or [0, 2, 1]); the old transpose is erased when nothing else uses it. A
 * transposed a with batch dims is not folded into the 2-D form (the transpose of a reshape
 * is not a reshape of a transpose): it takes the 3-D form. */

/* True when transpose t of a rank-r operand swaps its last two dims, keeping the others. */
static bool swapsLastTwo(MlirOperation t, int64_t r) {
  MlirAttribute perm = ttOpAttr(t, "permutation");
  if (r < 2 || mlirAttributeIsNull(perm) || !mlirAttributeIsADenseI64Array(perm) ||
      mlirDenseArrayGetNumElements(perm) != r)
    return false;
  for (int64_t i = 0; i < r; i++)
    if (mlirDenseI64ArrayGetElement(perm, i) != (i < r - 2 ? i : 2 * r - 3 - i))
      return false;
  return true;
}

/* The prim.transpose of its last two dims that v is the result of, or a null op. */
static MlirOperation lastTwoTranspose(MlirValue v) {
  MlirOperation none = {NULL};
  if (!mlirValueIsAOpResult(v))
    return none;
  MlirOperation t = mlirOpResultGetOwner(v);
  if (ttPrimKind(t) != TT_PRIM_TRANSPOSE || mlirOperationGetNumOperands(t) != 1 ||
      !swapsLastTwo(t, mlirShapedTypeGetRank(mlirValueGetType(v))))
    return none;
  return t;
}

/* True when matmul op is not a form the dot kernels take as it is. */
static bool matmulNeedsRewrite(MlirOperation op) {
  if (mlirOperationGetNumOperands(op) != 2)
    return false;
  int64_t as[TT_MAX_RANK], bs[TT_MAX_RANK];
  MlirType at = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType bt = mlirValueGetType(mlirOperationGetOperand(op, 1));
  if (!mlirTypeIsARankedTensor(at) || !mlirTypeIsARankedTensor(bt) ||
      mlirShapedTypeGetRank(at) > TT_MAX_RANK || mlirShapedTypeGetRank(bt) > TT_MAX_RANK)
    return false;
  int64_t ra = ttTensorShape(at, as), rb = ttTensorShape(bt, bs);
  return !(ra == rb && (ra == 2 || (ra == 3 && as[0] == bs[0])));
}

/* Matmul operand x (rank >= 2, its batch dims' product xp) in the dot kernel's form `want`
 * (rank 2: [rows, cols], or 3: [P, rows, cols]); batch (nb dims, product P) is the
 * broadcast batch, materialized when want is 3-D and xp is not P. */
static MlirValue mmOperand(Rw *w, MlirValue x, bool allowTrans, int64_t wantRank,
                           const int64_t *want, int64_t nb, const int64_t *batch, int64_t p) {
  MlirType t = mlirValueGetType(x), elem = ttElementType(t);
  int64_t shape[TT_MAX_RANK], r = ttTensorShape(t, shape), xp = 1;
  for (int64_t i = 0; i + 2 < r; i++)
    xp *= shape[i];
  MlirOperation tr = allowTrans ? lastTwoTranspose(x) : (MlirOperation){NULL};
  bool trans = !mlirOperationIsNull(tr);
  MlirValue src = trans ? mlirOperationGetOperand(tr, 0) : x;
  if (trans) { /* src's shape: the last two swapped */
    int64_t s = shape[r - 1];
    shape[r - 1] = shape[r - 2];
    shape[r - 2] = s;
    if (w->ndead < 2 && !(w->ndead == 1 && mlirOperationEqual(w->dead[0], tr)))
      w->dead[w->ndead++] = tr;
  }
  if (wantRank == 3 && xp != p) { /* a batch dim broadcasts: materialize it */
    int64_t full[TT_MAX_RANK], dims[TT_MAX_RANK];
    for (int64_t i = 0; i < nb; i++)
      full[i] = batch[i];
    full[nb] = shape[r - 2];
    full[nb + 1] = shape[r - 1];
    for (int64_t i = 0; i < r; i++)
      dims[i] = i + (nb + 2 - r);
    src = broadcast(w, src, tensorOf(nb + 2, full, elem), r, dims);
  }
  int64_t s[3];
  for (int64_t i = 0; i < wantRank; i++)
    s[i] = want[i];
  if (trans) {
    s[wantRank - 1] = want[wantRank - 2];
    s[wantRank - 2] = want[wantRank - 1];
  }
  MlirType st = tensorOf(wantRank, s, elem);
  if (!mlirTypeEqual(mlirValueGetType(src), st))
    src = prim(w, "reshape", 1, &src, st, 0, NULL);
  if (!trans)
    return src;
  int64_t perm[3] = {0, 2, 1}, perm2[2] = {1, 0};
  MlirNamedAttribute pa = ttNamedAttr(
      w->ctx, "permutation", mlirDenseI64ArrayGet(w->ctx, wantRank, wantRank == 3 ? perm : perm2));
  return prim(w, "transpose", 1, &src, tensorOf(wantRank, want, elem), 1, &pa);
}

static MlirValue ruleMatmul(Rw *w) {
  Shape as, bs, res;
  MlirValue a = mlirOperationGetOperand(w->op, 0), b = mlirOperationGetOperand(w->op, 1);
  if (!checkTensor(w, a, "a", &as) || !checkTensor(w, b, "b", &bs) ||
      !checkTensor(w, mlirOperationGetResult(w->op, 0), "the result", &res))
    return nullValue();
  if (as.rank < 1 || bs.rank < 1) { /* the verifier's rule; checked again for safety */
    ttEmitError(w->op, "decompose: matmul: the operands must have rank 1 or more");
    return nullValue();
  }
  if (as.rank == 1) { /* [K] -> [1, K] */
    int64_t v[2] = {1, as.shape[0]};
    a = prim(w, "reshape", 1, &a, tensorOf(2, v, ttElementType(as.type)), 0, NULL);
    as.rank = 2;
    as.shape[0] = 1;
    as.shape[1] = v[1];
  }
  if (bs.rank == 1) { /* [K] -> [K, 1] */
    int64_t v[2] = {bs.shape[0], 1};
    b = prim(w, "reshape", 1, &b, tensorOf(2, v, ttElementType(bs.type)), 0, NULL);
    bs.rank = 2;
    bs.shape[1] = 1;
  }
  int64_t na = as.rank - 2, nb = bs.rank - 2, n = na > nb ? na : nb;
  int64_t batch[TT_MAX_RANK], p = 1, pa = 1, pb = 1;
  for (int64_t i = 0; i < n; i++) {
    int64_t x = i - (n - na) >= 0 ? as.shape[i - (n - na)] : 1;
    int64_t y = i - (n - nb) >= 0 ? bs.shape[i - (n - nb)] : 1;
    batch[i] = x == 1 ? y : x;
    p *= batch[i];
    pa *= x;
    pb *= y;
  }
  int64_t m = as.shape[as.rank - 2], k = as.shape[as.rank - 1], nn = bs.shape[bs.rank - 1];
  bool aTrans = !mlirOperationIsNull(lastTwoTranspose(a));
  MlirValue operands[2];
  if (pb == 1 && !(aTrans && pa > 1)) { /* one 2-D GEMM: [P * M, K] x [K, N] */
    int64_t aw[2] = {p * m, k}, bw[2] = {k, nn}, yw[2] = {p * m, nn};
    operands[0] = mmOperand(w, a, pa == 1, 2, aw, n, batch, p);
    operands[1] = mmOperand(w, b, true, 2, bw, n, batch, p);
    MlirValue y = prim(w, "matmul", 2, operands, tensorOf(2, yw, ttElementType(res.type)), 0,
                       NULL);
    return prim(w, "reshape", 1, &y, res.type, 0, NULL);
  }
  int64_t aw[3] = {p, m, k}, bw[3] = {p, k, nn}, yw[3] = {p, m, nn};
  operands[0] = mmOperand(w, a, true, 3, aw, n, batch, p);
  operands[1] = mmOperand(w, b, true, 3, bw, n, batch, p);
  MlirValue y = prim(w, "matmul", 2, operands, tensorOf(3, yw, ttElementType(res.type)), 0,
                     NULL);
  if (mlirTypeEqual(mlirValueGetType(y), res.type))
    return y;
  return prim(w, "reshape", 1, &y, res.type, 0, NULL);
}

/* --- reductions over any dims ------------------------------------------------------ *
 * --fuse and --tile compute a reduction over the last dim (a row kernel) or over one run
 * of dims before it (a column kernel: the operand as [outer, R, inner], a loop over R).
 * Any other reduction is rewritten into those, each reading its operand once, coalesced:
 *  - the dims are split into maximal runs, reduced from the last run to the first (the
 *    earlier runs keep their indices), all with the op's keepdim;
 *  - a run of several dims that ends at the last dim is a column reduction of all but its
 *    last dim, then a row reduction of the last: a full sum of [M, N] is a column sum to
 *    [N], then a sum of that row (a 1-D full reduction is one row: one program, in the
 *    looped form past 32768 elements);
 *  - a column reduction with few columns (outer * inner) and many rows is split in two
 *    levels so that its first kernel has enough programs: R = S * (R / S) with S a power of
 *    two, the operand reshaped to [outer, S, R / S, inner], reduced over R / S, then over S
 *    (the second kernel reads S * outer * inner partial results, and is split the same way
 *    when it is itself long and narrow: three levels for 1048576x128, 100 us against 246
 *    on an H100, bench/2026-11-25-h100-reduce.md): S is the least with
 *    outer * inner * S >= SPLIT_TARGET (2 programs of 1024 columns per SM of the default
 *    target), at most R / SPLIT_MIN_ROWS, and must divide R (else no split). Measured on
 *    an H100 (8192x8192 bf16 column sums, 2026-11-25): S = 64 (512 programs of 128 rows,
 *    49.0 us, then 7.4 us for the 64 partial rows) 54.9 us in all, 85% of copy
 *    bandwidth; S = 128 (4 programs per SM) 57.6 us: its second kernel took 11.5 us;
 *  - f16/bf16 sums are computed in f32 (one convert of the operand, which fuses into the
 *    first kernel's loads, and one of the result), as the row and column kernels
 *    accumulate; amax and amin are exact in their dtype. */
#define SPLIT_TARGET (2 * TT_DEFAULT_NUM_SMS * 1024)
#define SPLIT_MIN_ROWS 64

/* The two-level split S of a column reduction [outer, R, inner] (1: none). */
static int64_t columnSplit(int64_t outer, int64_t rows, int64_t inner) {
  int64_t s = 1;
  while (outer * inner * s < SPLIT_TARGET && rows / (2 * s) >= SPLIT_MIN_ROWS)
    s *= 2;
  while (s > 1 && rows % s != 0)
    s /= 2;
  return s;
}

/* True when reduction op is not one a row or column kernel computes as it is. */
static bool reductionNeedsRewrite(MlirOperation op) {
  MlirAttribute dims = ttOpAttr(op, "dims");
  if (ttPrimKind(op) != TT_PRIM_REDUCTION || ttPrimIsRowReduction(op) ||
      mlirAttributeIsNull(dims) || !mlirAttributeIsADenseI64Array(dims) ||
      mlirOperationGetNumOperands(op) != 1)
    return false;
  int64_t outer, rows, inner;
  if (!ttPrimIsColumnReduction(op))
    return ttPrimReductionRun(op, NULL, NULL, NULL, NULL, NULL) ||
           mlirDenseArrayGetNumElements(dims) > 0;
  ttPrimReductionRun(op, &outer, &rows, &inner, NULL, NULL);
  return columnSplit(outer, rows, inner) > 1;
}

/* prim.<kind>(x) over dims lo..hi (one run), keeping them as 1s when keep. */
static MlirValue reduceRun(Rw *w, const char *kind, MlirValue x, int64_t lo, int64_t hi,
                           bool keep) {
  MlirType t = mlirValueGetType(x);
  int64_t shape[TT_MAX_RANK], r = ttTensorShape(t, shape), out[TT_MAX_RANK], n = 0;
  int64_t dims[TT_MAX_RANK];
  for (int64_t i = 0; i < r; i++)
    if (i < lo || i > hi)
      out[n++] = shape[i];
    else if (keep)
      out[n++] = 1;
  for (int64_t i = lo; i <= hi; i++)
    dims[i - lo] = i;
  MlirNamedAttribute attrs[2] = {
      ttNamedAttr(w->ctx, "dims", mlirDenseI64ArrayGet(w->ctx, hi - lo + 1, dims)),
      ttNamedAttr(w->ctx, "keepdim", mlirBoolAttrGet(w->ctx, keep)),
  };
  return prim(w, kind, 1, &x, tensorOf(n, out, ttElementType(t)), 2, attrs);
}

/* A column reduction over run lo..hi of x, split in two levels when columnSplit says so
 * (then keepdim comes from a reshape of the result). */
static MlirValue reduceColumns(Rw *w, const char *kind, MlirValue x, int64_t lo, int64_t hi,
                               bool keep) {
  MlirType t = mlirValueGetType(x);
  int64_t shape[TT_MAX_RANK], r = ttTensorShape(t, shape), outer = 1, rows = 1, inner = 1;
  for (int64_t i = 0; i < r; i++)
    *(i < lo ? &outer : i <= hi ? &rows : &inner) *= shape[i];
  int64_t split = columnSplit(outer, rows, inner);
  if (split == 1 || r + 2 > TT_MAX_RANK)
    return reduceRun(w, kind, x, lo, hi, keep);
  int64_t v[TT_MAX_RANK], n = 0;
  for (int64_t i = 0; i < lo; i++)
    v[n++] = shape[i];
  v[n++] = split;
  v[n++] = rows / split;
  for (int64_t i = hi + 1; i < r; i++)
    v[n++] = shape[i];
  MlirValue y = prim(w, "reshape", 1, &x, tensorOf(n, v, ttElementType(t)), 0, NULL);
  /* the second level is a column reduction of `split` rows: split again while it is long
   * and narrow (1048576x128 bf16: 4096 partial rows of 128 columns, then 64) */
  y = reduceColumns(w, kind, reduceRun(w, kind, y, lo + 1, lo + 1, false), lo, lo, false);
  if (!keep)
    return y;
  for (int64_t i = lo; i <= hi; i++)
    shape[i] = 1;
  return prim(w, "reshape", 1, &y, tensorOf(r, shape, ttElementType(t)), 0, NULL);
}

/* prim.<kind> of y (of rank `rank`) over the dims marked in `in`, rewritten into row and
 * column reductions (the runs, last first), each with keepdim `keep`. */
static MlirValue reduceDims(Rw *w, const char *kind, MlirValue y, const bool *in,
                            int64_t rank, bool keep) {
  for (int64_t hi = rank - 1; hi >= 0; hi--) { /* the runs, last first */
    if (!in[hi])
      continue;
    int64_t lo = hi;
    while (lo > 0 && in[lo - 1])
      lo--;
    if (hi == rank - 1 && lo < hi) { /* columns of all but the last dim, then the row */
      y = reduceColumns(w, kind, y, lo, hi - 1, keep);
      y = reduceRun(w, kind, y, keep ? hi : lo, keep ? hi : lo, keep);
    } else if (hi == rank - 1) {
      y = reduceRun(w, kind, y, lo, hi, keep);
    } else {
      y = reduceColumns(w, kind, y, lo, hi, keep);
    }
    hi = lo;
  }
  return y;
}

static MlirValue ruleReduce(Rw *w) {
  MlirValue x = mlirOperationGetOperand(w->op, 0);
  Shape xs;
  if (!checkTensor(w, x, "the operand", &xs))
    return nullValue();
  MlirAttribute dims = ttOpAttr(w->op, "dims"), keepAttr = ttOpAttr(w->op, "keepdim");
  bool in[TT_MAX_RANK] = {false};
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(dims); i++) {
    int64_t d = mlirDenseI64ArrayGetElement(dims, i);
    d = d < 0 ? d + xs.rank : d;
    if (d < 0 || d >= xs.rank || in[d]) {
      ttEmitError(w->op, "decompose: 'prim.%s' has dim %lld, out of range or repeated for "
                         "rank %lld",
                  w->name, (long long)mlirDenseI64ArrayGetElement(dims, i), (long long)xs.rank);
      return nullValue();
    }
    in[d] = true;
  }
  bool keep = !mlirAttributeIsNull(keepAttr) && mlirAttributeIsABool(keepAttr) &&
              mlirBoolAttrGetValue(keepAttr);
  MlirType elem = ttElementType(xs.type);
  bool widen = strcmp(w->name, "sum") == 0 && ttTypeIsHalf(elem);
  MlirValue y = widen ? convertTo(w, x, mlirF32TypeGet(w->ctx)) : x;
  y = reduceDims(w, w->name, y, in, xs.rank, keep);
  return widen ? convertTo(w, y, elem) : y;
}

/* --- mean, var, std ----------------------------------------------------------------- *
 * Over `dims` (an array<i64>, negative dims count from the end, none repeated) with
 * `keepdim` (a bool, false when absent), as torch.mean / torch.var / torch.std; N is the
 * product of the reduced dims' sizes:
 *   mean(x)   sum(x, dims) / N
 *   var(x)    m = sum(x, dims) / N; d = x - b(m); sum(d*d, dims) / max(N - correction, 0)
 *   std(x)    sqrt(var(x))
 * `correction` (an integer, 1 when absent) as PyTorch's; its divisor max(N - correction, 0)
 * is ATen's (a divisor of 0 gives inf or nan, as there). The sums are reduceDims': row and
 * column reductions. */

/* The reduced dims of x (in[d]), keepdim, N, and the result's type checked; false after an
 * error. */
static bool readReduction(Rw *w, const Shape *x, bool *in, bool *keep, int64_t *count) {
  MlirAttribute dims = ttOpAttr(w->op, "dims"), k = ttOpAttr(w->op, "keepdim");
  if (mlirAttributeIsNull(dims) || !mlirAttributeIsADenseI64Array(dims)) {
    ttEmitError(w->op, "decompose: %s: dims must be an array<i64: ...>", w->name);
    return false;
  }
  if (!mlirAttributeIsNull(k) && !mlirAttributeIsABool(k)) {
    ttEmitError(w->op, "decompose: %s: keepdim must be a bool (true or false)", w->name);
    return false;
  }
  *keep = !mlirAttributeIsNull(k) && mlirBoolAttrGetValue(k);
  for (int64_t i = 0; i < x->rank; i++)
    in[i] = false;
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(dims); i++) {
    int64_t dim = mlirDenseI64ArrayGetElement(dims, i), d = dim < 0 ? dim + x->rank : dim;
    if (d < 0 || d >= x->rank || in[d]) {
      ttEmitError(w->op,
                  "decompose: %s: dim %lld is out of range or repeated for a tensor of rank "
                  "%lld (expected %lld to %lld, each once)",
                  w->name, (long long)dim, (long long)x->rank, (long long)-x->rank,
                  (long long)x->rank - 1);
      return false;
    }
    in[d] = true;
  }
  int64_t shape[TT_MAX_RANK], n = 0;
  *count = 1;
  for (int64_t i = 0; i < x->rank; i++)
    if (!in[i])
      shape[n++] = x->shape[i];
    else {
      *count *= x->shape[i];
      if (*keep)
        shape[n++] = 1;
    }
  Shape res;
  if (!checkTensor(w, mlirOperationGetResult(w->op, 0), "the result", &res))
    return false;
  MlirType expect = tensorOf(n, shape, ttElementType(x->type));
  if (!mlirTypeEqual(expect, res.type)) {
    char got[128], want[128];
    typeString(res.type, got, sizeof got);
    typeString(expect, want, sizeof want);
    ttEmitError(w->op, "decompose: %s: the result has type %s; expected %s", w->name, got,
                want);
    return false;
  }
  return true;
}

static MlirValue ruleMeanVar(Rw *w) {
  Shape x;
  bool in[TT_MAX_RANK], keep;
  int64_t count, correction = 1;
  MlirValue in0 = mlirOperationGetOperand(w->op, 0);
  if (!checkTensor(w, in0, "x", &x) || !computeType(w, x.type) ||
      !readReduction(w, &x, in, &keep, &count))
    return nullValue();
  bool isMean = strcmp(w->name, "mean") == 0;
  MlirAttribute c = ttOpAttr(w->op, "correction");
  if (!isMean && !mlirAttributeIsNull(c)) {
    if (!mlirAttributeIsAInteger(c) || mlirAttributeIsABool(c)) {
      ttEmitError(w->op, "decompose: %s: correction must be an integer attribute", w->name);
      return nullValue();
    }
    correction = mlirIntegerAttrGetValueInt(c);
  }
  MlirValue xc = toCompute(w, in0);
  MlirType t = mlirValueGetType(xc);
  MlirValue s = reduceDims(w, "sum", xc, in, x.rank, isMean && keep);
  MlirValue mean = binary(w, "div", s, full(w, mlirValueGetType(s), (double)count));
  if (isMean)
    return convertTo(w, mean, ttElementType(x.type));
  int64_t kept[TT_MAX_RANK], n = 0;
  for (int64_t i = 0; i < x.rank; i++)
    if (!in[i])
      kept[n++] = i;
  MlirValue d = binary(w, "sub", xc, broadcast(w, mean, t, n, kept));
  MlirValue ss = reduceDims(w, "sum", binary(w, "mul", d, d), in, x.rank, keep);
  int64_t divisor = count > correction ? count - correction : 0;
  MlirValue y = binary(w, "div", ss, full(w, mlirValueGetType(ss), (double)divisor));
  if (strcmp(w->name, "std") == 0)
    y = unary(w, "sqrt", y);
  return convertTo(w, y, ttElementType(x.type));
}

/* --- relu, clamp ---------------------------------------------------------------------- *
 *   relu(x)                 max(x, 0)
 *   clamp(x, min?, max?)    min(max(x, min), max), either bound optional (not both
 *                           absent), as torch.clamp with scalars: a min above max gives
 *                           max; NaN propagates (prim.max/min do). */

/* The optional float (or integer) bound `key` of clamp: *has says whether it is given. */
static bool readBound(Rw *w, const char *key, bool *has, double *v) {
  MlirAttribute a = ttOpAttr(w->op, key);
  *has = !mlirAttributeIsNull(a);
  if (!*has)
    return true;
  if (mlirAttributeIsAFloat(a))
    *v = mlirFloatAttrGetValueDouble(a);
  else if (mlirAttributeIsAInteger(a) && !mlirAttributeIsABool(a))
    *v = (double)mlirIntegerAttrGetValueInt(a);
  else {
    ttEmitError(w->op, "decompose: %s: %s must be a float attribute", w->name, key);
    return false;
  }
  return true;
}

static MlirValue ruleClamp(Rw *w) {
  Shape x;
  bool relu = strcmp(w->name, "relu") == 0, hasLo = relu, hasHi = false;
  double lo = 0.0, hi = 0.0;
  MlirValue in = mlirOperationGetOperand(w->op, 0);
  if (!checkTensor(w, in, "x", &x) || !computeType(w, x.type))
    return nullValue();
  if (!relu && (!readBound(w, "min", &hasLo, &lo) || !readBound(w, "max", &hasHi, &hi)))
    return nullValue();
  if (!hasLo && !hasHi) {
    ttEmitError(w->op, "decompose: clamp: needs min or max (or both)");
    return nullValue();
  }
  MlirValue y = toCompute(w, in);
  MlirType t = mlirValueGetType(y);
  if (hasLo)
    y = binary(w, "max", y, full(w, t, lo));
  if (hasHi)
    y = binary(w, "min", y, full(w, t, hi));
  return convertTo(w, y, ttElementType(x.type));
}

static const struct {
  const char *name; /* without "prim." */
  RuleFn rule;
} rules[] = {
    {"softmax", ruleSoftmax},
    {"log_softmax", ruleLogSoftmax},
    {"layer_norm", ruleLayerNorm},
    {"rms_norm", ruleRmsNorm},
    {"gelu", ruleGelu},
    {"sigmoid", ruleSigmoid},
    {"silu", ruleSilu},
    {"swiglu", ruleSwiglu},
    {"linear", ruleLinear},
    {"scaled_mm", ruleScaledMm},
    {"sum", ruleReduce},
    {"amax", ruleReduce},
    {"amin", ruleReduce},
    {"mean", ruleMeanVar},
    {"var", ruleMeanVar},
    {"std", ruleMeanVar},
    {"relu", ruleClamp},
    {"clamp", ruleClamp},
    {"matmul", ruleMatmul},
};
#define NRULES ((int)(sizeof rules / sizeof rules[0]))

/* The index in `rules` of op's rule, -1 when op is not a composite this pass rewrites. */
static int ruleOf(MlirOperation op) {
  if (!ttOpHasPrefix(op, "prim.") ||
      (ttPrimKind(op) == TT_PRIM_REDUCTION && !reductionNeedsRewrite(op)) ||
      (ttPrimKind(op) == TT_PRIM_MATMUL && !matmulNeedsRewrite(op)))
    return -1;
  char name[64];
  ttPrimShortName(op, name, sizeof name);
  for (int i = 0; i < NRULES; i++)
    if (strcmp(rules[i].name, name) == 0)
      return i;
  return -1;
}

/* Step 1: the composite ops under a function, in program order. */
typedef struct {
  MlirOperation *ops;
  int n, cap;
} OpList;

static bool collect(MlirOperation op, void *userData) {
  OpList *l = userData;
  if (ruleOf(op) < 0)
    return true;
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 16;
    l->ops = ttRealloc(l->ops, sizeof(MlirOperation) * (size_t)l->cap);
  }
  l->ops[l->n++] = op;
  return true;
}

/* Steps 2-3 for one op; false after an error (the op is left as it was). */
static bool decomposeOp(MlirOperation op) {
  char name[64];
  Rw w = {0};
  w.ctx = mlirOperationGetContext(op);
  w.loc = mlirOperationGetLocation(op);
  w.b.block = mlirOperationGetBlock(op);
  w.b.before = op;
  w.op = op;
  w.name = ttPrimShortName(op, name, sizeof name);
  MlirValue y = rules[ruleOf(op)].rule(&w);
  if (mlirValueIsNull(y))
    return false;
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), y);
  mlirOperationDestroy(op);
  for (int i = 0; i < w.ndead; i++) /* a transpose now read through its input */
    if (mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(w.dead[i], 0))))
      mlirOperationDestroy(w.dead[i]);
  return true;
}

bool ttDecomposePass(MlirModule module, const TtPassOptions *opts) {
  (void)opts;
  OpList l = {0};
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f))
    if (ttOpIs(f, "func.func"))
      ttWalk(f, collect, &l);
  bool ok = true;
  for (int i = 0; i < l.n; i++)
    ok &= decomposeOp(l.ops[i]);
  free(l.ops);
  return ok;
}
