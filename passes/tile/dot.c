/* dot.c - --tile's dot kernels.
 *
 * A dot group (`prim.fusion = "dot"`) computes C = A @ B (+ an elementwise epilogue) with
 * A an [M, K] input and B a [K, N] input or the transpose of an [N, K] one (a linear
 * layer's weight, read in place: K contiguous), A possibly a zero pad of its K (a K pad,
 * ttPrimIsKPad: --decompose pads a weight's rows to whole cache lines, and A's pad is
 * read in place, masked at its own row end or by a TMA map of its unpadded rows, whose
 * zero fill is the pad). Program p computes one BM x BN tile of C
 * (BM, BN, BK and the warps from geometry.c):
 *  1. (pid_m, pid_n) from p in the `order` option (ttEmitPidOrder);
 *  2. index tiles of the A and B tiles as flat row-major ranges (row = i / BK, column =
 *     i % BK) with masks for the rows and columns past M and N;
 *  3. `scf.for k0 = 0 to K step BK` carrying the f32 accumulator: load the A and B tiles
 *     at k0 (masked when BK does not divide K), `tensor.expand_shape` them to 2-D, a
 *     `tile.trans` for a [N, K] operand, and `tile.dot` with its `mma` form decided
 *     (ttDotRecordMmaForm: wgmma, its direct form or mma.sync, for the tile's shape);
 *  4. the epilogue: the accumulator (collapsed to the flat C tile) stands for the matmul's
 *     value at the C tile's offsets, and the group's result is emitted from it like an
 *     elementwise group's (bias add, activation, convert), then stored under the C mask.
 * The launch has cdiv(M, BM) * cdiv(N, BN) programs (times B along grid axis 2 for a
 * batched [B, M, K] x [B, K, N] matmul; a dynamic B is dim(a, 0) at run time, and M, N
 * and K stay static). --splitk splits the K loop further.
 * A dynamic M (a 2-D [?, K] A: a decode batch that changes every step) is specialized by
 * buckets of M (kMBuckets, each split where the rules' tile rows change inside it:
 * dotBuckets): the fused function is cloned once per bucket after the first
 * (`tile.variant_of = @<fusion>`, `tile.when = array<i64: lo, hi>`), and each copy is tiled
 * with the geometry of its bucket's largest M, reading the true M from a kernel argument
 * for its masks; its launch carries `when = "dim(%iA,0)"` and `when_range = [lo, hi]`, so
 * the runtime launches the one kernel whose bucket holds M (the metadata's `when`). A
 * bucket's grid is constant where every M of it has the same tile rows (cdiv(hi, BM));
 * otherwise (and for the open last bucket) its tile rows come from M at run time, and the
 * launch records `programs`, the grid at the bucket's M, which --pipeline sizes its stages
 * for as for a static grid (H200, 512 x 28672 x 8192: a symbolic grid counted as one
 * program lost the 4th stage, 398 against 362 us; bench/2026-11-27-h200-dynamic.md).
 */
#include "tile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The buckets of a dynamic M, each tiled as a static M of its `hi` (`rep` for the open
 * last bucket): where geometry.c's rules change their picks with M (16-, 32- and 64-row
 * tiles up to 64 rows: mUpTo16, mUpTo32, mUpTo64; two 64-row tiles or 128-row ones at 128;
 * past that, tiles of many rows whose grid grows with M: powers of two, so a batch runs
 * tiles picked for at most twice its size). Inside a decode bucket a kernel reads the same
 * tiles a static one of that bucket's M does. A bucket whose tile rows vary with M
 * (cdiv(lo, BM) < cdiv(hi, BM)) takes them from M at run time, so no program streams the
 * weight for rows past M. With the option bucket-split (the default), dotBuckets splits
 * each of these once where the rules' tile rows change inside it (below). */
typedef struct {
  int64_t lo, hi, rep; /* hi 0: open */
} MBucket;
static const MBucket kMBuckets[] = {
    {1, 16, 16},     {17, 32, 32},     {33, 64, 64},      {65, 128, 128},
    {129, 256, 256}, {257, 512, 512}, {513, 1024, 1024}, {1025, 0, 4096}};
#define NUM_M_BUCKETS (int)(sizeof kMBuckets / sizeof kMBuckets[0])

/* The buckets of dot d's dynamic M under options o, into out (at most 2 * NUM_M_BUCKETS);
 * returns how many. Each of kMBuckets is kept, or with bucket-split split once: where the
 * rules pick other tile rows (block-m) for some M of it than for its rep, at the largest
 * such M, M', into [lo, M'] (tiled for M') and [M' + 1, hi] (for rep). The case: a
 * 257-512 bucket's 128 x 128 tiles at N = 4100 make cdiv(M, 128) x 33 programs, 99 at
 * M = 300, fewer than the SMs, where the static rules spread 64-row tiles over the SMs
 * (tmaSpread: 260 programs of 64 x 80) up to M = 384: split, M = 257-384 runs the tiles
 * of M = 384 (64 x 96, 5 x 43 programs at M = 300) and 385-512 those of 512. */
static int dotBuckets(const DotOperands *d, const TtPassOptions *o, MBucket *out) {
  int n = 0;
  for (int i = 0; i < NUM_M_BUCKETS; i++) {
    MBucket b = kMBuckets[i];
    int64_t m = b.lo - 1; /* M' (none below lo) */
    if (o->v[TT_TILE_BUCKET_SPLIT]) {
      int64_t rows = tileDotBlockM(d, o, b.rep);
      for (m = b.rep - 1; m >= b.lo && tileDotBlockM(d, o, m) == rows; m--)
        ;
    }
    if (m >= b.lo) {
      out[n++] = (MBucket){b.lo, m, m};
      b.lo = m + 1;
    }
    out[n++] = b;
  }
  return n;
}

/* The input index of block argument v of the fused function, or -1. */
static int inputIndex(MlirBlock fbody, MlirValue v) {
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(fbody); i++)
    if (mlirValueEqual(mlirBlockGetArgument(fbody, i), v))
      return (int)i;
  return -1;
}

static bool findMatmul(MlirOperation op, void *userData) {
  if (ttPrimKind(op) != TT_PRIM_MATMUL)
    return true;
  *(MlirOperation *)userData = op;
  return false;
}

/* Step 1 for a dot group: find and check its matmul's operands. */
static bool dotOperands(MlirOperation fusion, MlirBlock fbody, DotOperands *d) {
  d->matmul = (MlirOperation){NULL};
  ttWalk(fusion, findMatmul, &d->matmul);
  if (mlirOperationIsNull(d->matmul)) {
    ttEmitError(fusion, "tile: a dot group must hold a prim.matmul");
    return false;
  }
  MlirValue a = mlirOperationGetOperand(d->matmul, 0), b = mlirOperationGetOperand(d->matmul, 1);
  int64_t as[TT_MAX_RANK], bs[TT_MAX_RANK], cs[TT_MAX_RANK];
  int64_t r = ttTensorShape(mlirValueGetType(a), as);
  int64_t br = ttTensorShape(mlirValueGetType(b), bs);
  /* dynamic: M of a 2-D a, or the batch of a 3-D one (both operands' leading dim) */
  bool dynBatch = r == 3 && br == 3 && as[0] < 0 && bs[0] < 0 && as[1] >= 0 && as[2] >= 0 &&
                  bs[1] >= 0 && bs[2] >= 0;
  if ((!dynBatch && tileIsDynamic(mlirValueGetType(b))) ||
      (r == 3 && !dynBatch && tileIsDynamic(mlirValueGetType(a))) || (r == 2 && as[1] < 0)) {
    ttEmitError(d->matmul, "tile: a dot kernel takes a dynamic M (the rows of a 2-D [M, K] "
                           "operand a) or a dynamic batch (the leading dim of both 3-D "
                           "operands); the other dims must be static");
    return false;
  }
  if ((r != 2 && r != 3) || br != r ||
      ttTensorShape(mlirValueGetType(mlirOperationGetResult(d->matmul, 0)), cs) != r ||
      (r == 3 && (bs[0] != as[0] || cs[0] != as[0]))) {
    ttEmitError(d->matmul, "tile: dot kernels take 2-D ([M, K] x [K, N]) or batched 3-D "
                           "([B, M, K] x [B, K, N]) matmuls");
    return false;
  }
  d->batch = r == 3 ? as[0] : 1; /* < 0: a dynamic batch (the grid's third axis from it) */
  d->dynBatch = dynBatch;
  d->bT = mlirValueIsAOpResult(b) && ttPrimKind(mlirOpResultGetOwner(b)) == TT_PRIM_TRANSPOSE;
  if (d->bT) { /* read in place: only a swap of the last two dimensions */
    MlirOperation t = mlirOpResultGetOwner(b);
    MlirAttribute perm = ttOpAttr(t, "permutation");
    bool swap = !mlirAttributeIsNull(perm) && mlirDenseArrayGetNumElements(perm) == r;
    for (int64_t i = 0; swap && i < r; i++)
      swap = mlirDenseI64ArrayGetElement(perm, i) == (i < r - 2 ? i : 2 * r - 3 - i);
    if (!swap) {
      ttEmitError(t, "tile: a transposed matmul operand must swap its last two dimensions "
                     "(permutation [1, 0], or [0, 2, 1] batched)");
      return false;
    }
    b = mlirOperationGetOperand(t, 0);
  }
  if (mlirValueIsAOpResult(a) && ttPrimIsKPad(mlirOpResultGetOwner(a)))
    a = mlirOperationGetOperand(mlirOpResultGetOwner(a), 0); /* read in place */
  int64_t ks[TT_MAX_RANK];
  ttTensorShape(mlirValueGetType(a), ks);
  d->ka = ks[r - 1];
  if (r == 3) { /* the matrices of one batch */
    memmove(as, as + 1, 2 * sizeof *as);
    memmove(bs, bs + 1, 2 * sizeof *bs);
  }
  d->a = inputIndex(fbody, a);
  d->b = inputIndex(fbody, b);
  if (d->a < 0 || d->b < 0) {
    ttEmitError(d->matmul, "tile: the operands of a matmul must be inputs of its group (or "
                           "the transpose of one); a may also be a pad by 0 at the end of its "
                           "last dim alone");
    return false;
  }
  d->m = as[0];
  d->dynM = d->m < 0;
  d->mHi = 0;
  d->k = as[1];
  d->n = bs[1];
  d->elem = ttElementType(mlirValueGetType(a));
  MlirType belem = d->belem = ttElementType(mlirValueGetType(b));
  bool fp8 = ttTypeIsFp8(d->elem) && ttTypeIsFp8(belem);
  if (!fp8 && (!ttTypeIsHalf(d->elem) || !mlirTypeEqual(d->elem, belem))) {
    ttEmitError(d->matmul, "tile: matmul operands must both be f16, both bf16 or both fp8 "
                           "(f8E4M3FN or f8E5M2) (got %s and %s)",
                ttDtypeName(d->elem), ttDtypeName(belem));
    return false;
  }
  return true;
}

/* A tile type of the given shape. */
static MlirType tileShaped(int rank, const int64_t *shape, MlirType elem) {
  return mlirRankedTensorTypeGet(rank, shape, elem, mlirAttributeGetNull());
}

/* i32 tile `v op c` for a constant c (a splat of the tile's type). */
static MlirValue withConst(Emit *e, const char *name, MlirValue v, int64_t c) {
  MlirType t = mlirValueGetType(v);
  return tileOp2(e, name, v, ttConstInt(&e->b, e->loc, t, c), t);
}

static MlirValue splatOf(Emit *e, MlirValue scalar, MlirType t) {
  return tileOp1(e, "tile.splat", scalar, t);
}

/* `row < bound` for an i32 tile (bound a constant), or null when bound >= the limit the
 * tile can reach (no mask needed). */
static MlirValue lessThan(Emit *e, MlirValue v, int64_t bound, bool needed) {
  if (!needed)
    return (MlirValue){NULL};
  return tileCmp(e, CMPI_SLT, v, ttConstInt(&e->b, e->loc, mlirValueGetType(v), bound));
}

/* The and of two masks either of which may be null; an all-true mask when both are. */
static MlirValue andMask(Emit *e, MlirValue x, MlirValue y, int64_t n) {
  if (mlirValueIsNull(x) && mlirValueIsNull(y)) {
    MlirType t = tileShaped(1, &n, mlirIntegerTypeGet(e->ctx, 1));
    return ttConstInt(&e->b, e->loc, t, 1);
  }
  if (mlirValueIsNull(x) || mlirValueIsNull(y))
    return mlirValueIsNull(x) ? y : x;
  return tileOp2(e, "arith.andi", x, y, mlirValueGetType(x));
}

/* One operand tile's index space: a `rows` x `cols` tile, K along its columns (A, and a
 * transposed B) or along its rows (B); the other coordinate is `base` plus the row (or
 * column) index, below `limit` (masked unless `inBounds`: a clamped last tile row's
 * rows all are). Element (x, k) is at x * xStride + k * kStride. */
typedef struct {
  MlirValue offs; /* at k0 = 0 */
  MlirValue mask; /* x < limit, or null when every x is */
  MlirValue kIdx; /* the K index of each element (within the step) */
  int64_t kStride;
} OperandSpace;

static OperandSpace operandSpace(Emit *e, int64_t rows, int64_t cols, bool kAlongCols,
                                 MlirValue base, int64_t limit, bool inBounds,
                                 MlirValue dynLimit, int64_t xStride, int64_t kStride) {
  MlirType i32 = ttI32(e->ctx);
  int64_t n = rows * cols;
  MlirType it = tileShaped(1, &n, i32);
  MlirNamedAttribute range[2] = {ttNamedAttr(e->ctx, "start", ttIntAttr(e->ctx, 0, i32)),
                                 ttNamedAttr(e->ctx, "end", ttIntAttr(e->ctx, n, i32))};
  MlirValue i = ttBuild(&e->b, "tile.range", e->loc, 0, NULL, it, 2, range);
  MlirValue r = withConst(e, "arith.divui", i, cols), c = withConst(e, "arith.remui", i, cols);
  MlirValue x = tileOp2(e, "arith.addi", splatOf(e, base, it), kAlongCols ? r : c, it);
  OperandSpace s;
  s.kIdx = kAlongCols ? c : r;
  s.kStride = kStride;
  s.mask = mlirValueIsNull(dynLimit) /* a dynamic M: below the M argument */
               ? lessThan(e, x, limit, !inBounds && limit % (kAlongCols ? rows : cols) != 0)
               : tileCmp(e, CMPI_SLT, x, splatOf(e, dynLimit, it));
  s.offs = tileOp2(e, "arith.addi", withConst(e, "arith.muli", x, xStride),
                   kStride == 1 ? s.kIdx : withConst(e, "arith.muli", s.kIdx, kStride), it);
  return s;
}

/* Step 3 for one operand: its tile at k0, loaded, as a 2-D tile of `shape`. */
static MlirValue loadOperand(Emit *e, OperandSpace *s, int arg, MlirValue k0, int64_t kLimit,
                             bool kMask, const int64_t shape[2], MlirType elem) {
  MlirType i32 = ttI32(e->ctx);
  MlirType it = mlirValueGetType(s->offs);
  int64_t n = shape[0] * shape[1];
  MlirValue shift = k0;
  if (s->kStride != 1)
    shift = tileOp2(e, "arith.muli", k0, ttConstInt(&e->b, e->loc, i32, s->kStride), i32);
  MlirValue offs = tileOp2(e, "arith.addi", s->offs, splatOf(e, shift, it), it);
  MlirValue km = {NULL};
  if (kMask)
    km = lessThan(e, tileOp2(e, "arith.addi", s->kIdx, splatOf(e, k0, it), it), kLimit, true);
  MlirValue mask = andMask(e, s->mask, km, n);
  MlirType flat = tileShaped(1, &n, elem);
  MlirValue ops[4] = {mlirBlockGetArgument(e->kernel, arg), offs, mask,
                      ttConstSplat(&e->b, e->loc, flat, 0.0)};
  MlirValue x = ttBuild(&e->b, "tile.load", e->loc, 4, ops, flat, 0, NULL);
  MlirNamedAttribute attrs[2] = {
      ttNamedAttr(e->ctx, "reassociation", mlirAttributeParseGet(e->ctx, ttStrRef("[[0, 1]]"))),
      ttNamedAttr(e->ctx, "static_output_shape", mlirDenseI64ArrayGet(e->ctx, 2, shape)),
  };
  return ttBuild(&e->b, "tensor.expand_shape", e->loc, 1, &x, tileShaped(2, shape, elem), 2,
                 attrs);
}

/* Marks the tile.load under operand tile x (a tensor.expand_shape of it) as a box of a
 * row-major dims[0] x dims[1] matrix: `tile.box = array<i64: D0, D1>` (its offsets[0] is
 * the box's first element), or with rank 3 of dims[0] such matrices of dims[1] x dims[2]
 * one after another, the box within one. Codegen ignores it; --pipeline stage-in=tma
 * reads it. */
static void boxOf(Emit *e, MlirValue x, const int64_t *dims, intptr_t rank) {
  MlirOperation load = mlirOpResultGetOwner(mlirOperationGetOperand(mlirOpResultGetOwner(x), 0));
  mlirOperationSetAttributeByName(load, ttStrRef("tile.box"),
                                  mlirDenseI64ArrayGet(e->ctx, rank, dims));
}

/* Marks the tile.load under operand tile x `tile.carry`: A read in place past its K pad
 * (--fuse k-pad=in-place) with rows no TMA map strides; --pipeline's mixed form may carry
 * it in registers beside the other operand's TMA ring, and carries no other load. */
static void carryOf(Emit *e, MlirValue x) {
  MlirOperation load = mlirOpResultGetOwner(mlirOperationGetOperand(mlirOpResultGetOwner(x), 0));
  mlirOperationSetAttributeByName(load, ttStrRef("tile.carry"), mlirUnitAttrGet(e->ctx));
}

/* offs + splat(pidB * stride): an index space moved to batch pidB. */
static MlirValue batchOffset(Emit *e, MlirValue offs, MlirValue pidB, int64_t stride) {
  MlirType i32 = ttI32(e->ctx), t = mlirValueGetType(offs);
  MlirValue base = tileOp2(e, "arith.muli", pidB, ttConstInt(&e->b, e->loc, i32, stride), i32);
  return tileOp2(e, "arith.addi", offs, splatOf(e, base, t), t);
}

/* The K offset that step k of `loop` (from lb to ub by bk) reads under k-stagger S: tile
 * column n takes step i = (k - lb) / bk of its loop as step (i + n * S) mod steps, steps =
 * cdiv(ub - lb, bk). The bounds are read from the loop's operands, which --splitk moves
 * to each slice (ttReplaceUsesWithin), so each slice wraps around within itself. */
static MlirValue staggerK(Emit *e, MlirOperation loop, MlirValue k, MlirValue pidN, int64_t s,
                          int64_t bk) {
  MlirType i32 = ttI32(e->ctx);
  MlirValue lb = mlirOperationGetOperand(loop, 0), ub = mlirOperationGetOperand(loop, 1);
  MlirValue steps = withConst(e, "arith.ceildivsi", tileOp2(e, "arith.subi", ub, lb, i32), bk);
  steps = withConst(e, "arith.maxsi", steps, 1); /* an empty split-K slice (never runs) */
  MlirValue i = withConst(e, "arith.divsi", tileOp2(e, "arith.subi", k, lb, i32), bk);
  MlirValue rot = tileOp2(e, "arith.remsi", withConst(e, "arith.muli", pidN, s), steps, i32);
  MlirValue j = tileOp2(e, "arith.remsi", tileOp2(e, "arith.addi", i, rot, i32), steps, i32);
  return tileOp2(e, "arith.addi", lb, withConst(e, "arith.muli", j, bk), i32);
}

/* Steps 2-4 for a dot group (step 1, the operands, is done). */
static bool tileDot(MlirOperation fusion, MlirBlock fbody, const DotOperands *d,
                    const DotGeometry *g) {
  MlirContext ctx = mlirOperationGetContext(fusion);
  MlirLocation loc = mlirOperationGetLocation(fusion);
  intptr_t nin = mlirBlockGetNumArguments(fbody);
  MlirOperation ret = mlirBlockGetTerminator(fbody);
  MlirType outType = mlirValueGetType(mlirOperationGetOperand(ret, 0));
  MlirType i32 = ttI32(ctx), f32 = mlirF32TypeGet(ctx);
  char name[128];
  Emit e;
  MlirOperation kfunc =
      tileStartKernel(fusion, fbody, d->dynM, g->warps, g->bm * g->bn, &e, name,
                      sizeof name);
  MlirBlock kbody = e.kernel;
  MlirValue mArg = d->dynM ? mlirBlockGetArgument(kbody, nin + 1) : (MlirValue){NULL};

  /* Step 1: the output tile of this program (a dynamic M's open bucket: cdiv(M, BM) tile
   * rows at run time). */
  int64_t gm = (d->m + g->bm - 1) / g->bm, gn = (d->n + g->bn - 1) / g->bn;
  MlirNamedAttribute axis = ttNamedAttr(ctx, "axis", ttIntAttr(ctx, 0, i32));
  MlirValue pid = ttBuild(&e.b, "tile.program_id", loc, 0, NULL, i32, 1, &axis);
  MlirValue pidM, pidN, gmValue = {NULL};
  bool runtimeRows = d->dynM && (d->mHi == 0 || (d->mLo + g->bm - 1) / g->bm != gm);
  if (runtimeRows)
    gmValue = withConst(&e, "arith.ceildivsi", mArg, g->bm);
  ttEmitPidOrderDyn(&e.b, loc, pid, gmValue, gm, gn, (TtPidOrder)g->order, g->group, &pidM,
                    &pidN);
  MlirValue m0 = tileOp2(&e, "arith.muli", pidM, ttConstInt(&e.b, loc, i32, g->bm), i32);
  MlirValue n0 = tileOp2(&e, "arith.muli", pidN, ttConstInt(&e.b, loc, i32, g->bn), i32);
  /* The rows the tile reads and computes start at r0: m0, or with clamp-rows, where M
   * leaves a partial last tile row, min(m0, max(M - BM, 0)) - the last tile row ends at
   * M, its first rows (the row before's) masked at the store (step 4). */
  bool clamp = g->clampRows && (d->dynM || (d->m > g->bm && d->m % g->bm != 0));
  MlirValue r0 = m0;
  if (clamp) {
    MlirValue last = d->dynM ? withConst(&e, "arith.maxsi", withConst(&e, "arith.subi", mArg, g->bm), 0)
                             : ttConstInt(&e.b, loc, i32, d->m - g->bm);
    r0 = tileOp2(&e, "arith.minsi", m0, last, i32);
  }

  /* Step 2: the operand tiles' index spaces (batched: batch pid_b = program id 2 starts
   * at pid_b * M * K in A, pid_b * K * N in B and pid_b * M * N in C). */
  MlirValue none = {NULL};
  OperandSpace sa = operandSpace(&e, g->bm, g->bk, true, r0, d->m, clamp, mArg, d->ka, 1);
  OperandSpace sb = d->bT ? operandSpace(&e, g->bn, g->bk, true, n0, d->n, false, none, d->k, 1)
                          : operandSpace(&e, g->bk, g->bn, false, n0, d->n, false, none, 1, d->n);
  MlirValue pidB = {NULL};
  if (d->batch != 1) {
    MlirNamedAttribute z = ttNamedAttr(ctx, "axis", ttIntAttr(ctx, 2, i32));
    pidB = ttBuild(&e.b, "tile.program_id", loc, 0, NULL, i32, 1, &z);
    sa.offs = batchOffset(&e, sa.offs, pidB, d->m * d->ka);
    sb.offs = batchOffset(&e, sb.offs, pidB, d->k * d->n);
  }

  /* Step 3: the K loop. */
  int64_t cshape[2] = {g->bm, g->bn};
  MlirValue acc0 = ttConstSplat(&e.b, loc, tileShaped(2, cshape, f32), 0.0);
  MlirOperation loop = ttBuildFor(&e.b, loc, ttConstInt(&e.b, loc, i32, 0),
                                  ttConstInt(&e.b, loc, i32, d->k),
                                  ttConstInt(&e.b, loc, i32, g->bk), 1, &acc0);
  TtBuilder outer = e.b;
  MlirBlock lb = ttForBody(loop);
  e.b = ttBuilderAtEnd(lb);
  MlirValue k0 = mlirBlockGetArgument(lb, 0);
  if (g->stagger)
    k0 = staggerK(&e, loop, k0, pidN, g->stagger, g->bk);
  bool kMask = d->k % g->bk != 0;
  int64_t ashape[2] = {g->bm, g->bk}, bshape[2] = {g->bn, g->bk}, kshape[2] = {g->bk, g->bn};
  MlirValue a = loadOperand(&e, &sa, d->a, k0, d->ka, kMask || d->ka < d->k, ashape, d->elem);
  MlirValue b = loadOperand(&e, &sb, d->b, k0, d->k, kMask, d->bT ? bshape : kshape, d->belem);
  /* The matrices the tiles are boxes of (for --pipeline stage-in=tma). Batched, each
   * operand is viewed as the 2-D matrix of its batches' rows stacked ([B * M, K], and
   * [B * N, K] or [B * K, N]); batch pid_b's tile then starts at the same element the
   * index space does. Rows of a tile past M (or N) read the next batch's rows, which only
   * reach rows (columns) of C the store masks; K past its end reads zeros except in a
   * [B * K, N] view, where it would read the next batch's rows: where the K step does not
   * divide K that operand is a batched box instead, [B, K, N] (a rank-3 map: a box past
   * row K reads zeros). */
  if (g->boxes) {
    int64_t bt = d->batch, adims[2] = {d->dynM ? -1 : bt * d->m, d->ka}, /* -1: M at run time */
        bdims[3] = {bt * (d->bT ? d->n : d->k), d->bT ? d->k : d->n};
    boxOf(&e, a, adims, 2);
    if (d->ka < d->k && d->ka * ttDtypeBytes(d->elem) % 16) /* a K pad TMA cannot stride */
      carryOf(&e, a);
    if (bt != 1 && !d->bT && kMask) {
      int64_t b3[3] = {bt, d->k, d->n};
      boxOf(&e, b, b3, 3);
    } else {
      boxOf(&e, b, bdims, 2);
    }
  }
  if (d->bT)
    b = tileOp1(&e, "tile.trans", b, tileShaped(2, kshape, d->belem));
  MlirValue dops[3] = {a, b, mlirBlockGetArgument(lb, 1)};
  MlirValue acc = ttBuild(&e.b, "tile.dot", mlirOperationGetLocation(d->matmul), 3, dops,
                          tileShaped(2, cshape, f32), 0, NULL); /* at the prim.matmul */
  ttDotRecordMmaForm(mlirOpResultGetOwner(acc), g->warps); /* its tensor-core form */
  ttBuild(&e.b, "scf.yield", loc, 1, &acc, ttNoType(), 0, NULL);
  e.b = outer;

  /* Step 4: the epilogue over the flat C tile. */
  int64_t nc = g->bm * g->bn;
  MlirNamedAttribute re =
      ttNamedAttr(ctx, "reassociation", mlirAttributeParseGet(ctx, ttStrRef("[[0, 1]]")));
  MlirValue accFlat = ttBuild(&e.b, "tensor.collapse_shape", loc, 1,
                              (MlirValue[]){mlirOperationGetResult(loop, 0)},
                              tileShaped(1, &nc, f32), 1, &re);
  MlirType it = tileOf(&e, i32);
  MlirNamedAttribute range[2] = {ttNamedAttr(ctx, "start", ttIntAttr(ctx, 0, i32)),
                                 ttNamedAttr(ctx, "end", ttIntAttr(ctx, nc, i32))};
  MlirValue ic = ttBuild(&e.b, "tile.range", loc, 0, NULL, it, 2, range);
  MlirValue cm = tileOp2(&e, "arith.addi", splatOf(&e, r0, it),
                         withConst(&e, "arith.divui", ic, g->bn), it);
  MlirValue cn = tileOp2(&e, "arith.addi", splatOf(&e, n0, it),
                         withConst(&e, "arith.remui", ic, g->bn), it);
  e.offs = tileOp2(&e, "arith.addi", withConst(&e, "arith.muli", cm, d->n), cn, it);
  if (d->batch != 1)
    e.offs = batchOffset(&e, e.offs, pidB, d->m * d->n);
  MlirValue colMask = lessThan(&e, cn, d->n, d->n % g->bn != 0); /* made first, as before */
  MlirValue rowMask = d->dynM ? tileCmp(&e, CMPI_SLT, cm, splatOf(&e, mArg, it))
                              : lessThan(&e, cm, d->m, d->m % g->bm != 0 && !clamp);
  if (clamp) /* a clamped tile's rows before its own (the tile row before computes them) */
    rowMask = andMask(&e, rowMask, tileCmp(&e, CMPI_SGE, cm, splatOf(&e, m0, it)), nc);
  e.mask = andMask(&e, rowMask, colMask, nc);
  tileMemoPut(&e, mlirOperationGetResult(d->matmul, 0), e.offs, accFlat);
  MlirValue v = tileEmitValue(&e, mlirOperationGetOperand(ret, 0), e.offs);
  bool ok = !e.failed;
  if (ok) {
    MlirType oelem = ttElementType(outType);
    v = tileRoundTo(&e, v, oelem);
    MlirValue st[4] = {mlirBlockGetArgument(kbody, nin), e.offs, v, e.mask};
    ttBuild(&e.b, "tile.store", loc, 4, st, ttNoType(), 0, NULL);
    ttBuild(&e.b, "func.return", loc, 0, NULL, ttNoType(), 0, NULL);
  }
  tileMemoFree(&e);
  free(e.inputs);
  if (!ok) {
    mlirOperationDestroy(kfunc);
    return false;
  }
  tileEraseDeadWidens(kbody);
  /* What was decided, for the reader and for tt-tune: the geometry, the tuning cache's
   * key, and the entry's options where one was used (--splitk and --pipeline read its
   * split-k, reduce and num-stages there). */
  char geo[192];
  int len = snprintf(geo, sizeof geo,
                     "block-m=%lld block-n=%lld block-k=%lld num-warps=%lld k-stagger=%lld",
                     (long long)g->bm, (long long)g->bn, (long long)g->bk, (long long)g->warps,
                     (long long)g->stagger);
  if (g->multicast > 1) { /* --pipeline's TMA form reads it (tile.multicast) */
    snprintf(geo + len, sizeof geo - (size_t)len, " multicast=%lld", (long long)g->multicast);
    mlirOperationSetAttributeByName(kfunc, ttStrRef("tile.multicast"),
                                    ttIntAttr(ctx, g->multicast, i32));
    if (g->multicastOperand == 1) /* B's tile (A's when absent) */
      mlirOperationSetAttributeByName(kfunc, ttStrRef("tile.multicast_operand"),
                                      ttIntAttr(ctx, 1, i32));
  }
  mlirOperationSetAttributeByName(kfunc, ttStrRef("tile.geometry"), ttStrAttr(ctx, geo));
  mlirOperationSetAttributeByName(kfunc, ttStrRef("tile.tune_key"), ttStrAttr(ctx, g->tuneKey));
  if (g->tuned)
    mlirOperationSetAttributeByName(kfunc, ttStrRef("tile.tuned"), ttStrAttr(ctx, g->tuned));
  char grid[64], gridZ[32], mExpr[32];
  snprintf(mExpr, sizeof mExpr, "dim(%%i%d,0)", d->a);
  if (runtimeRows)
    snprintf(grid, sizeof grid, "cdiv(%s,%lld)*%lld", mExpr, (long long)g->bm, (long long)gn);
  else
    snprintf(grid, sizeof grid, "%lld", (long long)(gm * gn));
  snprintf(gridZ, sizeof gridZ, "%lld", (long long)d->batch);
  const char *args[1] = {mExpr}; /* (a dynamic batch: dim(a, 0) too) */
  tileSetLaunch(fusion, name, grid, d->dynBatch ? mExpr : gridZ, d->dynM ? 1 : 0, args);
  if (d->dynM) { /* the bucket this kernel runs: `when` at the launch */
    MlirAttribute w = ttOpAttr(fusion, "tile.when");
    int64_t bucket[2] = {mlirDenseI64ArrayGetElement(w, 0), mlirDenseI64ArrayGetElement(w, 1)};
    ttLaunchSet(fusion, "when", ttStrAttr(ctx, mExpr));
    ttLaunchSet(fusion, "when_range", mlirDenseI64ArrayGet(ctx, 2, bucket));
  }
  if (runtimeRows) /* the programs the geometry was sized for (--pipeline reads them) */
    ttLaunchSet(fusion, "programs", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), gm * gn));
  return true;
}

/* A dynamic M: the bucket of fusion (its `tile.when`; the first of dotBuckets, after
 * cloning the fusion once for every other bucket, when it has none yet); sets d->m to the
 * bucket's geometry size and d->mLo, d->mHi. A `tile.when` must lie inside one of
 * kMBuckets (whatever the options that split them). */
static bool dynamicBucket(MlirOperation fusion, DotOperands *d, const TtPassOptions *o) {
  MlirContext ctx = mlirOperationGetContext(fusion);
  MlirAttribute w = ttOpAttr(fusion, "tile.when");
  if (mlirAttributeIsNull(w)) {
    MBucket buckets[2 * NUM_M_BUCKETS];
    int n = dotBuckets(d, o, buckets);
    char name[128] = "";
    ttOpAttrStr(fusion, "sym_name", name, sizeof name);
    MlirAttribute self = mlirFlatSymbolRefAttrGet(ctx, ttStrRef(name));
    MlirOperation after = fusion;
    for (int i = 1; i < n; i++) {
      MlirOperation c = mlirOperationClone(fusion);
      char cname[160];
      if (buckets[i].hi)
        snprintf(cname, sizeof cname, "%s_m%lld", name, (long long)buckets[i].hi);
      else
        snprintf(cname, sizeof cname, "%s_m%lldup", name, (long long)buckets[i].lo);
      int64_t range[2] = {buckets[i].lo, buckets[i].hi};
      mlirOperationSetAttributeByName(c, ttStrRef("sym_name"), ttStrAttr(ctx, cname));
      mlirOperationSetAttributeByName(c, ttStrRef("tile.variant_of"), self);
      mlirOperationSetAttributeByName(c, ttStrRef("tile.when"),
                                      mlirDenseI64ArrayGet(ctx, 2, range));
      mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(fusion), after, c);
      after = c;
    }
    int64_t range[2] = {buckets[0].lo, buckets[0].hi};
    w = mlirDenseI64ArrayGet(ctx, 2, range);
    mlirOperationSetAttributeByName(fusion, ttStrRef("tile.when"), w);
  }
  if (!mlirAttributeIsADenseI64Array(w) || mlirDenseArrayGetNumElements(w) != 2) {
    ttEmitError(fusion, "tile: tile.when must be array<i64: lo, hi> (a bucket of M)");
    return false;
  }
  int64_t lo = mlirDenseI64ArrayGetElement(w, 0), hi = mlirDenseI64ArrayGetElement(w, 1);
  for (int i = 0; i < NUM_M_BUCKETS; i++) {
    MBucket b = kMBuckets[i];
    bool inside = lo >= b.lo && (b.hi ? lo <= hi && hi <= b.hi : hi == 0 || lo <= hi);
    if (inside) {
      d->m = hi ? hi : b.rep;
      d->mLo = lo;
      d->mHi = hi;
      return true;
    }
  }
  ttEmitError(fusion, "tile: tile.when [%lld, %lld] is not a bucket of M (inside one of 1-16, "
                      "17-32, ..., 513-1024, 1025 on)",
              (long long)lo, (long long)hi);
  return false;
}

bool ttTileDotFusion(MlirOperation fusion, const TtPassOptions *opts) {
  MlirBlock fbody;
  MlirType outType;
  DotOperands d;
  DotGeometry g;
  return tileFusionBody(fusion, &fbody, &outType) &&
         tileCheckDtype(fusion, outType, "the result", false) && dotOperands(fusion, fbody, &d) &&
         (!d.dynM || dynamicBucket(fusion, &d, opts)) && tileDotGeometry(fusion, &d, opts, &g) &&
         tileDot(fusion, fbody, &d, &g);
}
