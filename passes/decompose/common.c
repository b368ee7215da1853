/* common.c - --decompose's toolkit: building prim ops at the composite's place (one new
 * op per call, so their order never depends on C's order of argument evaluation) and
 * checking a composite's operands with located errors. */
#include "decompose.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- building primitives ---------------------------------------------------------- *
 * A call builds at most one operand of another call: C leaves the order in which
 * arguments are evaluated open, and the order of the new ops must not depend on it. */

/* A ranked tensor type of the given shape and element type. */
MlirType dcTensorOf(int64_t rank, const int64_t *shape, MlirType elem) {
  return mlirRankedTensorTypeGet(rank, shape, elem, mlirAttributeGetNull());
}

/* t with its element type replaced by elem. */
static MlirType withElem(MlirType t, MlirType elem) {
  int64_t shape[TT_MAX_RANK], r = ttTensorShape(t, shape);
  return dcTensorOf(r, shape, elem);
}

/* Builds `prim.<name>` with a result of type `result` before the composite. */
MlirValue dcPrim(Rw *w, const char *name, intptr_t nOperands,
                      const MlirValue *operands, MlirType result, intptr_t nAttrs,
                      const MlirNamedAttribute *attrs) {
  char full[64];
  snprintf(full, sizeof full, "prim.%s", name);
  return ttBuild(&w->b, full, w->loc, nOperands, operands, result, nAttrs, attrs);
}

MlirValue dcUnary(Rw *w, const char *name, MlirValue x) {
  return dcPrim(w, name, 1, &x, mlirValueGetType(x), 0, NULL);
}

MlirValue dcBinary(Rw *w, const char *name, MlirValue lhs, MlirValue rhs) {
  MlirValue operands[2] = {lhs, rhs};
  return dcPrim(w, name, 2, operands, mlirValueGetType(lhs), 0, NULL);
}

/* `prim.full` of type t (of the compute dtype) with every element `value`. */
MlirValue dcFull(Rw *w, MlirType t, double value) {
  MlirType attrType = mlirTypeIsAF64(w->compute) ? w->compute : mlirF32TypeGet(w->ctx);
  MlirNamedAttribute a =
      ttNamedAttr(w->ctx, "value", mlirFloatAttrDoubleGet(w->ctx, attrType, value));
  return dcPrim(w, "full", 0, NULL, t, 1, &a);
}

/* x converted to element type elem (x itself when it has it already). */
MlirValue dcConvertTo(Rw *w, MlirValue x, MlirType elem) {
  MlirType t = mlirValueGetType(x);
  if (mlirTypeEqual(ttElementType(t), elem))
    return x;
  return dcPrim(w, "convert", 1, &x, withElem(t, elem), 0, NULL);
}

MlirValue dcToCompute(Rw *w, MlirValue x) { return dcConvertTo(w, x, w->compute); }

/* `prim.<kind>(x) {dims = [dim], keepdim = false}`: x without dimension dim. */
MlirValue dcReduce(Rw *w, const char *kind, MlirValue x, int64_t dim) {
  MlirType t = mlirValueGetType(x);
  int64_t shape[TT_MAX_RANK], r = ttTensorShape(t, shape);
  for (int64_t i = dim; i + 1 < r; i++)
    shape[i] = shape[i + 1];
  MlirNamedAttribute attrs[2] = {
      ttNamedAttr(w->ctx, "dims", mlirDenseI64ArrayGet(w->ctx, 1, &dim)),
      ttNamedAttr(w->ctx, "keepdim", mlirBoolAttrGet(w->ctx, 0)),
  };
  return dcPrim(w, kind, 1, &x, dcTensorOf(r - 1, shape, ttElementType(t)), 2, attrs);
}

/* `prim.broadcast_in_dim` of x to type t, x's dimension i becoming t's dims[i]. */
MlirValue dcBroadcast(Rw *w, MlirValue x, MlirType t, intptr_t n,
                           const int64_t *dims) {
  MlirNamedAttribute a =
      ttNamedAttr(w->ctx, "broadcast_dimensions", mlirDenseI64ArrayGet(w->ctx, n, dims));
  return dcPrim(w, "broadcast_in_dim", 1, &x, t, 1, &a);
}

/* A value reduced over dimension dim, broadcast back to type t (every other dimension). */
MlirValue dcBroadcastBack(Rw *w, MlirValue v, MlirType t, int64_t dim) {
  int64_t dims[TT_MAX_RANK], r = mlirShapedTypeGetRank(t), n = 0;
  for (int64_t i = 0; i < r; i++)
    if (i != dim)
      dims[n++] = i;
  return dcBroadcast(w, v, t, n, dims);
}

/* A 1-D value (weight, bias) broadcast along the last dimension of type t. */
MlirValue dcBroadcastLast(Rw *w, MlirValue v, MlirType t) {
  int64_t last = mlirShapedTypeGetRank(t) - 1;
  return dcBroadcast(w, v, t, 1, &last);
}

/* reciprocal(1 + exp(-x)), x in the compute dtype. */
MlirValue dcBuildSigmoid(Rw *w, MlirValue x) {
  MlirValue one = dcFull(w, mlirValueGetType(x), 1.0);
  MlirValue e = dcUnary(w, "exp", dcUnary(w, "neg", x));
  return dcUnary(w, "reciprocal", dcBinary(w, "add", one, e));
}

/* --- checks ------------------------------------------------------------------------ */

void dcTypeString(MlirType t, char *buf, size_t n) {
  TtStr s = {0};
  mlirTypePrint(t, ttStrCallback, &s);
  snprintf(buf, n, "%s", s.data ? s.data : "?");
  ttStrDestroy(&s);
}

void dcMarkDead(Rw *w, MlirOperation op) {
  for (int i = 0; i < w->ndead; i++)
    if (mlirOperationEqual(w->dead[i], op))
      return;
  if (w->ndead < (int)(sizeof w->dead / sizeof w->dead[0]))
    w->dead[w->ndead++] = op;
}

int64_t dcMulDims(int64_t a, int64_t b) {
  return a < 0 || b < 0 ? mlirShapedTypeGetDynamicSize() : a * b;
}

/* Reads v's type into *s: a ranked tensor of rank <= TT_MAX_RANK, static but for its
 * leading dimension (dynamic: the rules multiply it with dcMulDims, and a rule that would
 * need its size refuses it). */
bool dcCheckTensor(Rw *w, MlirValue v, const char *what, Shape *s) {
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
  for (int64_t i = 1; i < s->rank; i++)
    if (s->shape[i] < 0) {
      ttEmitError(w->op, "decompose: %s: only the leading dimension may be dynamic (%s has "
                         "a dynamic dimension %lld)",
                  w->name, what, (long long)i);
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
bool dcComputeType(Rw *w, MlirType t) {
  if (!checkFloat(w, t, "the input"))
    return false;
  w->compute = ttTypeIsHalf(t) ? mlirF32TypeGet(w->ctx) : ttElementType(t);
  return true;
}

/* The operand `v` is a float tensor of shape [n] (a weight or bias of the last dim). */
bool dcCheckVector(Rw *w, MlirValue v, const char *what, int64_t n) {
  Shape s;
  if (!dcCheckTensor(w, v, what, &s) || !checkFloat(w, s.type, what))
    return false;
  if (s.rank != 1 || s.shape[0] != n) {
    char buf[128];
    dcTypeString(s.type, buf, sizeof buf);
    ttEmitError(w->op,
                "decompose: %s: %s must be 1-D of size %lld (the last dimension of x), got "
                "%s",
                w->name, what, (long long)n, buf);
    return false;
  }
  return true;
}

/* The input x (operand 0) of a composite that reduces over a dimension of it. */
bool dcCheckRows(Rw *w, Shape *x) {
  if (!dcCheckTensor(w, mlirOperationGetOperand(w->op, 0), "x", x) ||
      !dcComputeType(w, x->type))
    return false;
  if (x->rank < 1) {
    ttEmitError(w->op, "decompose: %s: x must have rank 1 or more", w->name);
    return false;
  }
  return true;
}

/* The float attribute `eps`. */
bool dcReadEps(Rw *w, double *eps) {
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

MlirValue dcNullValue(void) {
  MlirValue v = {NULL};
  return v;
}

/* softmax and log_softmax along `dim`. */
