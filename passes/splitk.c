/* splitk.c - the --splitk pass: split the K loop of dot kernels over a second grid axis.
 *
 * For skinny GEMMs (M of 1..64) a data-parallel grid has few programs (N / block-n) and
 * each walks all of K: too few loads in flight to fill the GPU's memory system. SplitK
 * gives program (p, s) the s-th slice of K for output tile p, and the partial tiles are
 * summed in the output with atomic adds.
 *
 * Algorithm:
 *  1. Dot groups not yet tiled (`prim.fusion = "dot"` without `tile.launch`, as after
 *     `--fuse`) get their dot kernel first, with --tile's default options.
 *  2. For each tile kernel with a K loop (an scf.for whose body holds a tile.dot), choose
 *     S: the option split-k=N, or (N = 0) from the shape: with P = programs of the kernel
 *     (grid axes 0 and 2: tiles and batches)
 *     and num-sms SMs, the largest power of two S with P * S <= num-sms * R (one wave of
 *     the R programs an SM holds at once, residentPrograms; R = 1 where P > num-sms / 2)
 *     that leaves each slice at least two steps of the K loop (more than two on average
 *     past one wave: deepSlicesPastWave). Every slice adds its partial
 *     tile with atomics, so slices pay only where the grid leaves SMs idle (H100, 16 x
 *     8192 x 8192 f16, 128 programs of 16x64x256: S = 1 53.5 us, 2 59.4, 4 65.8; with
 *     16x64x128 tiles S = 2 won, 60.2 against 62.3: bench/2026-11-23-h100-pipeline.md).
 *     No split at all where an unsplit program's walk over K is estimated to end before
 *     the split form's floor, its zero kernel and atomics (walkPastFloor, option
 *     floor-ns). S = 1 leaves the kernel alone
 *     but for `tile.split_k = 1`: every kernel this step decides is marked, so a later
 *     run of the pass (tt-translate's) keeps the decision.
 *  2b. A kernel whose epilogue is not linear (step 3) takes reduce=two-stage (step 5)
 *     instead, when S >= AUTO_TWO_STAGE_SPLIT; below that it keeps S = 1.
 *  3. The epilogue (the ops from the loop's result to the tile.store) must be linear in
 *     the accumulator, since each slice adds its own part: converts (but a rounding to
 *     fp8, whose slices would each round to 2-3 mantissa bits), reshapes, products
 *     with values that do not depend on it (scales), and sums with such values (bias,
 *     residual), which only slice 0 adds (`select(pid_k == 0, y, 0)`). Another op (an
 *     activation) is an error for an explicit split-k with reduce=atomic, and goes to
 *     step 2b for split-k=0.
 *  4. Rewrite: pid_k = tile.program_id 1; the loop runs from pid_k * L to
 *     min(pid_k * L + L, K) with L = the slice, a multiple of the step (the new bounds
 *     also replace the old ones in the body's ops: --tile's k-stagger); the store becomes
 *     tile.atomic_add (with `tile.extent`, the output's elements, where they are static:
 *     the lowering may then add -0.0 around an odd row's elements up to that end, as
 *     16-byte reds); the launch gets grid[1] = S and `zero_result` (the output is zeroed
 *     before the launch, in the same stream; tt-run's times include it). The kernel gets
 *     `tile.split_k = S`.
 *  5. reduce=two-stage (deterministic: no atomics, the same sums in the same order on
 *     every run; any epilogue, activations too): both kernels get a pointer to an f32
 *     workspace [S, <result shape>] after the result's. The split kernel (the loop sliced
 *     as in 4) stores its partial tile, the flattened accumulator, to slice pid_k of the
 *     workspace under the result's offsets and mask; its epilogue is erased. A copy of the
 *     original kernel, `<kernel>_reduce`, launched after it on the same tiles (grid[1] =
 *     1), replaces the K loop by a loop over the S slices that loads and adds them in
 *     order, then runs the whole epilogue. The launch gets `workspace = S` and `reduce =
 *     @<kernel>_reduce`; the metadata allocates the workspace as a temp buffer.
 *  6. reduce=last-slice (deterministic, and one launch: no zero kernel, no second kernel;
 *     any epilogue): the kernel gets an f32 workspace [S + 1, <result shape>]. Each slice
 *     stores its partial tile to slice pid_k as in 5, then `tile.arrive`s at the counter
 *     of its output tile (word S * numel + tile index: the workspace's last slice holds
 *     the counters); under `scf.if` of its result the last slice to arrive loads the S
 *     partial tiles, adds them in order and runs the whole epilogue. The counters start at
 *     zero (the runtime zeroes temps) and the last slice puts its back. The launch gets
 *     `workspace = S` and `counters`.
 *  7. reduce=cluster (sm_90; deterministic, one launch, no zero kernel or workspace, any
 *     epilogue; S at most the `cluster` option, 8): the S slices of a tile are S
 *     consecutive programs of one thread-block cluster along x - the grid [X, S] becomes
 *     [X S, 1], program ids x / S (the tile) and x mod S (the slice) - and right after the
 *     K loop `tile.cluster_reduce` sums their accumulators through distributed shared
 *     memory (each block adds 1/S of the tile's rows over the cluster and writes the sums
 *     back to every block); slice 0 alone stores the epilogue's result. The launch gets
 *     `cluster = S`. Under step 2's floor but past the cluster form's (2000 ns less: no zero
 *     kernel), tiles of at most 32 rows filling at most half the SMs split in pairs (step
 *     2e). reduce=auto takes it (step 2d) for tiles of at most 32 rows
 *     (AUTO_CLUSTER_ROWS) split at most AUTO_CLUSTER_SLICES ways, and (step 2f) for
 *     taller tiles split 4 ways or more whose clusters of 4 fill at most three quarters
 *     of the SMs with short slices, where the grid is static; tt-translate
 *     passes cluster=1 (none) below sm_90. Not where --tile's multicast already runs
 *     the column tiles as clusters (an error for reduce=cluster; auto skips it).
 */
#include "tt.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Step 1 (--tile's defaults for the target of option sm). */
static bool tileUntiledDots(MlirModule module, int64_t sm) {
  TtPassOptions defaults;
  char opts[16];
  snprintf(opts, sizeof opts, "sm=%lld", (long long)sm);
  if (!ttPassParseOptions(ttPassLookup("tile"), opts, &defaults))
    return false;
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    char kind[16] = "";
    if (ttOpIs(op, "func.func") && ttOpAttrStr(op, "prim.fusion", kind, sizeof kind) &&
        strcmp(kind, "dot") == 0 && mlirAttributeIsNull(ttOpAttr(op, "tile.launch")) &&
        !ttTileDotFusion(op, &defaults))
      return false;
  }
  return true;
}

/* A set of values that depend on the accumulator (the epilogue's forward slice). */
typedef struct {
  MlirValue v[256];
  int n;
} Slice;

static bool inSlice(const Slice *s, MlirValue v) {
  for (int i = 0; i < s->n; i++)
    if (mlirValueEqual(s->v[i], v))
      return true;
  return false;
}

/* Step 3: checks the ops after `loop` in program order; each op using the slice is linear
 * in it, or `*bad` names the first that is not. Collects the sums whose other operand
 * slice 0 alone must add (at most 16) and the store. */
typedef struct {
  MlirOperation op;
  int other; /* the operand that does not depend on the accumulator */
} Sum;

static bool linearEpilogue(MlirOperation loop, MlirOperation *bad, Sum *adds, int *nadds,
                           MlirOperation *store) {
  Slice s = {{mlirOperationGetResult(loop, 0)}, 1};
  *nadds = 0;
  for (MlirOperation op = mlirOperationGetNextInBlock(loop); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    int uses = 0, at = -1;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
      if (inSlice(&s, mlirOperationGetOperand(op, i))) {
        uses++;
        at = (int)i;
      }
    if (!uses)
      continue;
    bool sum = ttOpIs(op, "arith.addf") || ttOpIs(op, "arith.subf");
    /* a rounding to fp8 is not: slices' partial sums would each round to 3 or 2 bits
     * (and there is no fp8 atomic add) */
    bool fp8 = mlirOperationGetNumResults(op) == 1 &&
               ttTypeIsFp8(ttElementType(mlirValueGetType(mlirOperationGetResult(op, 0))));
    bool linear = (ttOpIs(op, "arith.truncf") && !fp8) || ttOpIs(op, "arith.extf") ||
                  ttOpIs(op, "tensor.collapse_shape") || ttOpIs(op, "arith.negf") ||
                  ((ttOpIs(op, "arith.mulf") || (ttOpIs(op, "arith.divf") && at == 0)) &&
                   uses == 1) ||
                  (sum && uses == 2);
    if (ttOpIs(op, "tile.store") && uses == 1 && at == 2) {
      *store = op;
      return true;
    }
    if (sum && uses == 1 && *nadds < 16) {
      adds[(*nadds)++] = (Sum){op, 1 - at};
      linear = true;
    }
    if (!linear || s.n == 256) {
      *bad = op;
      return false;
    }
    s.v[s.n++] = mlirOperationGetResult(op, 0);
  }
  *bad = loop;
  return false;
}

/* Steps 4-5: the launch's grid[1] = S, and zero_result (4) or the workspace and the
 * reduce kernel (5, when reduce names it). */
/* The launch's grid [x, y, its z] for `split` slices: a symbolic grid's planned size
 * (--tile's `programs`) grows with it. x = 0 keeps the grid's x. */
static void splitGrid(MlirOperation fusion, int64_t x, int64_t y, int64_t split) {
  MlirContext ctx = mlirOperationGetContext(fusion);
  MlirAttribute grid =
      mlirDictionaryAttrGetElementByName(ttOpAttr(fusion, "tile.launch"), ttStrRef("grid"));
  char gx[32], gy[32];
  snprintf(gx, sizeof gx, "%lld", (long long)x);
  snprintf(gy, sizeof gy, "%lld", (long long)y);
  MlirAttribute g[3] = {x ? ttStrAttr(ctx, gx) : mlirArrayAttrGetElement(grid, 0),
                        ttStrAttr(ctx, gy), mlirArrayAttrGetElement(grid, 2)};
  ttLaunchSet(fusion, "grid", mlirArrayAttrGet(ctx, 3, g));
  MlirAttribute planned =
      mlirDictionaryAttrGetElementByName(ttOpAttr(fusion, "tile.launch"), ttStrRef("programs"));
  if (!mlirAttributeIsNull(planned) && mlirAttributeIsAInteger(planned))
    ttLaunchSet(fusion, "programs", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64),
                                                       mlirIntegerAttrGetValueInt(planned) * split));
}

static void relaunch(MlirOperation fusion, int64_t split, const char *reduce, bool counters) {
  MlirContext ctx = mlirOperationGetContext(fusion);
  splitGrid(fusion, 0, split, split);
  if (reduce) {
    ttLaunchSet(fusion, "workspace", ttIntAttr(ctx, split, ttI32(ctx)));
    ttLaunchSet(fusion, "reduce", mlirFlatSymbolRefAttrGet(ctx, ttStrRef(reduce)));
  } else if (counters) {
    ttLaunchSet(fusion, "workspace", ttIntAttr(ctx, split, ttI32(ctx)));
    ttLaunchSet(fusion, "counters", mlirUnitAttrGet(ctx));
  } else
    ttLaunchSet(fusion, "zero_result", mlirUnitAttrGet(ctx));
}

/* Step 5 helpers ------------------------------------------------------------------- */

/* The tensor.collapse_shape of the loop's accumulator, and the result's tile.store. */
static bool epilogueEnds(MlirOperation loop, MlirOperation *collapse, MlirOperation *store) {
  *collapse = *store = (MlirOperation){NULL};
  for (MlirOperation op = mlirOperationGetNextInBlock(loop); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (ttOpIs(op, "tensor.collapse_shape") &&
        mlirValueEqual(mlirOperationGetOperand(op, 0), mlirOperationGetResult(loop, 0)))
      *collapse = op;
    if (ttOpIs(op, "tile.store"))
      *store = op;
  }
  return !mlirOperationIsNull(*collapse) && !mlirOperationIsNull(*store);
}

/* `offsets + splat(shift)` before `at` (shift an i32). */
static MlirValue shifted(MlirOperation at, MlirValue offsets, MlirValue shift) {
  MlirBlock block = mlirOperationGetBlock(at);
  TtBuilder b = {block, at};
  MlirLocation loc = mlirOperationGetLocation(at);
  MlirValue splat = ttBuild(&b, "tile.splat", loc, 1, &shift, mlirValueGetType(offsets), 0, NULL);
  return ttBinary(&b, loc, "arith.addi", offsets, splat);
}

/* Moves the ops after `loop` that `v` depends on to before `at` (they do not depend on
 * the loop), keeping their order. */
static void hoistSlice(MlirOperation loop, MlirValue v, MlirOperation at) {
  if (!mlirValueIsAOpResult(v))
    return;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!mlirBlockEqual(mlirOperationGetBlock(def), mlirOperationGetBlock(loop)) ||
      mlirOperationIsBeforeInBlock(def, at))
    return;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(def); i++)
    hoistSlice(loop, mlirOperationGetOperand(def, i), at);
  mlirOperationMoveBefore(def, at);
}

/* Partial tiles the sum below loads before it adds them: at most this many f32 elements
 * of the accumulator's tile in flight, 128 registers a thread at 128 threads. One slice a
 * step waited out a load's latency per slice (H200, 64 x 1024 x 8192 f16, S = 16: the
 * last slice's sum cost ~7 us; bench/2026-11-27-h200-last-slice.md). */
#define SUM_INFLIGHT_ELEMENTS (128 * 128)
#define SUM_MAX_UNROLL 16

/* The S partial tiles of workspace ws (f32 [S, numel]) at offsets under mask, loaded and
 * added in slice order (the same sums on every run), built at b. Each step of the loop
 * loads U slices (the largest divisor of S, at most SUM_MAX_UNROLL, with U tiles within
 * SUM_INFLIGHT_ELEMENTS),
 * then adds them in order: the U loads are in flight together. */
static MlirValue sumSlices(TtBuilder *b, MlirLocation loc, MlirValue ws, MlirValue offsets,
                           MlirValue mask, MlirType accT, int64_t split, int64_t numel) {
  MlirType i32 = ttI32(mlirLocationGetContext(loc));
  int64_t tile = ttTensorNumel(accT), unroll = 1;
  for (int64_t u = 2; u <= split && u <= SUM_MAX_UNROLL && u * tile <= SUM_INFLIGHT_ELEMENTS; u++)
    if (split % u == 0)
      unroll = u;
  MlirValue zero = ttConstSplat(b, loc, accT, 0.0);
  MlirOperation sum = ttBuildFor(b, loc, ttConstInt(b, loc, i32, 0),
                                 ttConstInt(b, loc, i32, split * numel),
                                 ttConstInt(b, loc, i32, unroll * numel), 1, &zero);
  MlirBlock sb = ttForBody(sum);
  TtBuilder in = ttBuilderAtEnd(sb);
  MlirValue iv = mlirBlockGetArgument(sb, 0), other = ttConstSplat(&in, loc, accT, 0.0);
  MlirValue part[SUM_MAX_UNROLL];
  for (int64_t u = 0; u < unroll; u++) {
    MlirValue at = u ? ttBinary(&in, loc, "arith.addi", iv, ttConstInt(&in, loc, i32, u * numel))
                     : iv;
    MlirValue splat = ttBuild(&in, "tile.splat", loc, 1, &at, mlirValueGetType(offsets), 0, NULL);
    MlirValue ld[4] = {ws, ttBinary(&in, loc, "arith.addi", offsets, splat), mask, other};
    part[u] = ttBuild(&in, "tile.load", loc, 4, ld, accT, 0, NULL);
  }
  MlirValue acc = mlirBlockGetArgument(sb, 1);
  for (int64_t u = 0; u < unroll; u++)
    acc = ttBinary(&in, loc, "arith.addf", acc, part[u]);
  ttBuild(&in, "scf.yield", loc, 1, &acc, ttNoType(), 0, NULL);
  return mlirOperationGetResult(sum, 0);
}

/* Steps 5-6: stores the flattened partial tile `flat` to slice pid_k of workspace ws
 * (f32, numel a slice) at the result's offsets under its mask, before `at`. */
static void storePartial(MlirOperation at, MlirValue ws, MlirValue pidK, int64_t numel,
                         MlirValue offsets, MlirValue flat, MlirValue mask) {
  TtBuilder b = {mlirOperationGetBlock(at), at};
  MlirLocation loc = mlirOperationGetLocation(at);
  MlirValue base = ttBinary(&b, loc, "arith.muli", pidK,
                            ttConstInt(&b, loc, ttI32(mlirLocationGetContext(loc)), numel));
  MlirValue st[4] = {ws, shifted(at, offsets, base), flat, mask};
  ttBuild(&b, "tile.store", loc, 4, st, ttNoType(), 0, NULL);
}

/* Steps 5-6: the epilogue's ends (epilogueEnds), and a workspace of `slices` x numel f32
 * that i32 offsets reach; else an error naming the reduce kind. */
static bool workspaceEpilogue(MlirOperation loop, const char *kind, int64_t slices,
                              int64_t numel, MlirOperation *collapse, MlirOperation *store) {
  if (!epilogueEnds(loop, collapse, store)) {
    ttEmitError(loop, "splitk: reduce=%s needs the accumulator flattened "
                      "(tensor.collapse_shape) and stored by one tile.store after the K loop",
                kind);
    return false;
  }
  if (slices * numel > INT32_MAX) {
    ttEmitError(loop, "splitk: reduce=%s needs a workspace of %lld x %lld f32, more than i32 "
                      "offsets reach; use a smaller split-k",
                kind, (long long)slices, (long long)numel);
    return false;
  }
  return true;
}

/* Step 5 for kernel, whose loop is already sliced (pidK); split S, numel the result's
 * element count, ptrArg the position of the workspace pointer. */
static bool twoStage(MlirOperation kernel, MlirOperation reduce, MlirOperation loop,
                     MlirValue pidK, int64_t split, int64_t numel, intptr_t ptrArg) {
  MlirContext ctx = mlirOperationGetContext(kernel);
  MlirOperation collapse, store;
  if (!workspaceEpilogue(loop, "two-stage", split, numel, &collapse, &store))
    return false;
  /* the split kernel: partial tiles to the workspace */
  MlirValue ws = ttKernelInsertArg(kernel, ptrArg, mlirTypeParseGet(ctx, ttStrRef("!tile.ptr<f32>")));
  storePartial(store, ws, pidK, numel, mlirOperationGetOperand(store, 1),
               mlirOperationGetResult(collapse, 0), mlirOperationGetOperand(store, 3));
  mlirOperationDestroy(store);
  ttEraseDead(mlirOperationGetBlock(loop));

  /* the reduce kernel: the slices summed in order, then the epilogue */
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(reduce, 0));
  MlirOperation rloop = ttDotLoop(body);
  epilogueEnds(rloop, &collapse, &store);
  ws = ttKernelInsertArg(reduce, ptrArg, mlirTypeParseGet(ctx, ttStrRef("!tile.ptr<f32>")));
  MlirValue offsets = mlirOperationGetOperand(store, 1), mask = mlirOperationGetOperand(store, 3);
  hoistSlice(rloop, offsets, collapse);
  hoistSlice(rloop, mask, collapse);
  TtBuilder b = {body, collapse};
  MlirValue sum = sumSlices(&b, mlirOperationGetLocation(collapse), ws, offsets, mask,
                            mlirValueGetType(mlirOperationGetResult(collapse, 0)), split, numel);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(collapse, 0), sum);
  mlirOperationDestroy(collapse);
  mlirOperationDestroy(rloop);
  ttEraseDead(body);
  return true;
}

/* Step 6 for kernel, whose loop is already sliced (pidK): the partial tile to slice pid_k
 * of the workspace (f32 [S + 1, numel], ptrArg its pointer's position), tile.arrive at
 * word S * numel + the tile's index, and under scf.if of its result the slices' sum and
 * the epilogue. */
/* Whether step 6 can move loop's epilogue (its ends, as epilogueEnds finds them: collapse
 * and store) under the last slice's scf.if: the accumulator feeds it alone (through the
 * collapse), and nothing but the return follows the store. */
static bool lastSliceForm(MlirOperation loop, MlirOperation store) {
  MlirOperation after = mlirOperationGetNextInBlock(store);
  MlirOpOperand use = mlirValueGetFirstUse(mlirOperationGetResult(loop, 0));
  return !mlirOpOperandIsNull(use) && mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)) &&
         !mlirOperationIsNull(after) && ttOpIs(after, "func.return");
}

static bool lastSlice(MlirOperation kernel, MlirOperation loop, MlirValue pidK, int64_t split,
                      int64_t numel, intptr_t ptrArg) {
  MlirContext ctx = mlirOperationGetContext(kernel);
  MlirType i32 = ttI32(ctx);
  MlirOperation collapse, store;
  if (!workspaceEpilogue(loop, "last-slice", split + 1, numel, &collapse, &store))
    return false;
  if (!lastSliceForm(loop, store)) {
    ttEmitError(loop, "splitk: reduce=last-slice needs the K loop's result used by its "
                      "flattening alone and the kernel to return right after the store");
    return false;
  }
  MlirValue ws = ttKernelInsertArg(kernel, ptrArg, mlirTypeParseGet(ctx, ttStrRef("!tile.ptr<f32>")));
  MlirValue offsets = mlirOperationGetOperand(store, 1), mask = mlirOperationGetOperand(store, 3);
  MlirValue flat = mlirOperationGetResult(collapse, 0);
  hoistSlice(loop, offsets, collapse);
  hoistSlice(loop, mask, collapse);
  MlirBlock body = mlirOperationGetBlock(loop);
  MlirOperation epi = mlirOperationGetNextInBlock(collapse); /* the epilogue's first op */
  storePartial(epi, ws, pidK, numel, offsets, flat, mask);
  TtBuilder b = {body, epi};
  MlirLocation loc = mlirOperationGetLocation(store);
  /* the tile's index: grid axes 0 (tiles) and 2 (batches) */
  MlirNamedAttribute ax0 = ttNamedAttr(ctx, "axis", ttIntAttr(ctx, 0, i32));
  MlirNamedAttribute ax2 = ttNamedAttr(ctx, "axis", ttIntAttr(ctx, 2, i32));
  MlirValue tiles = ttBuild(&b, "tile.num_programs", loc, 0, NULL, i32, 1, &ax0);
  MlirValue tile = ttBinary(&b, loc, "arith.addi",
                            ttBuild(&b, "tile.program_id", loc, 0, NULL, i32, 1, &ax0),
                            ttBinary(&b, loc, "arith.muli",
                                     ttBuild(&b, "tile.program_id", loc, 0, NULL, i32, 1, &ax2),
                                     tiles));
  MlirValue word = ttBinary(&b, loc, "arith.addi", tile, ttConstInt(&b, loc, i32, split * numel));
  MlirNamedAttribute count = ttNamedAttr(ctx, "count", ttIntAttr(ctx, split, i32));
  MlirValue last = ttBuild(&b, "tile.arrive", loc, 2, (MlirValue[]){ws, word},
                           mlirIntegerTypeGet(ctx, 1), 1, &count);
  /* scf.if %last { the sum; the epilogue }: every op from epi to the store moves in */
  MlirRegion regions[2] = {mlirRegionCreate(), mlirRegionCreate()};
  MlirBlock then = mlirBlockCreate(0, NULL, NULL);
  mlirRegionAppendOwnedBlock(regions[0], then);
  MlirOperation ifOp = ttInsert(&b, ttOpCreate("scf.if", loc, 1, &last, 0, NULL, 0, NULL, 2, regions));
  TtBuilder in = ttBuilderAtEnd(then);
  MlirValue sum = sumSlices(&in, loc, ws, offsets, mask, mlirValueGetType(flat), split, numel);
  MlirOperation yield = ttInsert(&in, ttOpCreate("scf.yield", loc, 0, NULL, 0, NULL, 0, NULL, 0, NULL));
  for (MlirOperation op = epi, nx; !mlirOperationIsNull(op); op = nx) {
    nx = mlirOperationGetNextInBlock(op);
    mlirOperationMoveBefore(op, yield);
    if (mlirOperationEqual(op, store))
      break;
  }
  ttReplaceUsesWithin(flat, sum, ifOp);
  return true;
}

/* Step 2b: with split-k=0, a kernel whose epilogue is not linear (an activation) splits
 * (reduce=auto: last-slice, or two-stage where its form does not fit; reduce=atomic:
 * two-stage) when the split is at least this: the grid leaves three quarters of the SMs
 * or more idle, which pays the partial tiles' round trip through the f32 workspace
 * (7 x 1000 x 4100 f16 with a GELU: 16 programs; bench/2026-11-26-h200-odd-shapes.md).
 * Last-slice against two-stage, bias + GELU at M 1-64 over 1024 x 4096, 4096 x 4096 and
 * 3001 x 4100 f16: faster in all 9 cases, 0.76x-0.95x cold (H200,
 * bench/2026-11-27-h200-last-slice.md). */
#define AUTO_TWO_STAGE_SPLIT 4
/* Step 2c: reduce=auto with a linear epilogue sums with last-slice instead of atomics
 * where the tile has at most this many rows and S is at least AUTO_LAST_SLICE_SPLIT: the
 * zero kernel it saves is a fixed ~2-3 us, while the last slice's own sum reads S partial
 * tiles of bm x bn f32 through one SM, small only for decode tiles. H200 cold against
 * atomics (bench/2026-11-27-h200-last-slice.md): 16-row tiles at S = 4-8 0.58x-0.77x
 * (f16 1024 x 4096, fp8 1024 x 4096 and 1024 x 8192), f16 1024 x 8192 1.01x-1.09x cold
 * (0.78x-0.88x warm); at S = 2 no gain (0.89x-1.15x, f16 3584^2, 4096^2, 3001 x 4100);
 * 64-row tiles lose at S = 4-16 (1.05x-1.97x) but for fp8 64 x 1024 (0.91x-0.93x). */
#define AUTO_LAST_SLICE_ROWS 16
#define AUTO_LAST_SLICE_SPLIT 4
/* Step 2d: reduce=auto sums in a thread-block cluster (step 7: no zero kernel, no
 * workspace, any epilogue) where the tile has at most AUTO_CLUSTER_ROWS rows and S is at
 * most AUTO_CLUSTER_SLICES (and the cluster option): a cluster's blocks start together, so
 * S of them need S free SMs of one GPC at once, and the sum waits for the slowest slice;
 * pairs and quads pack, clusters of 8 lost where they did not save much. H200, cold,
 * against atomics (bench/2026-11-27-h200-splitk-cluster.md, medians of 3 rounds): S = 2
 * on 1- and 16-row tiles 0.92x-1.00x (f16 4096^2, 3584^2, 3001 x 4100; fp8 4096^2
 * 0.89x-0.93x); S = 4 fp8 1024 x 4096 0.61x-0.69x; S = 8: f16 1024 x 4096 0.73x-0.75x
 * (last-slice 0.75x-0.84x) but 1024 x 8192 1.13x-1.14x (f16), 1.27x-1.32x (fp8); 64-row
 * tiles 1.04x-1.70x (64 x 4096^2 11.8 -> 18.1 us: 16 KB tiles exchanged between blocks
 * that fill an SM) but 3001 x 4100 0.98x-0.99x. */
#define AUTO_CLUSTER_ROWS 32
#define AUTO_CLUSTER_SLICES 4
/* Step 2e: the cluster sum has no zero kernel, so its floor is lower: a kernel whose
 * unsplit walk falls between floor-ns - CLUSTER_FLOOR_SAVES_NS and floor-ns (no split by
 * step 2's floor) splits 2 ways in a cluster where its tiles have at most
 * AUTO_CLUSTER_ROWS rows and fill at most half the SMs (the zero kernel costs 2-4 us,
 * bench/2026-11-26-h200-zero-kernel.md). H200, cold, against no split
 * (bench/2026-11-27-h200-splitk-cluster.md, run 4; walks 5.0-6.8 us estimated): 0.70x-0.94x
 * on all 10 shapes (f16 16 x 1024 x 1536 6.1 -> 4.3 us, 16 x 2560 x 1920 6.6 -> 5.5, fp8
 * 16 x 3584^2 6.5 -> 5.9); 4 ways won at 16-24 programs (3.3 us) but lost at 32-48
 * (16 x 2048 x 1792 5.8 -> 7.1), so a pair. Not where the grid passes half the SMs
 * (fp8 16 x 6144 x 4096, 96 programs: 8.4 -> 11.1 us in pairs). */
#define CLUSTER_FLOOR_SAVES_NS 2000
/* Step 2f: tiles taller than AUTO_CLUSTER_ROWS (64 rows: M = 33-64 and more) that step 2
 * splits AUTO_CLUSTER_SLICES ways or more sum in clusters of AUTO_CLUSTER_SLICES instead
 * (no zero kernel, no atomics; a smaller split where step 2 chose 8-16) where both hold:
 * the clusters' programs fill at most TALL_CLUSTER_SM_FRACTION of the SMs (every cluster
 * of 4 runs at once: a GPC's SMs are not all a multiple of 4, and a 64-row tile's 16 KB
 * accumulator goes between its blocks), and a slice walks at most TALL_CLUSTER_WALK_BYTES
 * of A and B (the split is smaller, so each slice is longer: ~4.4 us at
 * PROGRAM_BYTES_PER_NS). H200, cold, medians of 3 rounds, 64 x 64 tiles at M = 64
 * against the default (bench/2026-11-28-h200-m64-cluster.md, runs 3-4): slices of 80-160 KB
 * in 32-96 programs 0.73x-0.94x (fp8 512 x 4096, 1024 x 4096, 1536 x 4096); 256 KB mixed
 * (f16 512 x 4096 0.93x, 1024 x 4096 1.03x; fp8 1024 x 8192 0.97x, 768 x 8192 1.08x);
 * 512 KB and more 1.36x-1.54x (f16 K = 8192, 14336); 128 programs 1.28x-1.81x (2048 x
 * 4096 fp8 and f16); past a wave 0.80x-0.96x at 2560^2 but 1.1x-1.7x at 3584^2 and
 * 4096^2 (run 2). The rule against the commit before it (run 4): faster on 24 of the 27
 * cases it changes at M = 48, 64 and 128 (1.01x-1.63x), 0.93x-1.00x on three. */
#define TALL_CLUSTER_ROWS 64 /* measured on 64-row tiles only */
#define TALL_CLUSTER_SM_FRACTION 0.75
#define TALL_CLUSTER_WALK_BYTES (192 << 10)
/* The reduce option's values (lib/pipeline.c's reduceKinds). */
enum { REDUCE_ATOMIC, REDUCE_TWO_STAGE, REDUCE_LAST_SLICE, REDUCE_AUTO, REDUCE_CLUSTER };

/* Step 7's program ids: collected by a walk, rewritten after it. */
typedef struct {
  MlirOperation ops[64];
  int n;
} PidOps;

static bool collectPids(MlirOperation op, void *data) {
  PidOps *p = data;
  if ((ttOpIs(op, "tile.program_id") || ttOpIs(op, "tile.num_programs")) && p->n < 64)
    p->ops[p->n++] = op;
  return true;
}

/* Step 7 (reduce=cluster): the tile's slices are the `split` consecutive programs of one
 * cluster along x: grid [X, S] becomes [X S, 1] (program ids x / S and x mod S), the
 * accumulator after the K loop is summed over the cluster (tile.cluster_reduce), and slice
 * 0 alone stores the epilogue's result. False when the kernel holds more program ids than
 * this rewrites. */
static bool clusterSum(MlirOperation kernel, MlirOperation loop, MlirValue pidK,
                       int64_t split) {
  MlirContext ctx = mlirOperationGetContext(kernel);
  MlirType i32 = ttI32(ctx);
  MlirLocation loc = mlirOperationGetLocation(loop);
  MlirBlock body = mlirOperationGetBlock(loop);
  PidOps pids = {.n = 0};
  ttWalk(kernel, collectPids, &pids);
  if (pids.n == 64)
    return false;
  /* the sum, right after the loop, in place of the accumulator */
  MlirValue acc = mlirOperationGetResult(loop, 0);
  TtBuilder after = {body, mlirOperationGetNextInBlock(loop)};
  MlirNamedAttribute attrs[2] = {ttNamedAttr(ctx, "kind", ttStrAttr(ctx, "sum")),
                                 ttNamedAttr(ctx, "size", ttIntAttr(ctx, split, i32))};
  MlirValue sum = ttBuild(&after, "tile.cluster_reduce", loc, 1, &acc, mlirValueGetType(acc), 2, attrs);
  mlirValueReplaceAllUsesOfWith(acc, sum);
  mlirOperationSetOperand(mlirOpResultGetOwner(sum), 0, acc);
  /* slice 0 stores */
  for (MlirOperation op = mlirOperationGetNextInBlock(mlirOpResultGetOwner(sum)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!ttOpIs(op, "tile.store"))
      continue;
    TtBuilder at = {body, op};
    MlirValue mask = mlirOperationGetOperand(op, 3);
    MlirValue first = ttCmpi(&at, loc, 0, pidK, ttConstInt(&at, loc, i32, 0));
    MlirValue firstTile = ttBuild(&at, "tile.splat", loc, 1, &first, mlirValueGetType(mask), 0, NULL);
    mlirOperationSetOperand(op, 3, ttBinary(&at, loc, "arith.andi", mask, firstTile));
  }
  /* program ids over the flattened grid (pidK's op among them) */
  MlirBlock kbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  TtBuilder top = {kbody, mlirBlockGetFirstOperation(kbody)};
  MlirNamedAttribute ax0 = ttNamedAttr(ctx, "axis", ttIntAttr(ctx, 0, i32));
  MlirValue pid = ttBuild(&top, "tile.program_id", loc, 0, NULL, i32, 1, &ax0);
  MlirValue s = ttConstInt(&top, loc, i32, split);
  MlirValue tileId = ttBinary(&top, loc, "arith.divui", pid, s), slice = ttBinary(&top, loc, "arith.remui", pid, s);
  MlirValue tiles = {NULL}; /* grid x / S, where a tile.num_programs reads it */
  for (int i = 0; i < pids.n && mlirValueIsNull(tiles); i++)
    if (ttOpIs(pids.ops[i], "tile.num_programs") && ttOpAttrInt(pids.ops[i], "axis", -1) == 0)
      tiles = ttBinary(&top, loc, "arith.divui",
                       ttBuild(&top, "tile.num_programs", loc, 0, NULL, i32, 1, &ax0), s);
  for (int i = 0; i < pids.n; i++) {
    int64_t axis = ttOpAttrInt(pids.ops[i], "axis", -1);
    if (axis != 0 && axis != 1)
      continue;
    bool isPid = ttOpIs(pids.ops[i], "tile.program_id");
    MlirValue with = isPid ? (axis == 0 ? tileId : slice) : (axis == 0 ? tiles : s);
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(pids.ops[i], 0), with);
    mlirOperationDestroy(pids.ops[i]);
  }
  return true;
}

/* Step 7's launch: grid [X S, 1, Z] in clusters of S along x. */
static void clusterLaunch(MlirOperation fusion, int64_t split, int64_t x) {
  splitGrid(fusion, x * split, 1, split);
  ttLaunchSet(fusion, "cluster", ttIntAttr(mlirOperationGetContext(fusion), split,
                                           mlirIntegerTypeGet(mlirOperationGetContext(fusion), 64)));
}


/* Elements of the fused function's (first) result; -1 when a dim is dynamic. */
static int64_t resultNumel(MlirOperation fusion) {
  MlirType ft = mlirTypeAttrGetValue(ttOpAttr(fusion, "function_type"));
  return ttTensorNumel(mlirFunctionTypeGetResult(ft, 0));
}

/* The dot tile of a kernel: --tile's block sizes as recorded in `tile.geometry`, and the
 * bytes of an element of the dot's A operand (fp8: 1); eb = 0 where not known. */
typedef struct {
  int64_t bm, bn, bk, eb;
} DotTile;

static DotTile dotTile(MlirOperation kernel, MlirOperation loop) {
  DotTile t = {0, 0, 0, 0};
  char geo[256] = "";
  TtPassOptions o; /* tile.geometry is --tile's options as the tile was made */
  TtStr err = {0};
  bool parsed = ttOpAttrStr(kernel, "tile.geometry", geo, sizeof geo) &&
                ttPassParseOptionsTo(ttPassLookup("tile"), geo, &o, &err);
  ttStrDestroy(&err);
  if (!parsed)
    return t;
  for (MlirOperation x = mlirBlockGetFirstOperation(ttForBody(loop)); !mlirOperationIsNull(x);
       x = mlirOperationGetNextInBlock(x))
    if (ttOpIs(x, "tile.dot"))
      t.eb = ttDtypeBytes(ttElementType(mlirValueGetType(mlirOperationGetOperand(x, 0))));
  t.bm = o.v[TT_TILE_BLOCK_M], t.bn = o.v[TT_TILE_BLOCK_N], t.bk = o.v[TT_TILE_BLOCK_K];
  return t;
}

/* R of step 2 (kernel and its K loop), where the tiles alone fill at most half the SMs (more tiles: a second
 * program an SM brings no better balance, measured no gain at 80-128 tiles): the programs
 * of a kernel one SM holds at once. Two where the kernel has
 * 64-row tiles (or taller) on TMA rings whose three stages fit half an SM's shared memory
 * (--pipeline then gives a grid past one wave three stages for two blocks an SM): a second
 * program's loads then run through the first's prologue and atomic epilogue. One
 * otherwise: the 16- and 32-row tiles of decode stream their weights at one program an SM
 * (H100, 16 x 8192 x 8192 above). Measured (64-row tiles, split-K over two programs an SM
 * against one wave, cold, H100): 64 x 2560 x 2560 1.21x, 64 x 3584 x 3584 1.10x, 64 x
 * 4096 x 4096 1.03-1.04x, 64 x 1024 x 8192 1.07x, f16, bf16 and fp8 alike
 * (bench/2026-11-26-h100-splitk-resident.md). 1 where the tile is not known. */
static int64_t residentPrograms(const DotTile *t) {
  int64_t ring = 3 * (t->bm + t->bn) * t->bk * t->eb;
  return t->bm >= 64 && ring > 0 && ring <= ttTargetSmemTwoBlocks(ttTargetDefault()) ? 2 : 1;
}

/* Whether an unsplit program's walk over K takes longer than the split form's floor
 * (`floor-ns`: a launch with its zero kernel and atomics), so that a split can pay (step
 * 2's floor). Below the floor every split loses: the unsplit kernel ends first. A
 * program streams its A and B tiles along K, (bm + bn) * K * eb bytes, at about
 * PROGRAM_BYTES_PER_NS (latency-bound: one SM's ring in flight). From H100 cold decode
 * GEMMs, f16, unsplit (bench/2026-11-26-h100-splitk-floor.md): 16 x 64 tiles 42-49 GB/s
 * (K = 1536-8960), 64 x 64 tiles 54-68; split launches 5.6-8.3 us under 9 MB of weights
 * (median 7.0). At K = 896 and 1536 (16-row tiles) the unsplit kernel won, up to 1.8x; at
 * 2048 the two tie (16-row tiles, 328 KB: 6.6 us estimated) and the split wins for
 * 64-row tiles (524 KB: 1.3x); past that the split wins. The floor against the rule
 * without it, cold, the 39 cases of 276 it changes (f16, bf16, fp8, M 1-128): every one
 * faster, H100 1.04x-2.32x, H200 1.01x-2.17x (same launch costs, latency-bound walks). */
#define PROGRAM_BYTES_PER_NS 45.0 /* 45 GB/s */
static bool walkPastFloor(const DotTile *t, int64_t k, int64_t floorNs) {
  if (floorNs == 0 || t->eb == 0)
    return true;
  return (double)((t->bm + t->bn) * k * t->eb) / PROGRAM_BYTES_PER_NS > (double)floorNs;
}

/* Whether S slices of `steps` K steps may take a grid past one wave (two programs an SM):
 * only slices of more than two steps on average; shorter ones spend their time filling the
 * ring (H100 cold, split past one wave against within it: 64 x 1024 x 4096 f16, 2 steps a
 * slice: 0.90x; fp8 2560 x 2560 at 2.5: 1.11x; fp8 3584 x 3584 at 3.5: 1.11x; 64 x 1024 x
 * 8192 f16 at 4: 1.07x). */
static bool deepSlicesPastWave(int64_t steps, int64_t split) { return steps > 2 * split; }

int64_t ttSplitKShapeSplit(int64_t bm, int64_t bn, int64_t bk, int64_t eb, int64_t k,
                           int64_t programs, int64_t sms, int64_t floorNs) {
  DotTile t = {bm, bn, bk, eb};
  if (bk <= 0 || !walkPastFloor(&t, k, floorNs))
    return 0;
  int64_t steps = (k + bk - 1) / bk, split = 1;
  int64_t slots = programs * 2 <= sms ? sms * residentPrograms(&t) : sms;
  while (programs * split * 2 <= slots && steps / (split * 2) >= 2 &&
         (programs * split * 2 <= sms || deepSlicesPastWave(steps, split * 2)))
    split *= 2;
  return split;
}

/* Records step 2's choice on the kernel (`tile.split_k`), so that a later run of the pass
 * (tt-translate's, after an explicit split-k=1) leaves it as it is. */
static void decided(MlirOperation kernel, int64_t split) {
  MlirContext ctx = mlirOperationGetContext(kernel);
  mlirOperationSetAttributeByName(kernel, ttStrRef("tile.split_k"),
                                  ttIntAttr(ctx, split, ttI32(ctx)));
}

/* Steps 2-6 for one kernel. */
static bool splitKernel(MlirModule module, const TtModuleIndex *index, MlirOperation kernel,
                        int64_t option, int64_t sms, int64_t reduceKind, int64_t floorNs,
                        int64_t maxCluster) {
  bool twoStageOpt = reduceKind == REDUCE_TWO_STAGE, useLast = reduceKind == REDUCE_LAST_SLICE;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  MlirOperation loop = ttDotLoop(body);
  if (mlirOperationIsNull(loop) || !mlirAttributeIsNull(ttOpAttr(kernel, "tile.split_k")))
    return true;
  char name[128] = "";
  ttOpAttrStr(kernel, "sym_name", name, sizeof name);
  MlirOperation fusion = ttModuleIndexLauncher(index, name);
  int64_t lb = ttConstIntValue(mlirOperationGetOperand(loop, 0));
  int64_t k = ttConstIntValue(mlirOperationGetOperand(loop, 1));
  int64_t step = ttConstIntValue(mlirOperationGetOperand(loop, 2));
  if (mlirOperationIsNull(fusion) || lb != 0 || k <= 0 || step <= 0) {
    ttEmitError(loop, "splitk: the K loop of @%s must run from 0 to a constant K with a "
                      "constant step, and its kernel must be launched by a fused function",
                name);
    return false;
  }
  int64_t programs = ttLaunchProgramsExact(fusion), steps = (k + step - 1) / step;

  /* Step 2 (a grid sized at run time, a dynamic M's bucket whose tile rows vary with M:
   * no split from the shape; a given split-k still applies). */
  int64_t split = option;
  if (split == 0 && programs < 0) {
    decided(kernel, 1);
    return true;
  }
  programs = programs < 0 ? 1 : programs;
  DotTile tile = dotTile(kernel, loop);
  if (split == 0) /* (0: under the floor) */
    split = ttSplitKShapeSplit(tile.bm, tile.bn, step, tile.eb, k, programs, sms, floorNs);
  bool useCluster = reduceKind == REDUCE_CLUSTER;
  /* the cluster sums the loop's one result, the accumulator, and needs the grid's size */
  int64_t gridX = mlirOperationGetNumResults(loop) == 1 ? ttLaunchGridExtent(fusion, 0) : -1;
  /* not where --tile's multicast already runs the tiles as clusters */
  bool multicast = ttOpAttrInt(kernel, "tile.multicast", 1) > 1;
  if (useCluster && multicast) {
    ttEmitError(loop, "splitk: reduce=cluster cannot sum a kernel whose tiles run as "
                      "clusters sharing an operand's tile (--tile multicast)");
    return false;
  }
  /* what step 2d's cluster takes: tiles of up to AUTO_CLUSTER_ROWS rows on a static grid */
  bool autoCluster = reduceKind == REDUCE_AUTO && maxCluster >= 2 && gridX >= 1 &&
                     tile.bm > 0 && tile.bm <= AUTO_CLUSTER_ROWS && !multicast;
  /* step 2e: under the floor but past the cluster sum's, a pair in a cluster */
  if (split == 0 && autoCluster && programs * 2 <= sms && steps >= 4 &&
      floorNs > CLUSTER_FLOOR_SAVES_NS && walkPastFloor(&tile, k, floorNs - CLUSTER_FLOOR_SAVES_NS))
    split = 2;
  split = split < 1 ? 1 : split > steps ? steps : split;
  if (useCluster && (split > maxCluster || gridX < 1)) {
    if (option != 0 || maxCluster < 2) {
      ttEmitError(loop, "splitk: reduce=cluster needs split-k of at most the cluster option "
                        "(%lld; 1: a target without clusters), a grid of static size "
                        "(thread-block clusters along x) and a K loop whose one result is "
                        "the accumulator", (long long)maxCluster);
      return false;
    }
    if (split > maxCluster)
      split = maxCluster;
    if (gridX < 1)
      useCluster = false, reduceKind = REDUCE_AUTO;
  }
  /* step 2d: auto takes cluster for tiles of up to AUTO_CLUSTER_ROWS rows split into at
   * most AUTO_CLUSTER_SLICES slices */
  if (autoCluster && split > 1 && split <= maxCluster && split <= AUTO_CLUSTER_SLICES)
    useCluster = true;
  /* step 2f: taller tiles split 4 ways or more, in clusters of 4 where they pay */
  int64_t tallSlice = (steps + AUTO_CLUSTER_SLICES - 1) / AUTO_CLUSTER_SLICES * step;
  if (reduceKind == REDUCE_AUTO && option == 0 && !useCluster && !multicast && gridX >= 1 &&
      tile.bm > AUTO_CLUSTER_ROWS && tile.bm <= TALL_CLUSTER_ROWS && tile.eb > 0 && maxCluster >= AUTO_CLUSTER_SLICES &&
      split >= AUTO_CLUSTER_SLICES &&
      (double)(programs * AUTO_CLUSTER_SLICES) <= TALL_CLUSTER_SM_FRACTION * (double)sms &&
      (tile.bm + tile.bn) * tallSlice * tile.eb <= TALL_CLUSTER_WALK_BYTES)
    split = AUTO_CLUSTER_SLICES, useCluster = true;
  MlirOperation bad = {NULL}, store = {NULL};
  Sum adds[16];
  int nadds = 0;
  bool useTwoStage = twoStageOpt, autoKind = reduceKind == REDUCE_AUTO && !useCluster;
  if (split > 1 && !useCluster && (reduceKind == REDUCE_ATOMIC || autoKind)) {
    MlirOperation collapse, last;
    int64_t numel = resultNumel(fusion);
    bool ends = epilogueEnds(loop, &collapse, &last);
    bool lastFits = ends && numel > 0 && (split + 1) * numel <= INT32_MAX &&
                    lastSliceForm(loop, last);
    if (!linearEpilogue(loop, &bad, adds, &nadds, &store)) {
      if (option != 0 && !autoKind) {
        char what[64];
        bool fp8 = mlirOperationGetNumResults(bad) == 1 &&
                   ttTypeIsFp8(ttElementType(mlirValueGetType(mlirOperationGetResult(bad, 0))));
        ttEmitError(bad, "splitk: split-k=%lld needs an epilogue linear in the accumulator "
                         "(converts, scales, bias adds); '%s'%s is not",
                    (long long)option, ttOpName(bad, what, sizeof what),
                    fp8 ? " (a rounding to fp8: each slice would round)" : "");
        return false;
      }
      /* step 2b */
      if (option == 0 && (split < AUTO_TWO_STAGE_SPLIT || !ends || split * numel > INT32_MAX)) {
        decided(kernel, 1);
        return true;
      }
      useLast = autoKind && lastFits;
      useTwoStage = !useLast;
    } else if (autoKind && lastFits && tile.bm > 0 && tile.bm <= AUTO_LAST_SLICE_ROWS &&
               split >= AUTO_LAST_SLICE_SPLIT) {
      useLast = true; /* step 2c */
    }
  }
  if (split <= 1) {
    decided(kernel, 1);
    return true;
  }

  if ((useTwoStage || useLast) && resultNumel(fusion) < 0) { /* the workspace is sized here */
    if (option == 0 && (reduceKind == REDUCE_ATOMIC || autoKind)) {
      decided(kernel, 1);
      return true; /* (step 2b's choice: no split) */
    }
    ttEmitError(loop, "splitk: reduce=%s needs a result of static shape (its f32 "
                      "workspace is sized when compiling); this one has a dynamic dimension%s",
                useLast ? "last-slice" : "two-stage",
                autoKind ? " (reduce=auto takes it for an epilogue atomics cannot add)" : "");
    return false;
  }

  /* Step 4 (and 5: the reduce kernel is a copy of the kernel as it was). */
  MlirContext ctx = mlirOperationGetContext(kernel);
  MlirLocation loc = mlirOperationGetLocation(loop);
  MlirType i32 = ttI32(ctx);
  MlirOperation reduce = {NULL};
  char rname[160];
  if (useTwoStage) {
    reduce = mlirOperationClone(kernel);
    snprintf(rname, sizeof rname, "%s_reduce", name);
    mlirOperationSetAttributeByName(reduce, ttStrRef("sym_name"), ttStrAttr(ctx, rname));
    mlirBlockInsertOwnedOperationAfter(mlirModuleGetBody(module), kernel, reduce);
  }
  TtBuilder b = {body, loop};
  MlirNamedAttribute axis = ttNamedAttr(ctx, "axis", ttIntAttr(ctx, 1, i32));
  MlirValue pidK = ttBuild(&b, "tile.program_id", loc, 0, NULL, i32, 1, &axis);
  MlirValue slice = ttConstInt(&b, loc, i32, (steps + split - 1) / split * step);
  MlirValue begin = ttBinary(&b, loc, "arith.muli", pidK, slice);
  MlirValue end = ttBinary(&b, loc, "arith.minsi", ttBinary(&b, loc, "arith.addi", begin, slice),
                           mlirOperationGetOperand(loop, 1));
  /* the bounds, in the loop's operands and the ops in its body that read them (--tile's
   * k-stagger) */
  ttReplaceUsesWithin(mlirOperationGetOperand(loop, 0), begin, loop);
  ttReplaceUsesWithin(mlirOperationGetOperand(loop, 1), end, loop);
  if (useTwoStage) {
    MlirType ft = mlirTypeAttrGetValue(ttOpAttr(fusion, "function_type"));
    if (!twoStage(kernel, reduce, loop, pidK, split, resultNumel(fusion),
                  mlirFunctionTypeGetNumInputs(ft) + 1))
      return false;
    decided(kernel, split);
    relaunch(fusion, split, rname, false);
    return true;
  }
  if (useCluster) { /* step 7 */
    if (!clusterSum(kernel, loop, pidK, split)) {
      ttEmitError(loop, "splitk: reduce=cluster rewrites at most 63 program ids of a kernel");
      return false;
    }
    decided(kernel, split);
    clusterLaunch(fusion, split, gridX);
    return true;
  }
  if (useLast) { /* step 6 */
    MlirType ft = mlirTypeAttrGetValue(ttOpAttr(fusion, "function_type"));
    if (!lastSlice(kernel, loop, pidK, split, resultNumel(fusion),
                   mlirFunctionTypeGetNumInputs(ft) + 1))
      return false;
    decided(kernel, split);
    relaunch(fusion, split, NULL, true);
    return true;
  }
  /* sums: slice 0 alone adds the other operand */
  MlirValue first = ttCmpi(&b, loc, 0, pidK, ttConstInt(&b, loc, i32, 0));
  for (int i = 0; i < nadds; i++) {
    TtBuilder at = {body, adds[i].op};
    MlirValue y = mlirOperationGetOperand(adds[i].op, adds[i].other);
    MlirType t = mlirValueGetType(y);
    MlirValue sel[3] = {first, y, ttConstSplat(&at, loc, t, 0.0)};
    mlirOperationSetOperand(adds[i].op, adds[i].other,
                            ttBuild(&at, "arith.select", loc, 3, sel, t, 0, NULL));
  }
  MlirValue st[4];
  for (int i = 0; i < 4; i++)
    st[i] = mlirOperationGetOperand(store, i);
  TtBuilder at = {body, store};
  int64_t numel = resultNumel(fusion); /* static: the lowering may add -0.0 up to it */
  MlirNamedAttribute extent = ttNamedAttr(ctx, "tile.extent",
                                          ttIntAttr(ctx, numel, mlirIntegerTypeGet(ctx, 64)));
  ttBuild(&at, "tile.atomic_add", loc, 4, st, ttNoType(), numel > 0 && numel <= INT32_MAX,
          &extent);
  mlirOperationDestroy(store);
  decided(kernel, split);
  relaunch(fusion, split, NULL, false);
  return true;
}

bool ttSplitKPass(MlirModule module, const TtPassOptions *opts) {
  if (!tileUntiledDots(module, opts->v[TT_SPLITK_SM]))
    return false;
  /* the launchers, indexed once (the reduce kernels added below have none to look up) */
  TtModuleIndex index;
  ttModuleIndexInit(&index, module);
  MlirBlock body = mlirModuleGetBody(module);
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op) && ok;
       op = mlirOperationGetNextInBlock(op))
    if (ttOpIs(op, "func.func") && !mlirAttributeIsNull(ttOpAttr(op, "tile.kernel"))) {
      TtPassOptions o = ttTunedOptions(op, "splitk", opts); /* a tuning cache's, where used */
      ok = splitKernel(module, &index, op, o.v[TT_SPLITK_SPLIT_K], o.v[TT_SPLITK_NUM_SMS],
                       o.v[TT_SPLITK_REDUCE], o.v[TT_SPLITK_FLOOR_NS], o.v[TT_SPLITK_CLUSTER]);
    }
  ttModuleIndexDestroy(&index);
  return ok;
}
