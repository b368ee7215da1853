/* welford.c - --tile's one-pass variance in row kernels that loop over a row (rows.c,
 * step 4a'''): a row's sum of squared deviations from its mean,
 *     sum(v * v), v = x - broadcast(sum(x) / N)        (layer_norm's, var's and std's),
 * joins the loop of its mean's sum(x) (the online-var option, Geometry.welford), so the
 * looped form reads the row twice (the sums, the output), not three times. (Staged rows
 * keep two loops, geometry-rows.c: a pass over shared memory costs less than the update;
 * the code below is general over them and over a cluster's parts.) Subtracting the
 * squared mean from the mean square would do it in one pass too, but loses every digit
 * where the mean dwarfs the spread (x = 1000 + noise of 0.01, in f32); Welford's update
 * does not, which is why PyTorch's own kernels use it.
 *
 * Algorithm (Welford 1962 in each lane; Chan, Golub and LeVeque 1979 across lanes):
 *  1. Each lane of the chunk tile keeps the running mean and m2 (the sum of squared
 *     deviations from it) of the elements it has seen. A lane sees the row's chunks in
 *     column order, and the chunks where its column is inside the row are a prefix of
 *     them (columns grow by B a chunk), so at chunk c every lane still inside has seen c
 *     elements: k = c + 1 is one scalar for the chunk, and the update is
 *         d = x - mean;  mean += d * (1 / k);  m2 += d * (x - mean)
 *     (a lane off the mask takes x = mean: d = 0, nothing changes).
 *  2. After the loop a lane's count n is the chunks it saw, ceil((N - first) / B) within
 *     [0, chunks] (first: its column in the block's first chunk); the row's sum is
 *     S = sum over lanes of n * mean (sum(x)'s value), and its m2 is
 *         sum over lanes of m2 + n * (mean - S / N)^2
 *     (sum(v * v)'s value): two reductions of the lanes' values after the loop, across
 *     the cluster where the row is split (tileReduceToSplat), and no second pass.
 */
#include "tile.h"

#include <string.h>

/* True when broadcast_in_dim bc spreads a per-row value along the rows' last dimension:
 * its operand's dims are the result's leading ones (a keepdim operand's last, of size 1,
 * broadcast too). */
static bool alongRows(MlirOperation bc) {
  int64_t rs[TT_MAX_RANK], xs[TT_MAX_RANK];
  int64_t rr = ttTensorShape(mlirValueGetType(mlirOperationGetResult(bc, 0)), rs);
  int64_t xr = ttTensorShape(mlirValueGetType(mlirOperationGetOperand(bc, 0)), xs);
  MlirAttribute dims = ttOpAttr(bc, "broadcast_dimensions");
  if (rr < 1 || xr < 0 || mlirAttributeIsNull(dims) || mlirDenseArrayGetNumElements(dims) != xr ||
      !(xr == rr - 1 || (xr == rr && xs[rr - 1] == 1)))
    return false;
  for (int64_t i = 0; i < xr; i++)
    if (mlirDenseI64ArrayGetElement(dims, i) != i)
      return false;
  return true;
}

bool tileVariancePair(MlirOperation r, MlirOperation s) {
  char buf[32];
  MlirOperation none = {NULL};
  if (strcmp(ttPrimShortName(r, buf, sizeof buf), "sum") != 0 ||
      strcmp(ttPrimShortName(s, buf, sizeof buf), "sum") != 0 ||
      !mlirTypeIsAF32(ttElementType(mlirValueGetType(mlirOperationGetResult(r, 0)))) ||
      !mlirTypeIsAF32(ttElementType(mlirValueGetType(mlirOperationGetResult(s, 0)))))
    return false;
  MlirOperation sq = tilePrimDef(mlirOperationGetOperand(r, 0), "mul");
  if (!sq.ptr || !mlirValueEqual(mlirOperationGetOperand(sq, 0), mlirOperationGetOperand(sq, 1)))
    return false;
  MlirOperation sub = tilePrimDef(mlirOperationGetOperand(sq, 0), "sub");
  MlirOperation bc = sub.ptr ? tilePrimDef(mlirOperationGetOperand(sub, 1), "broadcast_in_dim") : none;
  MlirOperation div = bc.ptr && alongRows(bc) ? tilePrimDef(mlirOperationGetOperand(bc, 0), "div") : none;
  if (!div.ptr || !mlirValueEqual(mlirOperationGetOperand(div, 0), mlirOperationGetResult(s, 0)))
    return false;
  MlirValue x = mlirOperationGetOperand(s, 0), n = mlirOperationGetOperand(div, 1);
  int64_t xs[TT_MAX_RANK], xr = ttTensorShape(mlirValueGetType(x), xs);
  double count;
  return mlirValueEqual(mlirOperationGetOperand(sub, 0), x) && xr >= 1 && xs[xr - 1] > 0 &&
         mlirValueIsAOpResult(n) && ttPrimSplatValue(mlirOpResultGetOwner(n), &count) &&
         count == (double)xs[xr - 1];
}

/* Float op `name` of a and c (type t), `fastmath<contract>`: a * b + c may become one
 * fma, as emit.c's ops may. */
static MlirValue fop(Emit *e, const char *name, MlirValue a, MlirValue c, MlirType t) {
  MlirNamedAttribute fm = ttFastmath(e->ctx, "contract");
  return ttBuild(&e->b, name, e->loc, 2, (MlirValue[]){a, c}, t, 1, &fm);
}

void tileWelfordStep(Emit *e, MlirValue x, MlirValue chunkNo, MlirValue *mean, MlirValue *m2) {
  MlirType ct = mlirValueGetType(x), f32 = mlirShapedTypeGetElementType(ct), i32 = ttI32(e->ctx);
  MlirValue k = tileOp2(e, "arith.addi", chunkNo, ttConstInt(&e->b, e->loc, i32, 1), i32);
  MlirValue inv = tileOp2(e, "arith.divf", ttConstSplat(&e->b, e->loc, f32, 1.0),
                          tileOp1(e, "arith.uitofp", k, f32), f32);
  MlirValue xm = ttBuild(&e->b, "arith.select", e->loc, 3, (MlirValue[]){e->mask, x, *mean}, ct,
                         0, NULL);
  MlirValue d = fop(e, "arith.subf", xm, *mean, ct);
  MlirValue next = fop(e, "arith.addf", *mean,
                       fop(e, "arith.mulf", d, tileOp1(e, "tile.splat", inv, ct), ct), ct);
  *m2 = fop(e, "arith.addf", *m2, fop(e, "arith.mulf", d, fop(e, "arith.subf", xm, next, ct), ct), ct);
  *mean = next;
}

void tileWelfordCombine(Emit *e, const Geometry *g, MlirValue range, MlirValue mean,
                        MlirValue m2, MlirOperation sum, MlirOperation var) {
  MlirType ct = mlirValueGetType(mean), it = tileOf(e, ttI32(e->ctx));
  int64_t B = g->block, chunks = g->staged ? g->partLen / B : (g->rowLen + B - 1) / B;
  MlirValue first = range;
  if (!mlirValueIsNull(e->partFirst))
    first = tileOp2(e, "arith.addi", first, e->partFirst, it);
  MlirValue n = tileOp2(e, "arith.subi", tileSplatI32(e, g->rowLen + B - 1), first, it);
  n = tileOp2(e, "arith.divsi", n, tileSplatI32(e, B), it);
  n = tileOp2(e, "arith.maxsi", n, tileSplatI32(e, 0), it);
  n = tileOp2(e, "arith.minsi", n, tileSplatI32(e, chunks), it);
  MlirValue nf = tileOp1(e, "arith.sitofp", n, ct);
  Combiner add = tileCombinerOf(sum);
  MlirValue s = tileReduceToSplat(e, fop(e, "arith.mulf", nf, mean, ct), add, ct);
  MlirValue mu = fop(e, "arith.mulf", s, ttConstSplat(&e->b, e->loc, ct, 1.0 / (double)g->rowLen), ct);
  MlirValue dev = fop(e, "arith.subf", mean, mu, ct);
  MlirValue q = fop(e, "arith.addf", m2, fop(e, "arith.mulf", fop(e, "arith.mulf", nf, dev, ct), dev, ct), ct);
  tileMemoPut(e, mlirOperationGetResult(sum, 0), (MlirValue){NULL}, s);
  tileMemoPut(e, mlirOperationGetResult(var, 0), (MlirValue){NULL}, tileReduceToSplat(e, q, add, ct));
}
