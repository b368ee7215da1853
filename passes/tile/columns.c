/* columns.c - --tile's column kernels (`prim.fusion = "column"`): a reduction over one
 * contiguous run of dims that ends before the last one, with its elementwise prologue and
 * epilogue.
 *
 * The reduction's operand is viewed as [outer, R, inner] (R: the product of the reduced
 * dims, inner: of the dims after them, > 1 or trailing 1s); its result is [outer, inner].
 * Program p computes a block of B columns of one outer index:
 *  1. Geometry (columnGeometry): B, warps and U, the rows each loop step reads (4, or 16
 *     on a grid of fewer than two programs per SM).
 *  2. o = p / nblk, c0 = (p % nblk) * B (nblk = cdiv(inner, B)); cols = c0 + range(0, B),
 *     mask = cols < inner: the same for every row, so every load is B adjacent elements
 *     (16-byte runs per thread, coalesced across the warp) and no lane depends on R.
 *  3. A loop over the R rows, U rows a step, carrying one accumulator tile of B f32 (the
 *     compute type: f16/bf16 accumulate in f32, as the row kernels do): row r's value is
 *     the prologue emitted at offsets o*R*inner + r*inner + cols (emit.c: inputs are
 *     loads there, broadcasts map the offsets), masked lanes replaced by the combiner's
 *     identity, combined into the accumulator. The U rows of a step are U independent
 *     loads in flight per thread; R % U leftover rows take a second loop of one row a step
 *     (so no row mask is needed and the mask stays `cols < inner`, whose fast path is one
 *     lane's compare).
 *  4. The accumulator stands for the reduced value (memoized at no offsets); the group's
 *     result (the epilogue) is emitted at o*inner + cols and stored under the mask,
 *     rounded once to the output dtype. Loads go first in each loop body and in the kernel.
 * The launch: outer * nblk programs, no size argument for static shapes.
 * A dynamic leading dim (the operand [?, ...], only dim 0 dynamic): where the reduced run
 * starts at dim 0, R is known at run time only: the kernel takes it as a size argument
 * (dim(%iK,0) times the run's static dims, K an input with the dynamic dim), the main
 * loop ends at R - R % U and the one-row loop runs to R (outer is 1, so the programs'
 * base offset is 0); otherwise outer is dynamic: the grid is cdiv(numel(%r0), inner) *
 * nblk programs and nothing else changes (R, inner and the block are static).
 */
#include "tile.h"

#include <stdio.h>
#include <stdlib.h>

/* Rows one loop step reads (independent loads in flight per thread and input): 4 when
 * the grid has at least two programs per SM; 16 on a smaller grid, whose few programs must
 * each keep more loads in flight (the second level of a split sum, [128, 8192] f32 on 64
 * programs: 18.7 us with 4, H100). */
#define COLUMN_UNROLL 4
#define COLUMN_UNROLL_FEW 16
/* Warps of a full-width program: 128 threads of 16-byte runs (512 f32, 1024 bf16
 * columns) per row. */
#define COLUMN_WARPS 4

typedef struct {
  MlirOperation red;
  int64_t outer, rows, inner; /* the operand as [outer, R, inner]; a dynamic part: its
                                 static dims' product (the leading dim counted as 1) */
  bool dynOuter, dynRows;     /* the leading dim is dynamic, and in outer or in R */
  int64_t block, warps, unroll, nblk;
} ColumnGeometry;

/* Step 1. Each thread reads one 16-byte run of a row (VEC = 16 / the narrowest element
 * the kernel loads or stores), so a program of w warps covers 32 * w * VEC columns: 4
 * warps by default, fewer (halving the block with them) while the grid, outer *
 * cdiv(inner, B) programs, is under two per SM (ttTargetDefault()'s SMs), and a block no
 * wider than inner's next power of two (at least 32: one warp). A narrow grid that is
 * still small (few columns, one outer index: an 8192-column sum makes 32 programs of one
 * warp) reads at a fraction of the bandwidth; splitting R over more programs would need a
 * second pass (or --decompose's split of R, see decompose.c) and is not needed for
 * correctness. The block-size and num-warps options override B and the warps. */
static bool columnGeometry(MlirOperation fusion, MlirBlock body, MlirType outType,
                           int64_t blockOpt, int64_t warpsOpt, ColumnGeometry *g) {
  *g = (ColumnGeometry){0};
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (ttPrimKind(op) == TT_PRIM_REDUCTION && !mlirOperationIsNull(g->red)) {
      ttEmitError(op, "tile: a column fusion holds one reduction");
      return false;
    }
    if (ttPrimIsColumnReduction(op))
      g->red = op;
  }
  int64_t first = 0, last = 0;
  if (mlirOperationIsNull(g->red) ||
      !ttPrimReductionRun(g->red, &g->outer, &g->rows, &g->inner, &first, &last)) {
    ttEmitError(fusion, "tile: a column fusion must contain a reduction over a run of dims "
                        "before the last");
    return false;
  }
  /* (tileCheckFusion has checked that only a leading dim is dynamic) */
  int64_t shape[TT_MAX_RANK];
  int64_t rank = ttTensorShape(mlirValueGetType(mlirOperationGetOperand(g->red, 0)), shape);
  if (rank > 0 && shape[0] < 0) { /* the dynamic part keeps the product of its static dims */
    g->dynRows = first == 0;
    g->dynOuter = !g->dynRows;
    int64_t f = 1;
    for (int64_t d = 1; d <= (g->dynRows ? last : first - 1); d++)
      f *= shape[d];
    *(g->dynRows ? &g->rows : &g->outer) = f;
  }
  if (g->dynOuter && /* one element per reduced column: the reduction's own shape */
      !ttSameShape(outType, mlirValueGetType(mlirOperationGetResult(g->red, 0)))) {
    ttEmitError(fusion, "tile: a column fusion over a dynamic dimension must return the "
                        "reduction's shape");
    return false;
  }
  if (!g->dynOuter && ttTensorNumel(outType) != g->outer * g->inner) {
    ttEmitError(fusion, "tile: a column fusion's result must have one element per reduced "
                        "column (%lld), not %lld",
                (long long)(g->outer * g->inner), (long long)ttTensorNumel(outType));
    return false;
  }
  int minBytes = ttDtypeBytes(ttElementType(outType));
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); i++) {
    int b = ttDtypeBytes(ttElementType(mlirValueGetType(mlirBlockGetArgument(body, i))));
    minBytes = b > 0 && b < minBytes ? b : minBytes;
  }
  int64_t vec = 16 / (minBytes > 0 ? minBytes : 4), fit = 32;
  while (fit < g->inner)
    fit *= 2;
  g->warps = warpsOpt ? warpsOpt : COLUMN_WARPS;
  g->block = blockOpt ? blockOpt : 32 * g->warps * vec;
  if (!blockOpt) {
    while (g->block > fit && g->block > 32) {
      g->block /= 2;
      if (!warpsOpt && g->block < 32 * g->warps * vec && g->warps > 1)
        g->warps /= 2;
    }
    int64_t sms = ttTargetDefault()->numSms;
    while (g->outer * ((g->inner + g->block - 1) / g->block) < 2 * sms &&
           g->block / 2 >= 32 * vec && (warpsOpt ? g->block / 2 >= 32 * g->warps : g->warps > 1)) {
      g->block /= 2;
      if (!warpsOpt)
        g->warps /= 2;
    }
  }
  if (g->block < 32 * g->warps) {
    ttEmitError(fusion, "tile: a block of %lld elements is smaller than 32 * num-warps (%lld "
                        "threads); give a larger block-size or fewer num-warps",
                (long long)g->block, (long long)(32 * g->warps));
    return false;
  }
  g->nblk = (g->inner + g->block - 1) / g->block;
  g->unroll = g->outer * g->nblk < 2 * ttTargetDefault()->numSms ? COLUMN_UNROLL_FEW
                                                                  : COLUMN_UNROLL;
  if (!g->dynRows) /* (a dynamic R may be any length: the main loop ends at R - R % U) */
    g->unroll = g->rows < g->unroll ? g->rows : g->unroll;
  return true;
}

/* Step 3: one loop over rows [lb, ub) (i32 values) by `unroll` rows a step, carrying acc
 * (the builder stays before the loop); returns the loop's result. */
static MlirValue rowLoop(Emit *e, const ColumnGeometry *g, MlirValue obase, MlirValue cols,
                         MlirValue lb, MlirValue ub, int64_t unroll, MlirValue acc) {
  MlirType i32 = ttI32(e->ctx), it = tileOf(e, i32);
  MlirValue b[3] = {lb, ub, ttConstInt(&e->b, e->loc, i32, unroll)};
  MlirOperation loop = ttBuildFor(&e->b, e->loc, b[0], b[1], b[2], 1, &acc);
  MlirBlock body = ttForBody(loop);
  TtBuilder outer = e->b;
  e->b = ttBuilderAtEnd(body);
  int saved = e->nmemo;
  MlirValue a = mlirBlockGetArgument(body, 1), r = mlirBlockGetArgument(body, 0);
  Combiner c = tileCombinerOf(g->red);
  MlirType ct = mlirValueGetType(acc);
  for (int64_t u = 0; u < unroll && !e->failed; u++) {
    MlirValue row = u ? tileOp2(e, "arith.addi", r, ttConstInt(&e->b, e->loc, i32, u), i32) : r;
    MlirValue start = tileOp2(e, "arith.addi", obase,
                              tileOp2(e, "arith.muli", row,
                                      ttConstInt(&e->b, e->loc, i32, g->inner), i32),
                              i32);
    e->offs = tileOp2(e, "arith.addi", tileOp1(e, "tile.splat", start, it), cols, it);
    MlirValue x = tileEmitValue(e, mlirOperationGetOperand(g->red, 0), e->offs);
    if (e->failed)
      break;
    MlirValue ops[2] = {a, tileMaskedToIdentity(e, x, c, ct)};
    a = ttBuild(&e->b, c.combine, e->loc, 2, ops, ct, 0, NULL);
  }
  ttBuild(&e->b, "scf.yield", e->loc, 1, &a, ttNoType(), 0, NULL);
  tileMemoTruncate(e, saved);
  tileLoadsFirst(body);
  e->b = outer;
  return mlirOperationGetResult(loop, 0);
}

bool tileColumnFusion(MlirOperation fusion, int64_t blockOpt, int64_t warpsOpt) {
  MlirContext ctx = mlirOperationGetContext(fusion);
  MlirLocation loc = mlirOperationGetLocation(fusion);
  MlirBlock fbody;
  MlirType outType;
  ColumnGeometry g;
  if (!tileCheckFusion(fusion, &fbody, &outType) ||
      !columnGeometry(fusion, fbody, outType, blockOpt, warpsOpt, &g))
    return false;
  intptr_t nin = mlirBlockGetNumArguments(fbody);
  /* A dynamic R: an input of the reduced operand's shape gives it (its leading dim). */
  int dynInput = -1;
  MlirType xt = mlirValueGetType(mlirOperationGetOperand(g.red, 0));
  for (intptr_t i = 0; g.dynRows && i < nin && dynInput < 0; i++)
    if (ttSameShape(mlirValueGetType(mlirBlockGetArgument(fbody, i)), xt))
      dynInput = (int)i;
  if (g.dynRows && dynInput < 0) {
    ttEmitError(g.red, "tile: a column reduction over a dynamic dimension needs an input "
                       "of its operand's shape (whose leading dim gives the rows)");
    return false;
  }
  MlirOperation ret = mlirBlockGetTerminator(fbody);
  MlirType relem = ttElementType(mlirValueGetType(mlirOperationGetResult(g.red, 0)));
  if (!mlirTypeIsAFloat(relem)) {
    ttEmitError(g.red, "tile: column reductions compute f32, f16 or bf16 values, not %s",
                ttDtypeName(relem));
    return false;
  }

  /* Step 2: the kernel, the program's outer index and columns. */
  char name[128];
  Emit e;
  MlirOperation kfunc =
      tileStartKernel(fusion, fbody, g.dynRows, g.warps, g.block, &e, name, sizeof name);
  MlirBlock kbody = e.kernel;
  MlirType i32 = ttI32(ctx), it = tileOf(&e, i32);
  MlirNamedAttribute axis = ttNamedAttr(ctx, "axis", ttIntAttr(ctx, 0, i32));
  MlirValue pid = ttBuild(&e.b, "tile.program_id", loc, 0, NULL, i32, 1, &axis);
  MlirNamedAttribute range[2] = {ttNamedAttr(ctx, "start", ttIntAttr(ctx, 0, i32)),
                                 ttNamedAttr(ctx, "end", ttIntAttr(ctx, g.block, i32))};
  MlirValue rg = ttBuild(&e.b, "tile.range", loc, 0, NULL, it, 2, range);
  MlirValue o = pid, cb = ttConstInt(&e.b, loc, i32, 0);
  bool manyOuter = g.outer > 1 || g.dynOuter;
  if (g.nblk > 1) {
    MlirValue n = ttConstInt(&e.b, loc, i32, g.nblk);
    o = manyOuter ? tileOp2(&e, "arith.divui", pid, n, i32) : cb;
    cb = manyOuter ? tileOp2(&e, "arith.remui", pid, n, i32) : pid;
  }
  MlirValue c0 = tileOp2(&e, "arith.muli", cb, ttConstInt(&e.b, loc, i32, g.block), i32);
  MlirValue cols = tileOp2(&e, "arith.addi", tileOp1(&e, "tile.splat", c0, it), rg, it);
  MlirValue mask = tileCmp(&e, CMPI_SLT, cols, tileSplatI32(&e, g.inner));
  e.mask = mask;
  MlirValue obase = tileOp2(&e, "arith.muli", o, ttConstInt(&e.b, loc, i32, g.rows * g.inner), i32);

  /* Step 3: the loops over the rows. */
  Combiner c = tileCombinerOf(g.red);
  MlirValue acc = ttConstSplat(&e.b, loc, tileOf(&e, tileComputeType(&e, relem)), c.identity);
  MlirValue zero = ttConstInt(&e.b, loc, i32, 0);
  if (g.dynRows) { /* R = the size argument: rows [0, R - R % U) by U, then one by one */
    MlirValue rows = mlirBlockGetArgument(kbody, nin + 1);
    MlirValue rem = tileOp2(&e, "arith.remui", rows, ttConstInt(&e.b, loc, i32, g.unroll), i32);
    MlirValue mainEnd = tileOp2(&e, "arith.subi", rows, rem, i32);
    acc = rowLoop(&e, &g, obase, cols, zero, mainEnd, g.unroll, acc);
    if (g.unroll > 1 && !e.failed)
      acc = rowLoop(&e, &g, obase, cols, mainEnd, rows, 1, acc);
  } else {
    int64_t main = g.rows - g.rows % g.unroll;
    MlirValue mainEnd = ttConstInt(&e.b, loc, i32, main);
    if (main > 0)
      acc = rowLoop(&e, &g, obase, cols, zero, mainEnd, g.unroll, acc);
    if (main < g.rows && !e.failed)
      acc = rowLoop(&e, &g, obase, cols, mainEnd, ttConstInt(&e.b, loc, i32, g.rows), 1, acc);
  }

  /* Step 4: the epilogue and the store. */
  if (!e.failed) {
    tileMemoPut(&e, mlirOperationGetResult(g.red, 0), (MlirValue){NULL}, acc);
    MlirValue ostart = tileOp2(&e, "arith.muli", o, ttConstInt(&e.b, loc, i32, g.inner), i32);
    e.offs = tileOp2(&e, "arith.addi", tileOp1(&e, "tile.splat", ostart, it), cols, it);
    e.mask = mask;
    MlirValue v = tileEmitValue(&e, mlirOperationGetOperand(ret, 0), e.offs);
    if (!e.failed) {
      MlirType oelem = ttElementType(outType);
      v = tileRoundTo(&e, v, oelem);
      MlirValue st[4] = {mlirBlockGetArgument(kbody, nin), e.offs, v, mask};
      ttBuild(&e.b, "tile.store", loc, 4, st, ttNoType(), 0, NULL);
    }
  }
  if (!tileFinishKernel(&e, kfunc))
    return false;

  char grid[64], rowsArg[64];
  if (g.dynOuter && g.nblk == 1) /* outer from the result: numel(%r0) = outer * inner */
    snprintf(grid, sizeof grid, "cdiv(numel(%%r0),%lld)", (long long)g.inner);
  else if (g.dynOuter)
    snprintf(grid, sizeof grid, "cdiv(numel(%%r0),%lld)*%lld", (long long)g.inner,
             (long long)g.nblk);
  else
    snprintf(grid, sizeof grid, "%lld", (long long)(g.outer * g.nblk));
  if (g.rows == 1)
    snprintf(rowsArg, sizeof rowsArg, "dim(%%i%d,0)", dynInput);
  else
    snprintf(rowsArg, sizeof rowsArg, "dim(%%i%d,0)*%lld", dynInput, (long long)g.rows);
  const char *args[1] = {rowsArg};
  tileSetLaunch(fusion, name, grid, "1", g.dynRows ? 1 : 0, args);
  return true;
}
