/* activations.c - --decompose's rules for softmax, log_softmax, layer_norm, rms_norm,
 * gelu, sigmoid, silu, swiglu, relu and clamp: PyTorch's formulas on primitives, f16/bf16
 * computed in f32 between one convert in and one out (decompose.c's head states each). */
#include "decompose.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MlirValue softmaxRule(Rw *w, bool log) {
  Shape x;
  MlirValue in = mlirOperationGetOperand(w->op, 0);
  if (!dcCheckRows(w, &x))
    return dcNullValue();
  MlirAttribute da = ttOpAttr(w->op, "dim");
  if (mlirAttributeIsNull(da) || !mlirAttributeIsAInteger(da)) {
    ttEmitError(w->op, "decompose: %s: dim must be an integer attribute", w->name);
    return dcNullValue();
  }
  int64_t dim = mlirIntegerAttrGetValueInt(da), d = dim < 0 ? dim + x.rank : dim;
  if (d < 0 || d >= x.rank) {
    ttEmitError(w->op,
                "decompose: %s: dim %lld is out of range for a tensor of rank %lld "
                "(expected %lld to %lld)",
                w->name, (long long)dim, (long long)x.rank, (long long)-x.rank,
                (long long)x.rank - 1);
    return dcNullValue();
  }
  MlirValue xc = dcToCompute(w, in);
  MlirType t = mlirValueGetType(xc);
  MlirValue s = dcBinary(w, "sub", xc, dcBroadcastBack(w, dcReduce(w, "amax", xc, d), t, d));
  MlirValue e = dcUnary(w, "exp", s);
  MlirValue y;
  if (log)
    y = dcBinary(w, "sub", s,
               dcBroadcastBack(w, dcUnary(w, "log", dcReduce(w, "sum", e, d)), t, d));
  else
    y = dcBinary(w, "div", e, dcBroadcastBack(w, dcReduce(w, "sum", e, d), t, d));
  return dcConvertTo(w, y, ttElementType(x.type));
}

MlirValue dcRuleSoftmax(Rw *w) { return softmaxRule(w, false); }
MlirValue dcRuleLogSoftmax(Rw *w) { return softmaxRule(w, true); }

MlirValue dcRuleLayerNorm(Rw *w) {
  Shape x;
  double eps;
  MlirValue weight = mlirOperationGetOperand(w->op, 1);
  MlirValue bias = mlirOperationGetOperand(w->op, 2);
  if (!dcCheckRows(w, &x))
    return dcNullValue();
  int64_t last = x.rank - 1, n = x.shape[last];
  if (!dcCheckVector(w, weight, "weight", n) || !dcCheckVector(w, bias, "bias", n) ||
      !dcReadEps(w, &eps))
    return dcNullValue();
  MlirValue xc = dcToCompute(w, mlirOperationGetOperand(w->op, 0));
  MlirType t = mlirValueGetType(xc);
  MlirValue sum = dcReduce(w, "sum", xc, last);
  MlirType red = mlirValueGetType(sum);
  MlirValue count = dcFull(w, red, (double)n); /* N, shared by the two means */
  MlirValue mu = dcBinary(w, "div", sum, count);
  MlirValue v = dcBinary(w, "sub", xc, dcBroadcastBack(w, mu, t, last));
  MlirValue var = dcBinary(w, "div", dcReduce(w, "sum", dcBinary(w, "mul", v, v), last), count);
  MlirValue rstd = dcUnary(w, "rsqrt", dcBinary(w, "add", var, dcFull(w, red, eps)));
  MlirValue y = dcBinary(w, "mul", v, dcBroadcastBack(w, rstd, t, last));
  y = dcBinary(w, "mul", y, dcBroadcastLast(w, dcToCompute(w, weight), t));
  y = dcBinary(w, "add", y, dcBroadcastLast(w, dcToCompute(w, bias), t));
  return dcConvertTo(w, y, ttElementType(x.type));
}

MlirValue dcRuleRmsNorm(Rw *w) {
  Shape x;
  double eps;
  MlirValue weight = mlirOperationGetOperand(w->op, 1);
  if (!dcCheckRows(w, &x))
    return dcNullValue();
  int64_t last = x.rank - 1, n = x.shape[last];
  if (!dcCheckVector(w, weight, "weight", n) || !dcReadEps(w, &eps))
    return dcNullValue();
  MlirValue xc = dcToCompute(w, mlirOperationGetOperand(w->op, 0));
  MlirType t = mlirValueGetType(xc);
  MlirValue ms = dcReduce(w, "sum", dcBinary(w, "mul", xc, xc), last);
  MlirType red = mlirValueGetType(ms);
  ms = dcBinary(w, "div", ms, dcFull(w, red, (double)n));
  MlirValue r = dcUnary(w, "rsqrt", dcBinary(w, "add", ms, dcFull(w, red, eps)));
  MlirValue y = dcBinary(w, "mul", xc, dcBroadcastBack(w, r, t, last));
  y = dcBinary(w, "mul", y, dcBroadcastLast(w, dcToCompute(w, weight), t));
  return dcConvertTo(w, y, ttElementType(x.type));
}

MlirValue dcRuleGelu(Rw *w) {
  Shape x;
  char approx[32];
  MlirValue in = mlirOperationGetOperand(w->op, 0);
  if (!dcCheckTensor(w, in, "x", &x) || !dcComputeType(w, x.type))
    return dcNullValue();
  if (!ttOpAttrStr(w->op, "approximate", approx, sizeof approx)) {
    ttEmitError(w->op, "decompose: gelu: approximate must be a string attribute");
    return dcNullValue();
  }
  bool tanhForm = strcmp(approx, "tanh") == 0;
  if (!tanhForm && strcmp(approx, "none") != 0) {
    ttEmitError(w->op,
                "decompose: gelu: approximate = \"%s\" is not supported (\"none\" or "
                "\"tanh\")",
                approx);
    return dcNullValue();
  }
  MlirValue xc = dcToCompute(w, in);
  MlirType t = mlirValueGetType(xc);
  MlirValue one = dcFull(w, t, 1.0), half = dcFull(w, t, 0.5), y;
  if (tanhForm) {
    MlirValue x3 = dcBinary(w, "mul", dcBinary(w, "mul", xc, xc), xc);
    MlirValue inner = dcBinary(w, "add", xc, dcBinary(w, "mul", dcFull(w, t, GELU_KAPPA), x3));
    inner = dcBinary(w, "mul", dcFull(w, t, SQRT_2_OVER_PI), inner);
    MlirValue th = dcBinary(w, "add", one, dcUnary(w, "tanh", inner));
    MlirValue hx = dcBinary(w, "mul", half, xc);
    y = dcBinary(w, "mul", hx, th);
  } else {
    MlirValue xh = dcBinary(w, "mul", xc, half);
    MlirValue er = dcUnary(w, "erf", dcBinary(w, "mul", xc, dcFull(w, t, SQRT1_2)));
    y = dcBinary(w, "mul", xh, dcBinary(w, "add", one, er));
  }
  return dcConvertTo(w, y, ttElementType(x.type));
}

MlirValue dcRuleSigmoid(Rw *w) {
  Shape x;
  MlirValue in = mlirOperationGetOperand(w->op, 0);
  if (!dcCheckTensor(w, in, "x", &x) || !dcComputeType(w, x.type))
    return dcNullValue();
  return dcConvertTo(w, dcBuildSigmoid(w, dcToCompute(w, in)), ttElementType(x.type));
}

MlirValue dcRuleSilu(Rw *w) {
  Shape x;
  MlirValue in = mlirOperationGetOperand(w->op, 0);
  if (!dcCheckTensor(w, in, "x", &x) || !dcComputeType(w, x.type))
    return dcNullValue();
  MlirValue xc = dcToCompute(w, in);
  return dcConvertTo(w, dcBinary(w, "mul", xc, dcBuildSigmoid(w, xc)), ttElementType(x.type));
}

MlirValue dcRuleSwiglu(Rw *w) {
  Shape a;
  MlirValue in = mlirOperationGetOperand(w->op, 0);
  if (!dcCheckTensor(w, in, "a", &a) || !dcComputeType(w, a.type))
    return dcNullValue();
  MlirValue ac = dcToCompute(w, in);
  MlirValue bc = dcToCompute(w, mlirOperationGetOperand(w->op, 1));
  MlirValue y = dcBinary(w, "mul", dcBinary(w, "mul", ac, dcBuildSigmoid(w, ac)), bc);
  return dcConvertTo(w, y, ttElementType(a.type));
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

MlirValue dcRuleClamp(Rw *w) {
  Shape x;
  bool relu = strcmp(w->name, "relu") == 0, hasLo = relu, hasHi = false;
  double lo = 0.0, hi = 0.0;
  MlirValue in = mlirOperationGetOperand(w->op, 0);
  if (!dcCheckTensor(w, in, "x", &x) || !dcComputeType(w, x.type))
    return dcNullValue();
  if (!relu && (!readBound(w, "min", &hasLo, &lo) || !readBound(w, "max", &hasHi, &hi)))
    return dcNullValue();
  if (!hasLo && !hasHi) {
    ttEmitError(w->op, "decompose: clamp: needs min or max (or both)");
    return dcNullValue();
  }
  MlirValue y = dcToCompute(w, in);
  MlirType t = mlirValueGetType(y);
  if (hasLo)
    y = dcBinary(w, "max", y, dcFull(w, t, lo));
  if (hasHi)
    y = dcBinary(w, "min", y, dcFull(w, t, hi));
  return dcConvertTo(w, y, ttElementType(x.type));
}
