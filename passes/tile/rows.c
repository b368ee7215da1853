/* rows.c - --tile's elementwise and row kernels: steps 3-5 of kernel.c's algorithm.
 *
 * An elementwise kernel gives program p the flat elements p*B .. p*B+B-1 of its output.
 * Row groups (`prim.fusion = "row"`) use the same recursion (emit.c) over a row space:
 * program p computes rows p*R .. p*R+R-1, offsets row*N + column. For each row of the
 * program (elementwise: once):
 *  3. The offsets and mask: elementwise, offs = pid * B + range(0, B), offs < numel; row
 *     i, row = pid * R + i, offs = row * N + column, column < N and, when R does not
 *     divide M, row < M.
 *  3a. A row off 16-byte alignment under row-frame (Geometry.frame = F) is computed in
 *     the aligned frame: base = rowStart & -F, s = rowStart - base, offs = base + column
 *     (aligned runs: 16-byte loads, stores and cp.async in the lowering), the row's own
 *     column column - s (a weight's offsets), the mask s <= column < N + s; the loops
 *     run on to N + F - 1 (rowSpace).
 *  3'. A staged row (Geometry.staged: a looped row whose on-chip form would hold one row
 *     an SM, geometry-rows.c): each stageable input (full rows of 16-byte multiples, or of
 *     any width under stage-odd=1: their copy loads element by element) gets a
 *     tile.local_alloc of the row's chunks (of the block's part of it where the row is
 *     split over a cluster: columns part * P .. part * P + P - 1, the reductions combined
 *     across the cluster), one slot each; at the row's start every chunk
 *     is copied there (tile.async_copy, one group), then waited for; the loops below read
 *     those inputs' chunks from their slots (tile.local_load, emit.c's emitLoad) instead
 *     of global memory. The row is read from DRAM once and the registers hold one chunk,
 *     so an SM holds as many rows as its shared memory: their copies overlap each other's
 *     passes.
 *  3''. A staged row whose shared memory fits an SM once but not twice keeps its last
 *     Geometry.regChunks chunks in registers (tile.load at the row's start, with the
 *     copies): the chunk loops walk the slots, and each pass then takes the register
 *     chunks after its loop, unrolled (each input's value at their offsets set in the
 *     memo), so two blocks an SM overlap one row's copy with another's passes.
 *  3'''. Persistent rows (Geometry.persistent = P, the persistent option; on chip): the
 *     grid is P programs, and one scf.for (marked tile.row_loop) walks program p's rows
 *     p, p + P, ... < M, each row's steps 3-5 in its body; --pipeline then issues the next
 *     row's loads at the body's top.
 *  4. The value at offs (tileEmitValue). When the block covers the row, reductions are
 *     computed where first used (tile.reduce of the masked row); when the row is longer
 *     than the block (the looped form), emitLevels first computes every reduction in
 *     scf.for loops over the row's chunks, one loop per level of dependent reductions
 *     (siblings share a loop; softmax's sum of exp(x - max(x)) joins its max's loop as
 *     an online normalizer, step 4a'; a variance's sum of squared deviations joins its
 *     mean's loop, Welford's update in each lane, step 4a''', welford.c), then one more
 *     loop computes and stores the output. A loop step computes geometry's chunksPerStep
 *     chunks (chunksPerStepOut for the output), their loads first, so that many chunks'
 *     loads are in flight at once.
 *  4c. Under peel-last, each chunk loop is two (chunkPhases): the row's whole steps with
 *     no column mask (Emit.fullChunk: rowSpace's mask is constant, so the lowering loads
 *     and combines each chunk with no per-lane compare and select; a staged row's whole
 *     chunks are also copied unmasked, their lanes at consecutive addresses), then the
 *     partial last step under the mask, the accumulators carried from one to the other.
 *  5. The store, rounded to the output dtype, under the mask (a per-row result: lane 0
 *     stores it at the row's index); then loads first (tileLoadsFirst).
 * The geometry (block, warps, rows per program) comes from geometry-rows.c.
 */
#include "tile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The aligned frame's shift of the row starting at element rowStart (3a): the s =
 * rowStart % F columns before the row's start, F = Geometry.frame (a power of two). */
static MlirValue frameShift(Emit *e, MlirValue rowStart, const Geometry *g) {
  MlirType i32 = ttI32(e->ctx);
  return tileOp2(e, "arith.andi", rowStart, ttConstInt(&e->b, e->loc, i32, g->frame - 1), i32);
}

/* Offsets and mask of columns `cols` (an i32 tile) of the row starting at element
 * rowStart; rowOk (null when every row is valid) masks rows past the end. In the
 * aligned frame (3a, Geometry.frame = F) cols count from the row's start rounded down to
 * F elements, base = rowStart & -F, and s = rowStart - base columns come before the row:
 * offs = base + cols (aligned runs), the row's columns cols - s, the mask s <= cols <
 * N + s. */
static void rowSpace(Emit *e, MlirValue rowStart, MlirValue cols, MlirValue rowOk,
                     const Geometry *g) {
  MlirType i32 = ttI32(e->ctx), it = tileOf(e, i32);
  MlirValue base = rowStart, s = {NULL};
  e->cols = cols;
  e->loadMask = (MlirValue){NULL};
  if (g->frame) {
    base = tileOp2(e, "arith.andi", rowStart, ttConstInt(&e->b, e->loc, i32, -g->frame), i32);
    s = frameShift(e, rowStart, g);
    MlirValue neg = tileOp2(e, "arith.subi", ttConstInt(&e->b, e->loc, i32, 0), s, i32);
    e->cols = tileOp2(e, "arith.addi", cols, tileOp1(e, "tile.splat", neg, it), it);
  }
  e->offs = tileOp2(e, "arith.addi", tileOp1(e, "tile.splat", base, it), cols, it);
  if (e->fullChunk ||
      (g->cluster > 1 && !g->staged && !g->frame && g->block * g->cluster == g->rowLen)) {
    e->mask = ttConstSplat(&e->b, e->loc, tileOf(e, mlirIntegerTypeGet(e->ctx, 1)), 1);
  } else if (g->frame) {
    MlirValue n = tileOp2(e, "arith.addi", s, ttConstInt(&e->b, e->loc, i32, g->rowLen), i32);
    e->loadMask = tileCmp(e, CMPI_SLT, cols, tileOp1(e, "tile.splat", n, it));
    /* on chip, also below the frame's span N + F - 1, a constant: LLVM folds the block's
     * groups wholly past it to `other`, with no branch */
    if (!g->looped && g->block > g->rowLen + g->frame - 1)
      e->loadMask = tileOp2(e, "arith.andi",
                            tileCmp(e, CMPI_SLT, cols, tileSplatI32(e, g->rowLen + g->frame - 1)),
                            e->loadMask, mlirValueGetType(e->loadMask));
    e->mask = tileOp2(e, "arith.andi", tileCmp(e, CMPI_SGE, cols, tileOp1(e, "tile.splat", s, it)),
                      e->loadMask, mlirValueGetType(e->loadMask));
  } else {
    e->mask = tileCmp(e, CMPI_SLT, cols, tileSplatI32(e, g->rowLen));
  }
  if (!mlirValueIsNull(rowOk)) {
    e->mask = tileOp2(e, "arith.andi", e->mask, rowOk, mlirValueGetType(rowOk));
    if (!mlirValueIsNull(e->loadMask))
      e->loadMask = tileOp2(e, "arith.andi", e->loadMask, rowOk, mlirValueGetType(rowOk));
  }
  e->rowMask = e->mask;
}

/* Step 4c: the chunk loops of a row, as phases [lb, ub) of steps of U chunks: one, every
 * chunk masked; or under peel-last, the whole steps (every column of each chunk in the
 * row: no column mask, `full`) then the rest (at most one step a part, masked). The
 * loops end at N (in the aligned frame N + F - 1), or a staged row's slots; whole steps
 * end at the row's last column in the block's part (a cluster's last part holds fewer:
 * computed). In the aligned frame the first step holds the s columns before the row's
 * start (s = rowStart % F): masked (in every part of a cluster), the whole steps
 * [S, (N + s - first) / S * S) after it.
 * Returns the count. */
typedef struct {
  MlirValue lb, ub;
  bool full;
} ChunkPhase;

static int chunkPhases(Emit *e, const Geometry *g, MlirValue rowStart, int64_t U,
                       ChunkPhase ph[3]) {
  MlirType i32 = ttI32(e->ctx);
  int64_t end = g->staged ? g->partLen - g->regChunks * g->block
                          : g->rowLen + (g->frame ? g->frame - 1 : 0);
  int64_t S = U * g->block;
  MlirValue lb = ttConstInt(&e->b, e->loc, i32, 0), ub = ttConstInt(&e->b, e->loc, i32, end);
  ph[0] = (ChunkPhase){lb, ub, false};
  if (!g->peel)
    return 1;
  if (g->frame) { /* max(S, min(end, N + s - first) / S * S) */
    if (end <= S)
      return 1;
    MlirValue st = ttConstInt(&e->b, e->loc, i32, S);
    MlirValue s = frameShift(e, rowStart, g);
    MlirValue n = tileOp2(e, "arith.addi", s, ttConstInt(&e->b, e->loc, i32, g->rowLen), i32);
    if (!mlirValueIsNull(e->partFirstScalar))
      n = tileOp2(e, "arith.subi", n, e->partFirstScalar, i32);
    MlirValue f = tileOp2(e, "arith.muli", tileOp2(e, "arith.divsi", tileOp2(e, "arith.minsi", n, ub, i32), st, i32), st, i32);
    f = tileOp2(e, "arith.maxsi", f, st, i32);
    ph[0] = (ChunkPhase){lb, st, false};
    ph[1] = (ChunkPhase){st, f, true};
    ph[2] = (ChunkPhase){f, ub, false};
    return 3;
  }
  MlirValue full;
  if (mlirValueIsNull(e->partFirstScalar)) { /* the row's columns: static */
    int64_t f = (end < g->rowLen ? end : g->rowLen) / S * S;
    if (f == 0)
      return 1;
    if (f == end) {
      ph[0].full = true;
      return 1;
    }
    full = ttConstInt(&e->b, e->loc, i32, f);
  } else { /* min(end, N - first) / S * S */
    MlirValue left = tileOp2(e, "arith.subi", ttConstInt(&e->b, e->loc, i32, g->rowLen),
                             e->partFirstScalar, i32);
    MlirValue m = tileOp2(e, "arith.minsi", left, ub, i32);
    MlirValue st = ttConstInt(&e->b, e->loc, i32, S);
    full = tileOp2(e, "arith.muli", tileOp2(e, "arith.divsi", m, st, i32), st, i32);
  }
  ph[0] = (ChunkPhase){lb, full, true};
  ph[1] = (ChunkPhase){full, ub, false};
  return 2;
}

/* A loop over phase ph's chunks of a row (k = lb, lb + U*B, ... < ub, U = chunks)
 * carrying inits; the builder moves into its body. Each of the step's U chunks is then
 * begun with chunkPart. Returns the loop. */
static MlirOperation beginChunkLoop(Emit *e, const Geometry *g, int64_t chunks,
                                    const ChunkPhase *ph, int n, const MlirValue *inits) {
  MlirType i32 = ttI32(e->ctx);
  MlirValue lb = ph->lb, ub = ph->ub, step = ttConstInt(&e->b, e->loc, i32, g->block * chunks);
  e->fullChunk = ph->full;
  MlirOperation loop = ttBuildFor(&e->b, e->loc, lb, ub, step, n, inits);
  MlirBlock body = ttForBody(loop);
  e->b = ttBuilderAtEnd(body);
  e->loopMemo = e->nmemo;
  e->loopIv = mlirBlockGetArgument(body, 0);
  e->loopK = tileOp1(e, "tile.splat", e->loopIv, tileOf(e, i32));
  return loop;
}

/* The index of chunk u of the current loop step in the block's part, k / B + u (an i32
 * scalar): a staged row's slot, a variance pair's Welford count. */
static MlirValue chunkIndex(Emit *e, const Geometry *g, int u) {
  MlirType i32 = ttI32(e->ctx);
  MlirValue c = tileOp2(e, "arith.divui", e->loopIv, ttConstInt(&e->b, e->loc, i32, g->block), i32);
  return u > 0 ? tileOp2(e, "arith.addi", c, ttConstInt(&e->b, e->loc, i32, u), i32) : c;
}

/* Chunk u of the current loop step: offs/mask cover columns k + u*B + range (values of
 * the step's other chunks forgotten unless `keep`: a step that reads its chunks twice,
 * step 4a'). */
static void chunkPart(Emit *e, MlirValue rowStart, MlirValue range, const Geometry *g, int u,
                      bool keep) {
  if (!keep)
    tileMemoTruncate(e, e->loopMemo);
  MlirType it = tileOf(e, ttI32(e->ctx));
  MlirValue cols = tileOp2(e, "arith.addi", e->loopK, range, it);
  if (u > 0)
    cols = tileOp2(e, "arith.addi", cols, tileSplatI32(e, (int32_t)(u * g->block)), it);
  if (!mlirValueIsNull(e->partFirst)) /* the block's part of a row split over a cluster */
    cols = tileOp2(e, "arith.addi", cols, e->partFirst, it);
  rowSpace(e, rowStart, cols, (MlirValue){NULL}, g);
  if (g->staged) /* the chunk's slot */
    e->stageSlot = chunkIndex(e, g, u);
}

/* Step 3' at the kernel's start: a tile.local_alloc of the row's chunks (one slot of
 * 1 x B each) for each stageable input; e->stageBuf[i] (null for the others). */
static void stageBuffers(Emit *e, MlirBlock fbody, const Geometry *g) {
  int64_t shape[3] = {g->partLen / g->block - g->regChunks, 1, g->block};
  e->stageBuf = ttAlloc(sizeof(MlirValue) * (size_t)(e->nin + 1));
  e->regChunks = g->regChunks;
  size_t nreg = (size_t)(g->regChunks + 1);
  e->regOffs = ttAlloc(sizeof(MlirValue) * nreg);
  e->regMask = ttAlloc(sizeof(MlirValue) * nreg);
  e->regCols = ttAlloc(sizeof(MlirValue) * nreg);
  e->regVal = ttAlloc(sizeof(MlirValue) * nreg * (size_t)(e->nin + 1));
  for (int i = 0; i < e->nin; i++) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(fbody, i));
    e->stageBuf[i] = (MlirValue){NULL};
    if (!tileStageable(t, g))
      continue;
    MlirType buf = mlirMemRefTypeContiguousGet(
        ttElementType(t), 3, shape, mlirIntegerAttrGet(mlirIntegerTypeGet(e->ctx, 64), 3));
    e->stageBuf[i] = ttBuild(&e->b, "tile.local_alloc", e->loc, 0, NULL, buf, 0, NULL);
  }
}

/* Step 3' at a row's start: every chunk of each staged input copied to its slot (one
 * group), then waited for (the wait's barrier also orders the previous row's reads);
 * 3'': the chunks past the slots loaded into registers instead. */
static void stageRow(Emit *e, MlirValue rowStart, MlirValue range, const Geometry *g) {
  MlirType it = tileOf(e, ttI32(e->ctx)), i32 = ttI32(e->ctx);
  int64_t slots = g->partLen / g->block - g->regChunks;
  for (int64_t c = 0; c < g->partLen / g->block; c++) {
    MlirValue cols = c ? tileOp2(e, "arith.addi", range, tileSplatI32(e, c * g->block), it) : range;
    if (!mlirValueIsNull(e->partFirst))
      cols = tileOp2(e, "arith.addi", cols, e->partFirst, it);
    e->fullChunk = g->peel && mlirValueIsNull(e->partFirst) && (c + 1) * g->block <= g->rowLen &&
                   (c > 0 || !g->frame); /* the frame's first chunk: columns before the row */
    rowSpace(e, rowStart, cols, (MlirValue){NULL}, g);
    e->fullChunk = false;
    MlirValue slot = ttConstInt(&e->b, e->loc, i32, c);
    if (c >= slots) {
      int64_t r = c - slots;
      e->regOffs[r] = e->offs, e->regMask[r] = e->mask, e->regCols[r] = e->cols;
    }
    for (int i = 0; i < e->nin; i++) {
      if (mlirValueIsNull(e->stageBuf[i]))
        continue;
      if (c < slots) {
        ttBuild(&e->b, "tile.async_copy", e->loc, 5,
                (MlirValue[]){mlirBlockGetArgument(e->kernel, i), e->offs,
                              tileLoadMask(e, e->offs), e->stageBuf[i], slot},
                ttNoType(), 0, NULL);
        continue;
      }
      MlirType t = tileOf(e, ttElementType(mlirValueGetType(e->inputs[i])));
      e->regVal[(c - slots) * e->nin + i] = tileRowLoad(
          e, mlirBlockGetArgument(e->kernel, i), e->offs, ttConstSplat(&e->b, e->loc, t, 0.0));
    }
  }
  ttBuild(&e->b, "tile.async_commit", e->loc, 0, NULL, ttNoType(), 0, NULL);
  MlirNamedAttribute pending = ttNamedAttr(e->ctx, "pending", ttIntAttr(e->ctx, 0, i32));
  ttBuild(&e->b, "tile.async_wait", e->loc, 0, NULL, ttNoType(), 1, &pending);
}

/* Step 3'' after a pass's chunk loop: register chunk r's offsets, mask and columns, its
 * staged inputs' values (in their compute type) set in the memo at those offsets; the
 * memo forgets what the previous register chunk made (entries past `mark`). */
static void regChunkPart(Emit *e, int64_t r, int mark) {
  tileMemoTruncate(e, mark);
  e->offs = e->regOffs[r], e->mask = e->regMask[r], e->cols = e->regCols[r];
  e->loadMask = (MlirValue){NULL};
  for (int i = 0; i < e->nin; i++) {
    if (mlirValueIsNull(e->stageBuf[i]))
      continue;
    MlirValue x = e->regVal[r * e->nin + i];
    MlirType xe = ttElementType(mlirValueGetType(x)), ce = tileComputeType(e, xe);
    if (!mlirTypeEqual(ce, xe))
      x = tileOp1(e, "arith.extf", x, tileOf(e, ce));
    tileMemoPut(e, e->inputs[i], e->offs, x);
  }
}

/* Ends a chunk loop's body with scf.yield of results, puts its loads first, and moves the
 * builder back to `outer`, forgetting the values made inside the loop. */
static void endChunkLoop(Emit *e, MlirOperation loop, TtBuilder outer, int n,
                         const MlirValue *results) {
  ttBuild(&e->b, "scf.yield", e->loc, n, results, ttNoType(), 0, NULL);
  e->fullChunk = false;
  tileMemoTruncate(e, e->loopMemo);
  e->stageSlot = (MlirValue){NULL}; /* defined in the loop */
  tileLoadsFirst(ttForBody(loop));
  e->b = outer;
}

MlirOperation tilePrimDef(MlirValue v, const char *name) {
  MlirOperation none = {NULL};
  if (!mlirValueIsAOpResult(v))
    return none;
  MlirOperation op = mlirOpResultGetOwner(v);
  char buf[32];
  return strcmp(ttPrimShortName(op, buf, sizeof buf), name) == 0 ? op : none;
}

/* Looped row kernels, step 4a: every reduction before the output, level by level. A
 * reduction's level is one more than the highest level among the reductions its operand
 * uses (1 when none). The reductions of one level are siblings: one loop over the row
 * computes them all, each in an accumulator tile combined with each chunk's masked
 * values; after the loop, tile.reduce of each accumulator is its per-row value. So a
 * row is read once per level, plus once for the output. A softmax sum of the next level
 * joins its max's loop (online.c): that max and sum are carried as scalars. */
/* A looped argmax/argmin (step 4a''): one pass over the row's chunks carries, per lane, the
 * best element it has seen and that element's column (f32: exact below 2^24 columns). A
 * lane takes a chunk's element (under the mask) when it is the lane's first, strictly
 * better (> for argmax, < for argmin), or NaN where the lane's best is not (a NaN counts
 * as the max, the min for argmin, as in PyTorch); a lane sees its columns in increasing
 * order, so it keeps the first of its best. After the loop the row's max (min, NaN-
 * propagating) m is the lanes' max (min), and the index the least column among the lanes
 * whose best is m or NaN: the first column holding m, as the on-chip form finds it (emit.c,
 * emitArgReduction). One read of the row, where the two-loop form (the max, then its
 * column) read it twice. */
static void argStep(Emit *e, MlirOperation op, MlirValue x, MlirValue *best, MlirValue *col) {
  MlirType ft = mlirValueGetType(x), i1 = tileOf(e, mlirIntegerTypeGet(e->ctx, 1));
  bool max = strcmp(tileCombinerOf(op).kind, "max") == 0;
  MlirValue n = ttConstSplat(&e->b, e->loc, ft, (double)e->rowLen);
  /* (one op a statement: the IR's order does not hang on C's order of evaluation) */
  MlirValue first = tileCmpf(e, CMPF_OEQ, *col, n); /* the lane has taken none yet */
  MlirValue better = tileCmpf(e, max ? CMPF_OGT : CMPF_OLT, x, *best);
  MlirValue nanX = tileCmpf(e, CMPF_UNO, x, x);
  MlirValue ordBest = tileCmpf(e, CMPF_ORD, *best, *best);
  MlirValue take = tileOp2(e, "arith.ori", first, better, i1);
  take = tileOp2(e, "arith.ori", take, tileOp2(e, "arith.andi", nanX, ordBest, i1), i1);
  take = tileOp2(e, "arith.andi", take, e->mask, i1);
  MlirValue c = tileOp1(e, "arith.uitofp", e->cols, ft);
  *best = ttBuild(&e->b, "arith.select", e->loc, 3, (MlirValue[]){take, x, *best}, ft, 0, NULL);
  *col = ttBuild(&e->b, "arith.select", e->loc, 3, (MlirValue[]){take, c, *col}, ft, 0, NULL);
}

/* After the loop: the index of the lanes' (best, col), as the result's integer type. */
static MlirValue argIndex(Emit *e, MlirOperation op, MlirValue best, MlirValue col,
                          MlirType it) {
  MlirType ft = mlirValueGetType(best);
  MlirValue m = tileReduceToSplat(e, best, tileCombinerOf(op), ft);
  MlirValue cand = tileArgCandidate(e, best, m, col);
  MlirValue idx = tileReduceToSplat(e, cand, (Combiner){"min", "arith.minimumf", INFINITY}, ft);
  return tileOp1(e, "arith.fptosi", idx, it);
}

/* One level's reductions in emitLevels: the ops, whether each is an argmax/argmin,
 * its partner (-1: none; an online sum, or a variance's sum where var) and first
 * accumulator; the accumulators, each online pair's step value, the step's chunks (offs,
 * cols, then each pair's masked x) and the current chunk's index in the block's part
 * (an i32 scalar: Welford's count). */
typedef struct {
  MlirOperation *reds;
  int nr;
  const bool *arg, *var;
  const int *second, *slot;
  MlirValue *acc, *step, *chunk;
  MlirValue chunkNo;
} Level;

/* Chunk u of U (at e->offs) joins the level's accumulators (an online pair's: its step
 * value, tileOnlineStep after the step's chunks). */
static void levelChunk(Emit *e, const Level *lv, int64_t u, int64_t U) {
  lv->chunk[u] = e->offs, lv->chunk[U + u] = e->cols;
  for (int j = 0; j < lv->nr && !e->failed; j++) {
    MlirValue x = tileEmitValue(e, mlirOperationGetOperand(lv->reds[j], 0), e->offs);
    if (e->failed)
      break;
    MlirValue *acc = &lv->acc[lv->slot[j]];
    if (lv->var[j]) { /* a sum and its variance's: Welford's mean and m2 (welford.c) */
      tileWelfordStep(e, x, lv->chunkNo, acc, acc + 1);
      continue;
    }
    if (lv->arg[j]) { /* x: f32, the compute type of its rows */
      argStep(e, lv->reds[j], x, acc, acc + 1);
      continue;
    }
    Combiner c = tileCombinerOf(lv->reds[j]);
    MlirType ct = tileOf(e, tileComputeType(e, ttElementType(mlirValueGetType(x))));
    MlirValue xm = tileMaskedToIdentity(e, x, c, ct);
    bool pair = lv->second[j] >= 0;
    if (pair)
      lv->chunk[(2 + j) * U + u] = xm;
    MlirValue *into = pair ? &lv->step[j] : acc;
    *into = pair && u == 0 ? xm
            : ttBuild(&e->b, c.combine, e->loc, 2, (MlirValue[]){*into, xm}, ct, 0, NULL);
  }
}

int tileReductionLevels(MlirBlock body, MlirOperation **ops, int **depth, int *n) {
  TtPtrIndex level = {0}; /* op -> its level, found in O(1) */
  int count = 0, most = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    count++;
  MlirOperation *o = ops ? ttAlloc(sizeof(MlirOperation) * (size_t)(count + 1)) : NULL;
  int *dep = depth ? ttAlloc(sizeof(int) * (size_t)(count + 1)) : NULL, i = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op), i++) {
    int d = 0;
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++) {
      MlirValue x = mlirOperationGetOperand(op, k);
      int dx = mlirValueIsAOpResult(x) ? ttPtrIndexFind(&level, mlirOpResultGetOwner(x).ptr) : 0;
      d = dx > d ? dx : d;
    }
    d += ttPrimIsRowReduction(op);
    most = d > most ? d : most;
    ttPtrIndexPut(&level, op.ptr, d);
    if (o)
      o[i] = op;
    if (dep)
      dep[i] = d;
  }
  ttPtrIndexDestroy(&level);
  if (ops)
    *ops = o;
  if (depth)
    *depth = dep;
  if (n)
    *n = count;
  return most;
}

/* Step 4a's pairs among body's ops (tileReductionLevels' ops and depth, n of them):
 * partner[i] = j where reduction j joins reduction i's loop, joined[j] = i (-1: none):
 * softmax's sum its max's where `online` (4a'), a variance's sum its mean's sum where
 * `welford` (4a''', welford.c; var[i] then). */
static void joinPairs(MlirOperation *ops, const int *depth, int n, bool online, bool welford,
                      int *partner, int *joined, bool *var) {
  for (int j = 0; j < n; j++)
    partner[j] = joined[j] = -1, var[j] = false;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n && joined[j] < 0 && ttPrimIsRowReduction(ops[j]); i++) {
      if (partner[i] >= 0 || depth[i] + 1 != depth[j] || !ttPrimIsRowReduction(ops[i]))
        continue;
      bool soft = online && tileOnlinePair(ops[j], ops[i]);
      bool wf = !soft && welford && tileVariancePair(ops[j], ops[i]);
      if (soft || wf) {
        partner[i] = j;
        joined[j] = i;
        var[i] = wf;
      }
    }
}

int tileLevelLoops(MlirBlock body, bool welford, bool *pairs) {
  int n, *depth, loops = 0;
  MlirOperation *ops;
  int most = tileReductionLevels(body, &ops, &depth, &n);
  int *partner = ttAlloc(sizeof(int) * (size_t)(n + 1)), *joined = ttAlloc(sizeof(int) * (size_t)(n + 1));
  bool *var = ttAlloc(sizeof(bool) * (size_t)(n + 1));
  joinPairs(ops, depth, n, false, welford, partner, joined, var);
  for (int i = 0; pairs && i < n; i++)
    *pairs |= var[i];
  for (int level = 1; level <= most; level++) {
    bool any = false;
    for (int j = 0; j < n && !any; j++)
      any = ttPrimIsRowReduction(ops[j]) && depth[j] == level && joined[j] < 0;
    loops += any;
  }
  free(partner);
  free(joined);
  free(var);
  free(ops);
  free(depth);
  return loops;
}

static void emitLevels(Emit *e, MlirBlock fbody, MlirValue rowStart, MlirValue range,
                       const Geometry *g) {
  int n, *depth;
  MlirOperation *ops;
  int maxLevel = tileReductionLevels(fbody, &ops, &depth, &n);
  /* partner[i]: the reduction joined to i's loop (-1: none); joined[j]: j is one */
  int *partner = ttAlloc(sizeof(int) * (size_t)n), *joined = ttAlloc(sizeof(int) * (size_t)n);
  bool *varOf = ttAlloc(sizeof(bool) * (size_t)n), *var = ttAlloc(sizeof(bool) * (size_t)n);
  joinPairs(ops, depth, n, g->online, g->welford, partner, joined, varOf);
  int64_t U = g->chunksPerStep;
  MlirOperation *reds = ttAlloc(sizeof(MlirOperation) * (size_t)n);
  int *second = ttAlloc(sizeof(int) * (size_t)n), *slot = ttAlloc(sizeof(int) * (size_t)n);
  MlirValue *acc = ttAlloc(sizeof(MlirValue) * (size_t)(2 * n));
  MlirValue *step = ttAlloc(sizeof(MlirValue) * (size_t)n);
  bool *arg = ttAlloc(sizeof(bool) * (size_t)n); /* an argmax/argmin: (best, col) */
  /* a step's chunks: offs, cols, and each online pair's masked x (n of them a chunk) */
  MlirValue *chunk = ttAlloc(sizeof(MlirValue) * (size_t)((2 + n) * U));
  for (int level = 1; level <= maxLevel && !e->failed; level++) {
    int nr = 0, na = 0;
    bool online = false, welford = false;
    for (int j = 0; j < n; j++) {
      if (!ttPrimIsRowReduction(ops[j]) || joined[j] >= 0 || depth[j] != level)
        continue;
      online |= partner[j] >= 0 && !varOf[j];
      welford |= varOf[j];
      var[nr] = varOf[j];
      second[nr] = partner[j];
      arg[nr] = ttPrimKind(ops[j]) == TT_PRIM_ARGREDUCE;
      reds[nr++] = ops[j];
    }
    if (nr == 0) /* every reduction of the level joined an earlier loop */
      continue;
    U = online ? tileOnlineChunks(g) : g->chunksPerStep;
    for (int j = 0; j < nr; j++) {
      MlirType relem = ttElementType(mlirValueGetType(mlirOperationGetResult(reds[j], 0)));
      MlirType ce = tileComputeType(e, relem);
      slot[j] = na;
      if (arg[j]) { /* best and col: f32 (col N: none yet) */
        MlirType ft = tileOf(e, mlirF32TypeGet(e->ctx));
        acc[na++] = ttConstSplat(&e->b, e->loc, ft, tileCombinerOf(reds[j]).identity);
        acc[na++] = ttConstSplat(&e->b, e->loc, ft, (double)g->rowLen);
      } else if (second[j] < 0) {
        acc[na++] = ttConstSplat(&e->b, e->loc, tileOf(e, ce), tileCombinerOf(reds[j]).identity);
      } else if (var[j]) { /* Welford's mean and m2 */
        acc[na++] = ttConstSplat(&e->b, e->loc, tileOf(e, ce), 0.0);
        acc[na++] = ttConstSplat(&e->b, e->loc, tileOf(e, ce), 0.0);
      } else { /* m and s */
        acc[na++] = ttConstSplat(&e->b, e->loc, ce, -INFINITY);
        acc[na++] = ttConstSplat(&e->b, e->loc, ce, 0.0);
      }
    }
    Level lv = {reds, nr, arg, var, second, slot, acc, step, chunk, {NULL}};
    MlirType i32 = ttI32(e->ctx);
    ChunkPhase ph[3];
    int nph = chunkPhases(e, g, rowStart, U, ph);
    for (int p = 0; p < nph && !e->failed; p++) { /* 4c: whole steps, then the rest */
      TtBuilder outer = e->b;
      MlirOperation loop = beginChunkLoop(e, g, U, &ph[p], na, acc);
      MlirBlock body = ttForBody(loop);
      for (int a = 0; a < na; a++)
        acc[a] = mlirBlockGetArgument(body, a + 1);
      for (int u = 0; u < U && !e->failed; u++) {
        chunkPart(e, rowStart, range, g, u, online);
        if (welford) /* Welford's count */
          lv.chunkNo = chunkIndex(e, g, u);
        levelChunk(e, &lv, u, U);
      }
      for (int j = 0; j < nr && !e->failed; j++)
        if (second[j] >= 0 && !var[j])
          tileOnlineStep(e, reds[j], ops[second[j]], step[j], chunk + (2 + j) * U, chunk,
                     chunk + U, U, &acc[slot[j]], &acc[slot[j] + 1]);
      if (e->failed)
        break;
      endChunkLoop(e, loop, outer, na, acc);
      for (int a = 0; a < na; a++)
        acc[a] = mlirOperationGetResult(loop, a);
    }
    if (e->failed)
      break;
    int mark = e->nmemo; /* 3'': the register chunks (staged: no online pair) */
    int64_t slots = g->partLen / g->block - e->regChunks;
    for (int64_t r = 0; r < e->regChunks && !e->failed; r++) {
      regChunkPart(e, r, mark);
      if (welford)
        lv.chunkNo = ttConstInt(&e->b, e->loc, i32, slots + r);
      levelChunk(e, &lv, 0, 1);
    }
    tileMemoTruncate(e, mark);
    for (int j = 0; j < nr && !e->failed; j++) {
      MlirValue total = acc[slot[j]];
      if (var[j]) {
        tileWelfordCombine(e, g, range, total, acc[slot[j] + 1], reds[j], ops[second[j]]);
        continue;
      }
      if (arg[j]) {
        MlirValue res = mlirOperationGetResult(reds[j], 0);
        MlirType it = tileOf(e, ttElementType(mlirValueGetType(res)));
        tileMemoPut(e, res, (MlirValue){NULL}, argIndex(e, reds[j], total, acc[slot[j] + 1], it));
        continue;
      }
      if (second[j] < 0) {
        tileMemoPut(e, mlirOperationGetResult(reds[j], 0), (MlirValue){NULL},
                    tileReduceToSplat(e, total, tileCombinerOf(reds[j]), mlirValueGetType(total)));
        continue;
      }
      MlirType ct = tileOf(e, mlirValueGetType(total));
      tileMemoPut(e, mlirOperationGetResult(reds[j], 0), (MlirValue){NULL},
                  tileOp1(e, "tile.splat", total, ct));
      tileMemoPut(e, mlirOperationGetResult(ops[second[j]], 0), (MlirValue){NULL},
                  tileOp1(e, "tile.splat", acc[slot[j] + 1], ct));
    }
  }
  free(partner);
  free(joined);
  free(varOf);
  free(var);
  free(arg);
  free(second);
  free(slot);
  free(step);
  free(chunk);
  free(reds);
  free(acc);
  free(ops);
  free(depth);
}

/* Step 1 for several outputs: one iteration space. Elementwise: every output has the
 * first one's number of elements; rows: each is full rows or one value per row (a
 * dynamic M: each has the first one's shape). */
static bool checkOutputSpace(MlirOperation fusion, MlirOperation ret, int nout,
                             const Geometry *geo) {
  MlirType t0 = mlirValueGetType(mlirOperationGetOperand(ret, 0));
  for (int k = 1; k < nout; k++) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(ret, k));
    int64_t n = ttTensorNumel(t);
    bool ok;
    if (tileIsDynamic(t0) || tileIsDynamic(t)) {
      int64_t a[TT_MAX_RANK], b[TT_MAX_RANK];
      int64_t ra = ttTensorShape(t0, a), rb = ttTensorShape(t, b);
      ok = ra == rb && ra >= 0 && ra <= TT_MAX_RANK &&
           memcmp(a, b, sizeof(int64_t) * (size_t)ra) == 0;
    } else {
      ok = geo->row ? n == geo->rows * geo->rowLen || n == geo->rows
                    : n == ttTensorNumel(t0);
    }
    if (!ok) {
      ttEmitError(fusion, geo->row ? "tile: result %d of a row fusion is neither full rows "
                                     "nor one value per row (a dynamic M: result 0's shape)"
                                   : "tile: result %d of an elementwise fusion has another "
                                     "number of elements than result 0",
                  k);
      return false;
    }
  }
  return true;
}

/* Whether output type t of a row kernel holds one value per row (else full rows). */
static bool perRowOutput(MlirType t, const Geometry *geo, bool dynRows) {
  if (dynRows) { /* full rows: the output has the rows' rank and last dim */
    int64_t os[TT_MAX_RANK], orank = ttTensorShape(t, os);
    return orank < 1 || orank != geo->rowRank || os[orank - 1] != geo->rowLen;
  }
  return geo->row && ttTensorNumel(t) != geo->rows * geo->rowLen;
}

/* Step 5 for output k (kernel argument nin + k): the value at e->offs, rounded to the
 * output's dtype, stored under the mask (one value per row: lane 0 stores it at the
 * row's index). */
static void storeOutput(Emit *e, MlirOperation ret, int k, int nin, bool perRow,
                        MlirValue row) {
  MlirValue out = mlirOperationGetOperand(ret, k);
  MlirType oelem = ttElementType(mlirValueGetType(out));
  MlirValue v = tileEmitValue(e, out, e->offs);
  if (e->failed)
    return;
  v = tileRoundTo(e, v, oelem);
  MlirValue st[4] = {mlirBlockGetArgument(e->kernel, nin + k), e->offs, v, e->mask};
  if (perRow) {
    MlirType it = tileOf(e, ttI32(e->ctx));
    st[1] = tileOp1(e, "tile.splat", row, it);
    st[3] = tileOp2(e, "arith.andi", e->mask, tileCmp(e, CMPI_EQ, e->cols, tileSplatI32(e, 0)),
                    mlirValueGetType(e->mask)); /* column 0's lane (of a cluster's block 0) */
  }
  ttBuild(&e->b, "tile.store", e->loc, 4, st, ttNoType(), 0, NULL);
}

/* Steps 2-6 for one fusion. */
bool tileFusion(MlirOperation fusion, Geometry geo) {
  MlirContext ctx = mlirOperationGetContext(fusion);
  MlirLocation loc = mlirOperationGetLocation(fusion);
  MlirBlock fbody;
  int nout;
  bool ok = tileCheckOutputs(fusion, &fbody, &nout) &&
            (!geo.row || tileRowGeometry(fusion, fbody, &geo));
  MlirOperation ret = ok ? mlirBlockGetTerminator(fbody) : (MlirOperation){NULL};
  ok = ok && checkOutputSpace(fusion, ret, nout, &geo);
  if (ok && geo.block < 32 * geo.warps) {
    ttEmitError(fusion, "tile: a block of %lld elements is smaller than 32 * num-warps (%lld "
                        "threads); give a larger block-size or fewer num-warps",
                (long long)geo.block, (long long)(32 * geo.warps));
    ok = false;
  }
  if (!ok)
    return false;
  int nin = (int)mlirBlockGetNumArguments(fbody);

  /* Step 2: the kernel function (row kernels take no size: their shape is constant,
   * unless M is dynamic: then the size argument is M). */
  int64_t block = geo.block;
  bool dynRows = geo.row && geo.rows < 0;
  char name[128];
  Emit e;
  MlirOperation kfunc = tileStartKernel(fusion, fbody, !geo.row || dynRows, geo.warps, block,
                                        &e, name, sizeof name);
  MlirBlock kbody = e.kernel;
  if (geo.programsPerSm > 0)
    mlirOperationSetAttributeByName(kfunc, ttStrRef("tile.programs_per_sm"),
                                    ttIntAttr(ctx, geo.programsPerSm, ttI32(ctx)));
  MlirValue size = !geo.row || dynRows ? mlirBlockGetArgument(kbody, nin + nout)
                                       : (MlirValue){NULL};

  /* Step 3: the index space. */
  MlirType i32 = ttI32(ctx), it = tileOf(&e, i32);
  MlirNamedAttribute axis = ttNamedAttr(ctx, "axis", ttIntAttr(ctx, 0, i32));
  MlirValue pid = ttBuild(&e.b, "tile.program_id", loc, 0, NULL, i32, 1, &axis);
  MlirNamedAttribute range[2] = {ttNamedAttr(ctx, "start", ttIntAttr(ctx, 0, i32)),
                                 ttNamedAttr(ctx, "end", ttIntAttr(ctx, block, i32))};
  MlirValue r = ttBuild(&e.b, "tile.range", loc, 0, NULL, it, 2, range);
  e.rowMode = geo.row;
  e.rowLen = geo.rowLen;
  bool *perRow = ttAlloc(sizeof(bool) * (size_t)nout);
  int nrowOut = 0; /* outputs of one value per row */
  for (int k = 0; k < nout; k++) {
    perRow[k] = geo.row &&
                perRowOutput(mlirValueGetType(mlirOperationGetOperand(ret, k)), &geo, dynRows);
    nrowOut += perRow[k];
  }

  /* Steps 3-5 per row of the program (elementwise: once): offsets and mask (elementwise:
   * offs < numel; row i: row = pid * R + i, offs = row * N + column, column < N and, when
   * R does not divide M, row < M), the values, and their stores. A looped row kernel
   * first computes its reductions (emitLevels), then loops over the row's chunks for the
   * full-row outputs, then stores the outputs of one value per row. */
  int64_t nrows = geo.row ? geo.rowsPerProgram : 1;
  e.looped = geo.looped;
  e.cluster = geo.cluster;
  MlirValue part = {NULL}, cols = r; /* split rows: the block's part of the row, its columns */
  if (geo.cluster > 1) {
    MlirValue c = ttConstInt(&e.b, loc, i32, geo.cluster);
    part = tileOp2(&e, "arith.remui", pid, c, i32);
    pid = tileOp2(&e, "arith.divui", pid, c, i32);
    MlirValue first = tileOp2(&e, "arith.muli", part,
                              ttConstInt(&e.b, loc, i32, geo.staged ? geo.partLen : block), i32);
    cols = tileOp2(&e, "arith.addi", r, tileOp1(&e, "tile.splat", first, it), it);
    if (geo.staged) { /* the loops walk the block's part (chunkPart, stageRow) */
      e.partFirst = tileOp1(&e, "tile.splat", first, it);
      e.partFirstScalar = first;
    }
  }
  if (geo.staged)
    stageBuffers(&e, fbody, &geo);
  /* 3''' persistent (Geometry.persistent = P programs): one loop over the program's rows,
   * row = pid, pid + P, ... < M, marked tile.row_loop (--pipeline issues the next row's
   * loads before this row's reductions) */
  MlirOperation rowLoop = {NULL};
  TtBuilder rowOuter = e.b;
  if (geo.persistent > 0 && nrows == 1 && !geo.looped) {
    rowLoop = ttBuildFor(&e.b, loc, pid, ttConstInt(&e.b, loc, i32, geo.rows),
                         ttConstInt(&e.b, loc, i32, geo.persistent), 0, NULL);
    mlirOperationSetAttributeByName(rowLoop, ttStrRef("tile.row_loop"), mlirUnitAttrGet(ctx));
    e.b = ttBuilderAtEnd(ttForBody(rowLoop));
    pid = mlirBlockGetArgument(ttForBody(rowLoop), 0);
  }
  for (int64_t i = 0; i < nrows && !e.failed; i++) {
    tileMemoTruncate(&e, 0); /* reductions are memoized per row */
    MlirValue row = pid;
    if (nrows > 1) {
      row = tileOp2(&e, "arith.muli", pid, ttConstInt(&e.b, loc, i32, nrows), i32);
      row = tileOp2(&e, "arith.addi", row, ttConstInt(&e.b, loc, i32, i), i32);
    }
    MlirValue start = tileOp2(&e, "arith.muli", row,
                              ttConstInt(&e.b, loc, i32, geo.row ? geo.rowLen : block), i32);
    if (geo.staged)
      stageRow(&e, start, r, &geo);
    if (geo.looped)
      emitLevels(&e, fbody, start, r, &geo);
    ChunkPhase ph[3];
    int nph = 1;
    for (int pass = 0; pass < (geo.looped ? 2 : 1) && !e.failed; pass++) {
      /* looped: pass 0 the full-row outputs in chunk loops (4c: one a phase), pass 1
         those per row */
      if (geo.looped && (pass == 0 ? nrowOut == nout : nrowOut == 0))
        continue;
      if (geo.looped && pass == 0)
        nph = chunkPhases(&e, &geo, start, geo.chunksPerStepOut, ph);
      for (int p = 0; p < (geo.looped && pass == 0 ? nph : 1) && !e.failed; p++) {
        TtBuilder outer = e.b;
        MlirOperation loop = {NULL};
        if (geo.looped && pass == 0) {
          loop = beginChunkLoop(&e, &geo, geo.chunksPerStepOut, &ph[p], 0, NULL);
        } else if (geo.row) {
          MlirValue rowOk = {NULL};
          if (dynRows) /* M is the size argument */
            rowOk = tileCmp(&e, CMPI_SLT, tileOp1(&e, "tile.splat", row, it),
                            tileOp1(&e, "tile.splat", size, it));
          else if (geo.rows % nrows != 0)
            rowOk = tileCmp(&e, CMPI_SLT, tileOp1(&e, "tile.splat", row, it),
                            tileSplatI32(&e, geo.rows));
          rowSpace(&e, start, cols, rowOk, &geo);
        } else {
          e.offs = tileOp2(&e, "arith.addi", tileOp1(&e, "tile.splat", start, it), r, it);
          e.mask = tileCmp(&e, CMPI_SLT, e.offs, tileOp1(&e, "tile.splat", size, it));
        }
        for (int u = 0; u < (loop.ptr ? geo.chunksPerStepOut : 1) && !e.failed; u++) {
          if (loop.ptr)
            chunkPart(&e, start, r, &geo, u, false);
          for (int k = 0; k < nout && !e.failed; k++)
            if (!geo.looped || perRow[k] == (pass == 1))
              storeOutput(&e, ret, k, nin, perRow[k], row);
        }
        if (!mlirOperationIsNull(loop) && !e.failed) {
          endChunkLoop(&e, loop, outer, 0, NULL);
          if (p + 1 < nph)
            continue; /* 4c: the register chunks after the last phase */
          int mark = e.nmemo; /* 3'': the register chunks */
          for (int64_t c = 0; c < e.regChunks && !e.failed; c++) {
            regChunkPart(&e, c, mark);
            for (int k = 0; k < nout && !e.failed; k++)
              if (!perRow[k])
                storeOutput(&e, ret, k, nin, false, row);
          }
          tileMemoTruncate(&e, mark);
        }
      }
    }
  }
  if (!mlirOperationIsNull(rowLoop) && !e.failed) {
    tileMemoTruncate(&e, 0);
    /* (no tileLoadsFirst: the weights stay at their first use, after the reductions;
     * --pipeline moves the row's loads) */
    ttBuild(&e.b, "scf.yield", loc, 0, NULL, ttNoType(), 0, NULL);
    e.b = rowOuter;
  }
  bool perRow0 = perRow[0];
  free(perRow);
  free(e.stageBuf);
  free(e.regOffs);
  free(e.regMask);
  free(e.regCols);
  free(e.regVal);
  if (!tileFinishKernel(&e, kfunc))
    return false;

  /* Step 6: the launch. */
  char grid[64], rowsArg[64];
  if (dynRows) { /* M from the result: its numel is M (per row) or M * N */
    int64_t per = perRow0 ? 1 : geo.rowLen;
    snprintf(grid, sizeof grid, "cdiv(numel(%%r0),%lld)", (long long)(per * geo.rowsPerProgram));
    if (per == 1)
      snprintf(rowsArg, sizeof rowsArg, "numel(%%r0)");
    else
      snprintf(rowsArg, sizeof rowsArg, "cdiv(numel(%%r0),%lld)", (long long)per);
  } else if (!mlirOperationIsNull(rowLoop)) {
    snprintf(grid, sizeof grid, "%lld", (long long)geo.persistent);
  } else if (geo.row) {
    snprintf(grid, sizeof grid, "%lld",
             (long long)((geo.rows + geo.rowsPerProgram - 1) / geo.rowsPerProgram * geo.cluster));
  } else {
    snprintf(grid, sizeof grid, "cdiv(numel(%%r0),%lld)", (long long)block);
  }
  const char *args[1] = {dynRows ? rowsArg : "numel(%r0)"};
  tileSetLaunch(fusion, name, grid, "1", geo.row && !dynRows ? 0 : 1, args);
  if (geo.cluster > 1) /* launched in clusters of that many programs along x */
    ttLaunchSet(fusion, "cluster", ttIntAttr(ctx, geo.cluster, mlirIntegerTypeGet(ctx, 64)));
  return true;
}
