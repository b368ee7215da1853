/* online.c - --tile's online softmax normalizer in row kernels that loop over a row
 * (rows.c, step 4a'): a row's sum(exp(x - max(x))) joins the loop of its max (where
 * geometry-rows.c says: Geometry.online), the pair carried as two scalars, so the looped
 * form reads the row for the two reductions once, not twice.
 *
 * Algorithm (Milakov and Gimelshein 2018), per loop step of the row's chunks: the step's
 * max m' = max(m, max of the step's chunks); the step's sum of exp(x - m') over the same
 * chunks; s' = s * exp(m - m') + that sum. (Welford's variance pair, the other reduction
 * that joins an earlier loop, is welford.c.)
 */
#include "tile.h"

#include <math.h>
#include <string.h>

/* Step 4a': the pair joins mx's loop as an online normalizer (Milakov and Gimelshein,
 * 2018) where geometry-rows.c says (Geometry.online). */
bool tileOnlinePair(MlirOperation r, MlirOperation mx) {
  char buf[32];
  MlirOperation none = {NULL};
  MlirOperation ex = tilePrimDef(mlirOperationGetOperand(r, 0), "exp");
  MlirOperation sub = ex.ptr ? tilePrimDef(mlirOperationGetOperand(ex, 0), "sub") : none;
  MlirOperation bc =
      sub.ptr ? tilePrimDef(mlirOperationGetOperand(sub, 1), "broadcast_in_dim") : none;
  MlirOperation m = bc.ptr ? tilePrimDef(mlirOperationGetOperand(bc, 0), "amax") : none;
  return m.ptr && mlirOperationEqual(m, mx) &&
         strcmp(ttPrimShortName(r, buf, sizeof buf), "sum") == 0 &&
         mlirValueEqual(mlirOperationGetOperand(mx, 0), mlirOperationGetOperand(sub, 0)) &&
         mlirTypeIsAF32(ttElementType(mlirValueGetType(mlirOperationGetResult(r, 0)))) &&
         mlirTypeIsAF32(ttElementType(mlirValueGetType(mlirOperationGetResult(mx, 0))));
}

bool tileHasOnlinePair(MlirBlock body) {
  for (MlirOperation r = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(r);
       r = mlirOperationGetNextInBlock(r))
    for (MlirOperation m = mlirBlockGetFirstOperation(body);
         ttPrimIsRowReduction(r) && !mlirOperationEqual(m, r); m = mlirOperationGetNextInBlock(m))
      if (ttPrimIsRowReduction(m) && tileOnlinePair(r, m))
        return true;
  return false;
}

/* Scalar f32 x == -inf. */
static MlirValue isNegInf(Emit *e, MlirValue x) {
  MlirNamedAttribute oeq = ttNamedAttr(e->ctx, "predicate",
                                       mlirIntegerAttrGet(mlirIntegerTypeGet(e->ctx, 64), 1));
  MlirValue ninf = ttConstSplat(&e->b, e->loc, mlirValueGetType(x), -INFINITY);
  return ttBuild(&e->b, "arith.cmpf", e->loc, 2, (MlirValue[]){x, ninf},
                 mlirIntegerTypeGet(e->ctx, 1), 1, &oeq);
}

/* cond ? a : b on scalars. */
static MlirValue pick(Emit *e, MlirValue cond, MlirValue a, MlirValue b) {
  return ttBuild(&e->b, "arith.select", e->loc, 3, (MlirValue[]){cond, a, b}, mlirValueGetType(a),
                 0, NULL);
}

/* Step 4a' in one loop step, for amax `mx` (its chunks' values x, -inf where masked, in
 * xm; combined in `step`) and its online sum `sum`, carried as scalars m and s (-inf and 0
 * before the row): m' = max(m, the step's max); the step's sum of exp(x - m') over the
 * same chunks (offs, cols of each; x read as xm, still in registers, so masked lanes
 * give exp(-inf) = 0 and no mask is held across the reduction), reduced to one value t;
 * s' = s * exp(m - m') + t. A max of -inf (a masked or all -inf run) counts as 0 where
 * it is subtracted, so exp(-inf - 0) is 0, not NaN; s' keeps its NaN or inf when x has
 * them. */
void tileOnlineStep(Emit *e, MlirOperation mx, MlirOperation sum, MlirValue step,
                    const MlirValue *xm, const MlirValue *offs, const MlirValue *cols,
                    int64_t chunks, MlirValue *m, MlirValue *s) {
  MlirType ct = mlirValueGetType(step), f32 = mlirShapedTypeGetElementType(ct);
  MlirValue zero = ttConstSplat(&e->b, e->loc, f32, 0.0);
  MlirValue mNew = tileOp2(e, "arith.maximumf", *m, tileReduce(e, step, "max"), f32);
  MlirValue safe = pick(e, isNegInf(e, mNew), zero, mNew);
  tileMemoPut(e, mlirOperationGetResult(mx, 0), (MlirValue){NULL},
              tileOp1(e, "tile.splat", safe, ct));
  MlirValue acc = {NULL};
  e->loadMask = (MlirValue){NULL}; /* chunk u's loads (none: x is xm) under e->mask */
  for (int64_t u = 0; u < chunks && !e->failed; u++) {
    e->offs = offs[u];
    e->cols = cols[u];
    tileMemoSet(e, mlirOperationGetOperand(mx, 0), offs[u], xm[u]);
    MlirValue x = tileEmitValue(e, mlirOperationGetOperand(sum, 0), e->offs);
    if (e->failed)
      return;
    acc = u == 0 ? x : tileOp2(e, "arith.addf", acc, x, ct);
  }
  /* m = -inf (nothing before, s = 0): exp(-inf - safe) = 0, safe being finite or +inf */
  MlirValue scale = tileOp1(e, "math.exp", tileOp2(e, "arith.subf", *m, safe, f32), f32);
  *s = tileOp2(e, "arith.addf", tileOp2(e, "arith.mulf", *s, scale, f32), tileReduce(e, acc, "sum"),
               f32);
  *m = mNew;
}
