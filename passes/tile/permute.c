/* permute.c - --tile's permute kernels (`prim.fusion = "permute"`): a transpose that moves
 * the last dim, with its elementwise prologue and epilogue.
 *
 * The transpose's operand X has dims [.., A, .., B] where B (its last dim, contiguous) goes
 * to result dim q and A (dim a = perm[rank-1]) becomes the result's last dim: the result
 * is contiguous along A. Every other dim is a *batch* dim, at some stride in both. Program
 * p computes one TA x TB tile of one batch index:
 *  1. Geometry (permuteGeometry): a side of PERMUTE_SIDE_BYTES (128 bytes, 16-byte accesses
 *     of 8 threads: one full line per 8 threads of a warp) along the contiguous dim of
 *     each side, so TA = TB = 128 / the transposed dtype's bytes (64 for f16/bf16, 32 for
 *     f32); PERMUTE_WARPS warps.
 *  2. p = (batch * nA + ta) * nB + tb (nA = cdiv(A, TA), nB = cdiv(B, TB)); the batch index
 *     is split into the batch dims (scalars), giving the tile's base offset in X and in the
 *     result.
 *  3. Input side: flat tile index k = range(0, TA * TB), row i = k / TB (along A), column
 *     j = k % TB (along B): offsets xbase + (ta*TA + i) * strideX(a) + tb*TB + j, mask
 *     tb*TB + j < (ta*TA + i < A ? B : 0) (one `x < y` whose y is constant over a run: the
 *     load's fast path). The prologue (the transpose's operand, emit.c) is emitted there,
 *     rounded to the transposed dtype.
 *  4. The exchange: `tensor.expand_shape` to [TA, TB], `tile.trans` to [TB, TA] (the
 *     lowering stores the tile to shared memory in rows, barriers and reads it in columns:
 *     conversion/tile-to-gpu/trans.c), `tensor.collapse_shape` back to a flat tile.
 *  5. Output side: k gives result row j = k / TA (along B), column i = k % TA (along A):
 *     offsets ybase + (tb*TB + j) * strideY(q) + ta*TA + i, mask likewise. The exchanged
 *     tile is memoized there as the transpose's value; the group's result (the epilogue) is
 *     emitted at those offsets and stored, rounded once to the output dtype.
 * The launch: batch * nA * nB programs, no size argument (shapes are static).
 */
#include "tile.h"

#include <stdio.h>
#include <stdlib.h>

/* Bytes of a tile side along each side's contiguous dim: 8 threads of 16 bytes, one
 * 128-byte line, so each warp access is 4 full lines on both sides and the shared-memory
 * tile's 128-byte rows make the exchange conflict-free (trans.c). */
#define PERMUTE_SIDE_BYTES 128
/* Warps of a program: 128 threads, each holding TA * TB / 128 elements (32 bytes of f32,
 * 64 of bf16: 2 or 4 16-byte runs in flight per thread). */
#define PERMUTE_WARPS 4

typedef struct {
  MlirOperation tr;
  int64_t rank, perm[TT_MAX_RANK], xs[TT_MAX_RANK], xstride[TT_MAX_RANK],
      ystride[TT_MAX_RANK];
  int64_t a, q;           /* X's dim that becomes the result's last; B's result dim */
  int64_t ta, tb, warps;  /* the tile and the warps */
  int64_t na, nb, batch;  /* tiles along A and B, batch indices */
  MlirType elem;          /* the transposed dtype */
} PermuteGeometry;

/* Step 1. */
static bool permuteGeometry(MlirOperation fusion, MlirBlock body, MlirType outType,
                            int64_t warpsOpt, PermuteGeometry *g) {
  *g = (PermuteGeometry){0};
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!ttPrimIsPermute(op))
      continue;
    if (!mlirOperationIsNull(g->tr)) {
      ttEmitError(op, "tile: a permute fusion holds one transpose that moves the last dim");
      return false;
    }
    g->tr = op;
  }
  if (mlirOperationIsNull(g->tr)) {
    ttEmitError(fusion, "tile: a permute fusion must contain a transpose that moves the last "
                        "dim");
    return false;
  }
  MlirType tt = mlirValueGetType(mlirOperationGetResult(g->tr, 0));
  if (ttTensorNumel(outType) != ttTensorNumel(tt)) {
    ttEmitError(fusion, "tile: a permute fusion's result must have one element per element "
                        "of its transpose (%lld), not %lld",
                (long long)ttTensorNumel(tt), (long long)ttTensorNumel(outType));
    return false;
  }
  g->rank = ttPrimPermutation(g->tr, g->perm);
  ttTensorShape(mlirValueGetType(mlirOperationGetOperand(g->tr, 0)), g->xs);
  for (int64_t d = 0; d < g->rank; d++)
    if (g->xs[d] < 0) {
      ttEmitError(g->tr, "tile: a permute kernel needs static shapes (dim %lld of the "
                         "transpose's operand is dynamic)",
                  (long long)d);
      return false;
    }
  int64_t ys[TT_MAX_RANK];
  for (int64_t d = 0; d < g->rank; d++)
    ys[d] = g->xs[g->perm[d]];
  for (int64_t d = g->rank - 1; d >= 0; d--) {
    g->xstride[d] = d == g->rank - 1 ? 1 : g->xstride[d + 1] * g->xs[d + 1];
    g->ystride[d] = d == g->rank - 1 ? 1 : g->ystride[d + 1] * ys[d + 1];
  }
  g->a = g->perm[g->rank - 1];
  for (int64_t d = 0; d < g->rank; d++)
    if (g->perm[d] == g->rank - 1)
      g->q = d;
  g->elem = ttElementType(tt);
  int bytes = ttDtypeBytes(g->elem);
  g->ta = g->tb = PERMUTE_SIDE_BYTES / (bytes > 0 ? bytes : 4);
  g->warps = warpsOpt ? warpsOpt : PERMUTE_WARPS;
  int64_t vec = 16 / (bytes > 0 ? bytes : 4);
  if (g->ta * g->tb % (32 * g->warps * vec)) {
    ttEmitError(fusion, "tile: a permute tile of %lldx%lld elements does not fit %lld warps "
                        "(give fewer num-warps)",
                (long long)g->ta, (long long)g->tb, (long long)g->warps);
    return false;
  }
  g->na = (g->xs[g->a] + g->ta - 1) / g->ta;
  g->nb = (g->xs[g->rank - 1] + g->tb - 1) / g->tb;
  g->batch = ttTensorNumel(tt) / (g->xs[g->a] * g->xs[g->rank - 1]);
  return true;
}

/* c + k * s for a scalar (or tile) c and a scalar k, skipping what is zero or one. */
static MlirValue addScaled(Emit *e, MlirValue c, MlirValue k, int64_t s, MlirType t) {
  if (s != 1)
    k = tileOp2(e, "arith.muli", k, ttConstInt(&e->b, e->loc, t, s), t);
  return mlirValueIsNull(c) ? k : tileOp2(e, "arith.addi", c, k, t);
}

/* Offsets and mask of one side (steps 3 and 5): flat index k as [rows][cols] with row r =
 * k / cols at r0 + r along a dim of `rowSize` and stride `rowStride`, column c = k % cols
 * at c0 + c along the contiguous dim of `colSize`; base is the batch's offset (null: 0). */
static MlirValue sideOffsets(Emit *e, MlirValue k, int64_t cols, MlirValue base, MlirValue r0,
                             MlirValue c0, int64_t rowSize, int64_t rowStride, int64_t colSize,
                             MlirValue *mask) {
  MlirType i32 = ttI32(e->ctx), it = tileOf(e, i32);
  MlirValue row = tileOp2(e, "arith.addi", tileOp1(e, "tile.splat", r0, it),
                          tileOp2(e, "arith.divui", k, tileSplatI32(e, cols), it), it);
  MlirValue col = tileOp2(e, "arith.addi", tileOp1(e, "tile.splat", c0, it),
                          tileOp2(e, "arith.remui", k, tileSplatI32(e, cols), it), it);
  MlirValue limit = tileSplatI32(e, colSize);
  if (rowSize % cols) { /* (row < rowSize ? colSize : 0): constant along a row */
    MlirValue ops[3] = {tileCmp(e, CMPI_SLT, row, tileSplatI32(e, rowSize)), limit,
                        tileSplatI32(e, 0)};
    limit = ttBuild(&e->b, "arith.select", e->loc, 3, ops, it, 0, NULL);
  }
  *mask = tileCmp(e, CMPI_SLT, col, limit);
  MlirValue offs =
      mlirValueIsNull(base) ? col : tileOp2(e, "arith.addi", tileOp1(e, "tile.splat", base, it), col, it);
  return addScaled(e, offs, row, rowStride, it);
}

/* Step 4: the flat tile x of [rows][cols] transposed (tensor.expand_shape, tile.trans,
 * tensor.collapse_shape). */
static MlirValue exchange(Emit *e, MlirValue x, int64_t rows, int64_t cols, MlirType elem) {
  int64_t in[2] = {rows, cols}, out[2] = {cols, rows}, n = rows * cols;
  MlirNamedAttribute re = ttNamedAttr(e->ctx, "reassociation",
                                      mlirAttributeParseGet(e->ctx, ttStrRef("[[0, 1]]")));
  MlirNamedAttribute attrs[2] = {re, ttNamedAttr(e->ctx, "static_output_shape",
                                                 mlirDenseI64ArrayGet(e->ctx, 2, in))};
  MlirType t2 = mlirRankedTensorTypeGet(2, in, elem, mlirAttributeGetNull());
  MlirValue x2 = ttBuild(&e->b, "tensor.expand_shape", e->loc, 1, &x, t2, 2, attrs);
  MlirValue y2 = tileOp1(e, "tile.trans", x2,
                         mlirRankedTensorTypeGet(2, out, elem, mlirAttributeGetNull()));
  return ttBuild(&e->b, "tensor.collapse_shape", e->loc, 1, &y2,
                 mlirRankedTensorTypeGet(1, &n, elem, mlirAttributeGetNull()), 1, &re);
}

bool tilePermuteFusion(MlirOperation fusion, int64_t warpsOpt) {
  MlirContext ctx = mlirOperationGetContext(fusion);
  MlirLocation loc = mlirOperationGetLocation(fusion);
  MlirBlock fbody;
  MlirType outType;
  PermuteGeometry g;
  if (!tileCheckFusion(fusion, &fbody, &outType) ||
      !permuteGeometry(fusion, fbody, outType, warpsOpt, &g))
    return false;
  if (!mlirTypeIsAFloat(g.elem)) {
    ttEmitError(g.tr, "tile: permute kernels move f32, f16 or bf16 values, not %s",
                ttDtypeName(g.elem));
    return false;
  }
  intptr_t nin = mlirBlockGetNumArguments(fbody);
  MlirOperation ret = mlirBlockGetTerminator(fbody);

  /* Step 2: the kernel, the program's tile and batch offsets. */
  char name[128];
  Emit e;
  MlirOperation kfunc = tileStartKernel(fusion, fbody, false, g.warps, g.ta * g.tb,
                                        &e, name, sizeof name);
  MlirType i32 = ttI32(ctx), it = tileOf(&e, i32);
  MlirNamedAttribute axis = ttNamedAttr(ctx, "axis", ttIntAttr(ctx, 0, i32));
  MlirValue pid = ttBuild(&e.b, "tile.program_id", loc, 0, NULL, i32, 1, &axis);
  MlirValue nb = ttConstInt(&e.b, loc, i32, g.nb), na = ttConstInt(&e.b, loc, i32, g.na);
  MlirValue tb = tileOp2(&e, "arith.remui", pid, nb, i32);
  MlirValue rest = tileOp2(&e, "arith.divui", pid, nb, i32);
  MlirValue ta = tileOp2(&e, "arith.remui", rest, na, i32);
  MlirValue bidx = g.batch > 1 ? tileOp2(&e, "arith.divui", rest, na, i32) : (MlirValue){NULL};
  MlirValue xbase = {NULL}, ybase = {NULL}; /* null: 0 */
  for (int64_t d = g.rank - 2; d >= 0 && g.batch > 1; d--) { /* X's batch dims, last first */
    if (d == g.a || g.xs[d] == 1)
      continue;
    int64_t yd = 0;
    while (g.perm[yd] != d)
      yd++;
    MlirValue size = ttConstInt(&e.b, loc, i32, g.xs[d]);
    MlirValue idx = tileOp2(&e, "arith.remui", bidx, size, i32);
    bidx = tileOp2(&e, "arith.divui", bidx, size, i32);
    xbase = addScaled(&e, xbase, idx, g.xstride[d], i32);
    ybase = addScaled(&e, ybase, idx, g.ystride[yd], i32);
  }
  MlirValue a0 = tileOp2(&e, "arith.muli", ta, ttConstInt(&e.b, loc, i32, g.ta), i32);
  MlirValue b0 = tileOp2(&e, "arith.muli", tb, ttConstInt(&e.b, loc, i32, g.tb), i32);
  MlirNamedAttribute range[2] = {ttNamedAttr(ctx, "start", ttIntAttr(ctx, 0, i32)),
                                 ttNamedAttr(ctx, "end", ttIntAttr(ctx, g.ta * g.tb, i32))};
  MlirValue k = ttBuild(&e.b, "tile.range", loc, 0, NULL, it, 2, range);
  int64_t sa = g.xs[g.a], sb = g.xs[g.rank - 1];

  /* Step 3: the prologue at the input tile. */
  MlirValue inMask, outMask;
  MlirValue inOffs = sideOffsets(&e, k, g.tb, xbase, a0, b0, sa, g.xstride[g.a], sb, &inMask);
  e.offs = inOffs;
  e.mask = inMask;
  MlirValue x = tileEmitValue(&e, mlirOperationGetOperand(g.tr, 0), inOffs);

  /* Steps 4 and 5: the exchange, the epilogue at the output tile and the store. */
  if (!e.failed) {
    MlirType ce = tileComputeType(&e, g.elem), ct = tileOf(&e, ce);
    bool wide = !mlirTypeEqual(ce, g.elem); /* exchanged in the dtype, computed in f32 */
    if (wide)
      x = tileRoundTo(&e, x, g.elem);
    MlirValue y = exchange(&e, x, g.ta, g.tb, g.elem);
    if (wide)
      y = tileOp1(&e, "arith.extf", y, ct);
    MlirValue outOffs =
        sideOffsets(&e, k, g.ta, ybase, b0, a0, sb, g.ystride[g.q], sa, &outMask);
    tileMemoPut(&e, mlirOperationGetResult(g.tr, 0), outOffs, y);
    e.offs = outOffs;
    e.mask = outMask;
    MlirValue v = tileEmitValue(&e, mlirOperationGetOperand(ret, 0), outOffs);
    if (!e.failed) {
      MlirType oelem = ttElementType(outType);
      v = tileRoundTo(&e, v, oelem);
      MlirValue st[4] = {mlirBlockGetArgument(e.kernel, nin), outOffs, v, outMask};
      ttBuild(&e.b, "tile.store", loc, 4, st, ttNoType(), 0, NULL);
    }
  }
  if (!tileFinishKernel(&e, kfunc))
    return false;

  char grid[32];
  snprintf(grid, sizeof grid, "%lld", (long long)(g.batch * g.na * g.nb));
  tileSetLaunch(fusion, name, grid, "1", 0, NULL);
  return true;
}
