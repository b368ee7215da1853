/* resident.c - --pipeline's resident weights: the loads of a persistent row loop
 * (`tile.row_loop`, --tile persistent=1) that read the same elements every row (a norm's
 * weight and bias) are copied into shared memory once, before the loop, and each row
 * reads them there instead of from L2.
 *
 * Why: a row kernel's weight and bias are read from L2 each row, twice the row's bytes
 * for layer_norm; on an H200 that cost 12-14% of layer_norm 4096 x 32768's time, and a
 * hand-written persistent kernel with them resident in shared memory ran at 89.5% of
 * copy bandwidth against 87% reading them from L2 (bench/2026-11-28-h200-rows-weights.md,
 * runs 2 and 4).
 *
 * Algorithm, for a row loop (an scf.for marked tile.row_loop):
 *  1. The candidates: each tile.load in the loop's body (at its top level) of a kernel
 *     argument, a 1-D tile of at least 16 bytes a thread, whose `other` is a zero
 *     constant (a copy fills masked elements with zero) and whose offsets and mask are
 *     loop invariant: computed from values defined outside the loop by ops without
 *     regions (loopInvariant).
 *  2. Budget: their bytes must fit the shared memory one program may take when the grid
 *     puts P = ceil(programs / SMs) programs on each SM (the dynamic limit / P, less
 *     RESIDENT_RESERVE for the kernel's own scratch: reductions, barriers), and the loop
 *     (rows pid, pid + step, ... < M, constants) must give each program two rows or more
 *     (M >= 2 step: a program of one row reads its weights once either way); else nothing
 *     changes.
 *  3. Before the loop: the offsets' and mask's ops cloned, a tile.local_alloc of one 1 x C
 *     slot per load, a tile.async_copy into it, one tile.async_commit and a
 *     tile.async_wait {pending = 0} (its barrier makes every thread's copies visible).
 *  4. In the loop: each load replaced by tile.local_load of its slot.
 * The loads that vary by row are left to the row loop's pipelining (pipeline.c).
 */
#include "pipeline.h"

/* Scratch the kernel keeps besides the resident rows (the reductions' words, barriers). */
#define RESIDENT_RESERVE (4 << 10)
#define MAX_RESIDENT 8

/* Whether v is computed, in loop's body, from values defined outside it by region-free
 * ops other than loads (depth-limited: offsets and masks are short chains). */
static bool loopInvariant(MlirValue v, MlirOperation loop, int depth) {
  MlirBlock body = ttForBody(loop);
  if (mlirValueIsABlockArgument(v))
    return !mlirBlockEqual(mlirBlockArgumentGetOwner(v), body);
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!mlirBlockEqual(mlirOperationGetBlock(def), body))
    return true;
  if (depth == 0 || mlirOperationGetNumRegions(def) != 0 || ttOpIs(def, "tile.load") ||
      ttOpIs(def, "tile.local_load"))
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(def); i++)
    if (!loopInvariant(mlirOperationGetOperand(def, i), loop, depth - 1))
      return false;
  return true;
}

/* Whether v is an arith.constant splat of zero. */
static bool zeroConstant(MlirValue v) {
  if (!mlirValueIsAOpResult(v) || !ttOpIs(mlirOpResultGetOwner(v), "arith.constant"))
    return false;
  MlirAttribute a = ttOpAttr(mlirOpResultGetOwner(v), "value");
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseFPElements(a) ||
      !mlirDenseElementsAttrIsSplat(a))
    return false;
  return mlirFloatAttrGetValueDouble(mlirDenseElementsAttrGetSplatValue(a)) == 0.0;
}

/* Step 1 for one op of the body (threads: the program's): a 1-D tile of at least 16
 * bytes a thread, so that tile.async_copy's runs are cp.async's 16 bytes (a shorter run
 * may not be one of its sizes, 4, 8 or 16). */
static bool residentCandidate(MlirOperation op, MlirOperation loop, int64_t threads) {
  int64_t shape[TT_MAX_RANK];
  if (!ttOpIs(op, "tile.load") || mlirOperationGetNumOperands(op) != 4)
    return false;
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  return mlirValueIsABlockArgument(mlirOperationGetOperand(op, 0)) &&
         ttTensorShape(t, shape) == 1 &&
         shape[0] * ttDtypeBytes(ttElementType(t)) >= 16 * threads &&
         zeroConstant(mlirOperationGetOperand(op, 3)) &&
         loopInvariant(mlirOperationGetOperand(op, 1), loop, 16) &&
         loopInvariant(mlirOperationGetOperand(op, 2), loop, 16);
}

/* A value map from the body's values to their clones before the loop. */
typedef struct {
  MlirValue from[64], to[64];
  int n;
  MlirOperation made[64]; /* the clones, in order (destroyed newest first on failure) */
  int nmade;
} Clones;

/* v's clone before the loop (cloning its defining ops first, at b); v itself when it is
 * defined outside the body. NULL value past the map's capacity. */
static MlirValue hoisted(TtBuilder *b, MlirOperation loop, Clones *c, MlirValue v) {
  if (mlirValueIsABlockArgument(v) ||
      !mlirBlockEqual(mlirOperationGetBlock(mlirOpResultGetOwner(v)), ttForBody(loop)))
    return v;
  for (int i = 0; i < c->n; i++)
    if (mlirValueEqual(c->from[i], v))
      return c->to[i];
  if (c->nmade == 64)
    return (MlirValue){NULL};
  MlirOperation def = mlirOpResultGetOwner(v), copy = mlirOperationClone(def);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(def); i++) {
    MlirValue x = hoisted(b, loop, c, mlirOperationGetOperand(def, i));
    if (mlirValueIsNull(x)) {
      mlirOperationDestroy(copy);
      return (MlirValue){NULL};
    }
    mlirOperationSetOperand(copy, i, x);
  }
  ttInsert(b, copy);
  c->made[c->nmade++] = copy;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(def) && c->n < 64; r++) {
    c->from[c->n] = mlirOperationGetResult(def, r);
    c->to[c->n++] = mlirOperationGetResult(copy, r);
  }
  return c->n < 64 ? mlirOperationGetResult(copy, mlirOpResultGetResultNumber(v))
                   : (MlirValue){NULL};
}

bool plResidentWeights(MlirOperation loop, int64_t programs) {
  MlirOperation loads[MAX_RESIDENT];
  int n = 0;
  int64_t bytes = 0, shape[TT_MAX_RANK];
  MlirOperation kernel = mlirOperationGetParentOperation(loop);
  int64_t threads = 32 * ttOpAttrInt(kernel, "tile.num_warps", 4);
  for (MlirOperation op = mlirBlockGetFirstOperation(ttForBody(loop));
       !mlirOperationIsNull(op) && n < MAX_RESIDENT; op = mlirOperationGetNextInBlock(op))
    if (residentCandidate(op, loop, threads)) {
      MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
      ttTensorShape(t, shape);
      bytes += shape[0] * ttDtypeBytes(ttElementType(t)) + 16; /* + the slot's row pad */
      loads[n++] = op;
    }
  int64_t perSm = programs > 0 ? (programs + numSms() - 1) / numSms() : 1;
  int64_t rows = ttConstIntValue(mlirOperationGetOperand(loop, 1));
  int64_t step = ttConstIntValue(mlirOperationGetOperand(loop, 2));
  if (n == 0 || bytes > smemDynamic() / perSm - RESIDENT_RESERVE || step <= 0 || rows < 2 * step)
    return false; /* step 2 */
  MlirContext ctx = mlirOperationGetContext(loop);
  MlirLocation loc = mlirOperationGetLocation(loop);
  TtBuilder b = {mlirOperationGetBlock(loop), loop};
  Clones c = {.n = 0};
  MlirValue offs[MAX_RESIDENT], masks[MAX_RESIDENT];
  for (int i = 0; i < n; i++) { /* step 3: the offsets and masks before the loop */
    offs[i] = hoisted(&b, loop, &c, mlirOperationGetOperand(loads[i], 1));
    masks[i] = hoisted(&b, loop, &c, mlirOperationGetOperand(loads[i], 2));
    if (mlirValueIsNull(offs[i]) || mlirValueIsNull(masks[i])) {
      for (int j = c.nmade - 1; j >= 0; j--) /* the clones made so far */
        mlirOperationDestroy(c.made[j]);
      return false;
    }
  }
  MlirValue zero = ttConstInt(&b, loc, ttI32(ctx), 0), bufs[MAX_RESIDENT];
  for (int i = 0; i < n; i++) { /* a slot each, and its copy */
    MlirType t = mlirValueGetType(mlirOperationGetResult(loads[i], 0));
    ttTensorShape(t, shape);
    int64_t slot[3] = {1, 1, shape[0]};
    MlirType buf = mlirMemRefTypeContiguousGet(ttElementType(t), 3, slot,
                                               mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 3));
    bufs[i] = ttBuild(&b, "tile.local_alloc", loc, 0, NULL, buf, 0, NULL);
    MlirValue ops[5] = {mlirOperationGetOperand(loads[i], 0), offs[i], masks[i], bufs[i], zero};
    ttBuild(&b, "tile.async_copy", loc, 5, ops, ttNoType(), 0, NULL);
  }
  ttBuild(&b, "tile.async_commit", loc, 0, NULL, ttNoType(), 0, NULL);
  MlirNamedAttribute pending = ttNamedAttr(ctx, "pending", ttIntAttr(ctx, 0, ttI32(ctx)));
  ttBuild(&b, "tile.async_wait", loc, 0, NULL, ttNoType(), 1, &pending);
  for (int i = 0; i < n; i++) { /* step 4 */
    TtBuilder at = {mlirOperationGetBlock(loads[i]), loads[i]};
    MlirValue zeroIn = ttConstInt(&at, loc, ttI32(ctx), 0);
    MlirValue ops[2] = {bufs[i], zeroIn};
    MlirValue v = ttBuild(&at, "tile.local_load", mlirOperationGetLocation(loads[i]), 2, ops,
                          mlirValueGetType(mlirOperationGetResult(loads[i], 0)), 0, NULL);
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(loads[i], 0), v);
    mlirOperationDestroy(loads[i]);
  }
  return true;
}
