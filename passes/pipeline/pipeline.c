/* pipeline.c - the --pipeline pass: software pipelining of a dot kernel's K loop (and,
 * under row-loads=1, of the staged row form's chunk loops that load from global memory).
 *
 * Without it, each step of the K loop loads its A and B tiles and then waits for them
 * before the tile.dot: per program, memory and tensor cores take turns. With num-stages =
 * S, the loads of step i + S - 1 are issued at the top of step i, so S - 1 steps of loads
 * are in flight while step i computes. The tiles in flight wait in one of three places
 * (option stage-in; registers by default: on an H100 the shared form was slower at every
 * decode shape swept - 16x8192x8192 f16, split-k 2: 63.4 us against 60.2; 64x28672x8192:
 * 223.9 against 188.4 - since under the 48 KiB static limit only 2 stages of the default
 * tiles fit; bench/2026-11-23-h100-pipeline.md. The TMA form, sm_90a, beat both: 64 x 8192
 * x 8192 52.3 us against 66.0 in registers; stage-in=auto, tt-translate's choice there,
 * takes it wherever the loop qualifies and registers elsewhere):
 *  - shared: each loaded operand gets a ring of S shared-memory slots (tile.local_alloc);
 *    its loads become tile.async_copy (cp.async) into slot (i + S - 1) % S, one group per
 *    step (tile.async_commit), and the tile.dot reads slot i % S (tile.local_load) after a
 *    tile.async_wait that leaves S - 2 groups in flight. No registers hold tiles in flight
 *    and the dot needs no staging copy. It needs every load to feed only tile.dot operands
 *    (through tensor.expand_shape and tile.trans) and the ring to fit in shared memory.
 *  - registers: the loaded tiles are carried by the loop (the lowering keeps scf.for's
 *    carried tiles in registers) and staged into shared memory by each tile.dot.
 *  - tma (sm_90a): like shared, but each operand box is one hopper.tma_load into a ring of
 *    128-byte-swizzled slots that completes on an mbarrier per slot (hopper.mbarrier_wait
 *    with the slot's phase), and wgmma reads the slot in place (forms.c: plTmaForm, plWgmmaTile). Its
 *    resident form: an operand whose rows TMA cannot stride (A read in place past a K
 *    pad, `tile.carry`) on dot tiles of at most 64 rows is copied whole - the program's K
 *    range, one swizzled slot a step - into shared memory once, before the loop (step
 *    2b), and the loop waits on the other operand's ring alone (forms.c, plTmaForm). Its
 *    mixed form, where that does not fit (f16/bf16, or option resident=0): the operand
 *    is carried in registers as in the registers form, beside the other's ring, and the
 *    dot stages it (Rings.ring). Its streamed form (resident=2, not a default: slower,
 *    bench/2026-11-30-h200-resident.md run 3): a ring laid out as a TMA ring that
 *    cp.async fills each step (Rings.copied), a commit after each step's refill and a
 *    wait for slot i's group at the top of step i.
 *
 * Algorithm, for each tile kernel with a K loop (ttDotLoop) and S >= 2:
 *  1. The *load slice*: the loop body's tile.load ops and the body ops they depend on
 *     (offsets and masks, computed from the induction variable k). Choose the form: shared
 *     when asked for and every load feeds only dot operands; S = num-stages, or for 0 the
 *     largest S in 2..4 whose rings fit in 48 KiB (and the accumulator's scratch, which
 *     reuses them after the loop; registers with S = 2 when none fits).
 *  2. Prologue, before the loop: for j = 0 .. S-2, a copy of the slice at k = lb + j * step,
 *     each load's mask and-ed with `k < ub` (a loop shorter than S - 1 steps loads nothing
 *     past its end); shared: into slot j, then a commit.
 *  2b. The resident form: a loop over the same range copies each resident operand's
 *     tile at k into slot (k - lb) / step of its `tile.swizzled` buffer (tile.async_copy),
 *     then a commit and a wait for all; the weight's first boxes are already in flight.
 *  3. A new loop over the same range. Its body: shared: i = (k - lb) / step and a wait
 *     (pending S - 2), then a copy of the slice at k + (S - 1) * step (masked the same
 *     way) into slot (i + S - 1) % S and a commit, then the old body with each load's 2-D
 *     operand view replaced by a tile.local_load of slot i % S. A resident operand's view becomes a tile.local_load of
 *     slot i of its buffer. Registers: the loop
 *     carries the old loop's values and S - 1 tiles per load; the slice copy's loads are
 *     yielded, and each old load's result is replaced by its oldest carried tile (the
 *     carried tiles shift by one each step).
 *  4. The old loop's results are replaced by the new loop's; the old loop is erased; in
 *     the shared form a wait with pending 0 follows the loop (no copy outlives it). Dots
 *     that now read slots get their `mma` form again (ttDotRecordMmaForm: a cp.async slot
 *     means mma.sync; fp8 TMA slots run fp8 wgmma). The kernel gets `tile.num_stages = S` (also for S = 1, which changes nothing else), and a
 *     kernel that has it is left alone: tt-translate runs the pass with its defaults on
 *     whatever tt-opt did not pipeline.
 *  5. wgmma-in-flight (tma form, f16/bf16 dots; -1: see forms.c, plInFlightDots): each tile.dot is
 *     followed by hopper.wgmma_wait {pending = 1}, so step i's wgmma still runs while step
 *     i + 1 waits for its boxes and issues its own; slot wr, which step i - 1's wgmma read,
 *     is refilled only after that wait (the refill and its barrier move to the end of the
 *     body), and a hopper.wgmma_wait {pending = 0} follows the loop. The loads run S - 2
 *     steps ahead of the wgmma instead of S - 1; for num-stages = 0 on a grid past one
 *     wave S grows by one where the rings still fit, and on one wave where forms.c's bytes
 *     in flight ask for it (plOneSmStages) on a K walk of at least STEADY_ROUNDS turns of
 *     the ring.
 *  6. multicast (tma form, a kernel --tile gave `tile.multicast` = C: C consecutive
 *     column tiles of a grid of one tile row, or with `tile.multicast_operand` = 1 the C
 *     row tiles of one column, which share B instead): the shared 2-D box (plSharedBox) becomes a
 *     hopper.tma_load with `multicast = C` (each block copies R / C of its rows into the
 *     same slot of every block of the cluster; the tensor map's box is R / C rows), the
 *     launch gets `cluster = C`, and since peers now write into this block's slots the
 *     slot order holds over the cluster: a hopper.cluster_barrier after the mbarriers'
 *     init; a cluster_arrive after the prologue; in the loop, the refill of slot wr moves
 *     after the dot (no wgmma in flight) between a cluster_wait (every block is done with
 *     wr, read at step i - 1) and a cluster_arrive (done with rd), so the wait lands a step
 *     after its arrive; a cluster_wait after the loop. The loads run S - 2 steps ahead.
 *     No default takes it: on an H200 and an H100 it lost or tied at M = 64 (A read from
 *     L2 once a cluster, not once a program, was not what bound those shapes;
 *     bench/2026-11-27-h200-multicast.md).
 *  7. warp specialisation (tma form, every load in a ring; option warp-specialize, by
 *     default where forms.c's plWarpSpecialize says: fp8 dots, which wait for their own
 *     wgmma, on 64-row tiles of up to 96 columns): no prologue; the kernel gets `tile.producer_warps` = 1 and
 *     splits on `scf.if hopper.producer_warp` (producerLoop). The producer warp's region
 *     walks the K loop's range: step i waits until slot i % S is empty (an `empty`
 *     mbarrier a slot, parity (i / S + 1) % 2: the first round passes at once) and issues
 *     its boxes. The consumers' region (consumerRegion: the new loop and every op after
 *     it) waits for slot rd's boxes, runs the dots and arrives on `empty` (releaseSlot):
 *     on slot rd after the dot, or with a wgmma in flight on slot wr (step i - 1's) after
 *     the dot's wait (pending 1), from the second step on. No block barrier in the loop:
 *     a slot is refilled as soon as every consumer thread is done with it, however far
 *     the others are. With step 6's multicast each warp's lane j arrives on block j's
 *     `empty` (each producer writes every block's slots), and a cluster barrier follows
 *     the split. The lowering (convert-tile-to-gpu) runs the producer warp after the
 *     tile.num_warps warps and gives the consumers' block barriers a named barrier.
 * Row kernels (option row-loads=1): each chunk loop of --tile's staged row form (it reads
 * a staged row's slots) that also loads from global memory (a norm's weight and bias, one
 * latency a step otherwise) takes steps 1-4 in the registers form with S = 2 (stagedRowLoop,
 * pipelineKernel); a loop whose loads do not qualify for step 1 is left as it is.
 * Persistent rows (--tile persistent=1): the loop over a program's rows (`tile.row_loop`)
 * takes steps 1-4 in the registers form with S = 2 too, its slice limited to the loads
 * that depend on the row (plLoadSlice's ivOnly), so the next row's loads are in flight
 * during this row's reductions (pipelineKernel); first, the loads of the same elements
 * every row (a weight and bias) are copied to shared memory once, before the loop, where
 * they fit, and read there each row (resident.c); where they do not, a weight stays a
 * load at its first use.
 */
#include "pipeline.h"

/* `lb + j * step` and whether it is below ub. */
static void stageK(TtBuilder *b, MlirLocation loc, MlirValue base, MlirValue step, int64_t j,
                   MlirValue ub, MlirValue *k, MlirValue *ok) {
  MlirType i32 = mlirValueGetType(base);
  *k = base;
  if (j)
    *k = ttBinary(b, loc, "arith.addi", base,
                  ttBinary(b, loc, "arith.muli", step, ttConstInt(b, loc, i32, j)));
  *ok = ttCmpi(b, loc, 2, *k, ub);
}

/* i32 scalar `x name c` (c a constant). */
static MlirValue binConst(TtBuilder *b, MlirLocation loc, const char *name, MlirValue x,
                          int64_t c) {
  return ttBinary(b, loc, name, x, ttConstInt(b, loc, mlirValueGetType(x), c));
}

static void asyncWait(TtBuilder *b, MlirLocation loc, int64_t pending) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirNamedAttribute n = ttNamedAttr(ctx, "pending", ttIntAttr(ctx, pending, ttI32(ctx)));
  ttBuild(b, "tile.async_wait", loc, 0, NULL, ttNoType(), 1, &n);
}

/* The last op of block b (null when empty). */
static MlirOperation lastOp(MlirBlock b) {
  MlirOperation last = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    last = op;
  return last;
}

/* hopper.wgmma_wait {pending = n} at b. */
static void wgmmaWait(TtBuilder *b, MlirLocation loc, int64_t n) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirNamedAttribute pending = ttNamedAttr(ctx, "pending", ttIntAttr(ctx, n, ttI32(ctx)));
  ttBuild(b, "hopper.wgmma_wait", loc, 0, NULL, ttNoType(), 1, &pending);
}

/* Moves the ops after `before` (from the first when null) up to `last` to the end of
 * body (a block without its terminator yet). */
static void moveToEnd(MlirBlock body, MlirOperation before, MlirOperation last) {
  MlirOperation op = mlirOperationIsNull(before) ? mlirBlockGetFirstOperation(body)
                                                 : mlirOperationGetNextInBlock(before);
  for (bool done = false; !done;) {
    MlirOperation nextOp = mlirOperationGetNextInBlock(op);
    done = mlirOperationEqual(op, last);
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(body, op);
    op = nextOp;
  }
}

/* A hopper.wgmma_wait {pending = 1} after each tile.dot of body (steps 5 and 7). */
static void waitAfterDots(MlirBlock body) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (ttOpIs(op, "tile.dot")) {
      TtBuilder b = {body, mlirOperationGetNextInBlock(op)};
      wgmmaWait(&b, mlirOperationGetLocation(op), 1);
    }
}

/* Step 5: a hopper.wgmma_wait {pending = 1} after each tile.dot of the new loop's body
 * (which then leaves out its own wait for all), and the refill - the ops after
 * `beforeRefill` (the body's start when null) up to `refillLast` - moved to the end of
 * the body, after the dots. */
static void keepWgmmaInFlight(MlirBlock body, MlirOperation beforeRefill,
                              MlirOperation refillLast) {
  waitAfterDots(body);
  moveToEnd(body, beforeRefill, refillLast);
}

/* Step 7's split, at b: `scf.if %p = hopper.producer_warp` whose then-region is the
 * producer's loop over the K loop's range: step i waits until slot i % S is empty (phase
 * parity (i / S + 1) % 2 of its `empty` mbarrier: the first round's waits pass at once, a
 * fresh mbarrier's preceding phase counting as complete), then copies step i's boxes into
 * it (the load slice at k). The else-region is left empty (consumerRegion fills it). */
static MlirOperation producerLoop(TtBuilder *b, MlirLocation loc, const LoadSlice *s,
                                  MlirOperation loop, const Rings *rings, MlirValue empty,
                                  int64_t stages) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirValue lb = mlirOperationGetOperand(loop, 0), ub = mlirOperationGetOperand(loop, 1),
            step = mlirOperationGetOperand(loop, 2);
  MlirValue p = ttBuild(b, "hopper.producer_warp", loc, 0, NULL, mlirIntegerTypeGet(ctx, 1), 0, NULL);
  MlirRegion regions[2] = {mlirRegionCreate(), mlirRegionCreate()};
  MlirBlock then = mlirBlockCreate(0, NULL, NULL), other = mlirBlockCreate(0, NULL, NULL);
  mlirRegionAppendOwnedBlock(regions[0], then);
  mlirRegionAppendOwnedBlock(regions[1], other);
  MlirOperation ifOp = ttInsert(b, ttOpCreate("scf.if", loc, 1, &p, 0, NULL, 0, NULL, 2, regions));
  TtBuilder in = ttBuilderAtEnd(then);
  MlirOperation ploop = ttBuildFor(&in, loc, lb, ub, step, 0, NULL);
  ttInsert(&in, ttOpCreate("scf.yield", loc, 0, NULL, 0, NULL, 0, NULL, 0, NULL));
  TtBuilder ob = ttBuilderAtEnd(other);
  ttInsert(&ob, ttOpCreate("scf.yield", loc, 0, NULL, 0, NULL, 0, NULL, 0, NULL));
  MlirBlock pbody = ttForBody(ploop);
  TtBuilder pb = ttBuilderAtEnd(pbody);
  MlirValue k = mlirBlockGetArgument(pbody, 0);
  MlirValue i = ttBinary(&pb, loc, "arith.divui", ttBinary(&pb, loc, "arith.subi", k, lb), step);
  MlirValue slot = binConst(&pb, loc, "arith.remui", i, stages);
  MlirValue parity = binConst(&pb, loc, "arith.remui",
                              binConst(&pb, loc, "arith.addi", binConst(&pb, loc, "arith.divui", i, stages), 1), 2);
  ttBuild(&pb, "hopper.mbarrier_wait", loc, 3, (MlirValue[]){empty, slot, parity}, ttNoType(), 0, NULL);
  MlirValue on = ttConstInt(&pb, loc, mlirIntegerTypeGet(ctx, 1), 1), unused[MAX_LOADS];
  plCloneSlice(&pb, loc, s, mlirBlockGetArgument(ttForBody(loop), 0), k, on, rings, slot, unused);
  ttBuild(&pb, "scf.yield", loc, 0, NULL, ttNoType(), 0, NULL);
  ttEraseDead(pbody); /* the clones' masks and fill values: TMA boxes read zeros past edges */
  return ifOp;
}

/* Step 7 in the consumers' loop body (before its yield, not built yet): after each
 * tile.dot its wgmma's wait (pending 1) where k is given (the wgmma stays in flight: the
 * slot freed is the one step i - 1 read, from the second step on), then one arrival on
 * `empty`'s mbarrier `slot` (multicast: every block's of the cluster). */
static void releaseSlot(TtBuilder *nb, MlirLocation loc, MlirBlock body, MlirValue empty,
                        MlirValue slot, MlirValue k, MlirValue lb, int64_t cluster) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirValue pred;
  if (!mlirValueIsNull(k)) {
    waitAfterDots(body);
    pred = ttCmpi(nb, loc, 4, k, lb);
  } else
    pred = ttConstInt(nb, loc, mlirIntegerTypeGet(ctx, 1), 1);
  MlirNamedAttribute cast = ttNamedAttr(ctx, "multicast", ttIntAttr(ctx, cluster, ttI32(ctx)));
  ttBuild(nb, "hopper.mbarrier_arrive", loc, 3, (MlirValue[]){empty, slot, pred}, ttNoType(),
          cluster > 1, &cast);
}

/* Step 7's end: every op of kbody from `first` (the consumers' loop) up to the
 * terminator moves into split's else-region; with multicast a cluster barrier follows the
 * split (no block leaves while a peer may still copy into its slots or arrive on its
 * mbarriers). */
static void consumerRegion(MlirBlock kbody, MlirOperation split, MlirOperation first,
                           bool multicast) {
  MlirBlock other = mlirRegionGetFirstBlock(mlirOperationGetRegion(split, 1));
  MlirOperation yield = mlirBlockGetTerminator(other), end = mlirBlockGetTerminator(kbody);
  for (MlirOperation op = first, nx; !mlirOperationEqual(op, end); op = nx) {
    nx = mlirOperationGetNextInBlock(op);
    mlirOperationMoveBefore(op, yield);
  }
  if (multicast) {
    TtBuilder b = {kbody, end};
    ttBuild(&b, "hopper.cluster_barrier", mlirOperationGetLocation(split), 0, NULL, ttNoType(), 0,
            NULL);
  }
}

#define STEADY_ROUNDS 4

/* The trip count of loop where its bounds and step are constants, else -1. */
static int64_t constTrips(MlirOperation loop) {
  int64_t lo = ttConstIntValue(mlirOperationGetOperand(loop, 0)),
          hi = ttConstIntValue(mlirOperationGetOperand(loop, 1)),
          st = ttConstIntValue(mlirOperationGetOperand(loop, 2));
  return lo >= 0 && hi >= lo && st > 0 ? (hi - lo) / st + ((hi - lo) % st != 0) : -1;
}

/* The most steps loop takes in any program: constTrips, else where its upper bound is
 * min(lb + C, X) (split-K's slice of K, C elements from its program's start) ceil(C /
 * step); -1 when not known. */
int64_t plMostTrips(MlirOperation loop) {
  MlirValue lbv = mlirOperationGetOperand(loop, 0), ubv = mlirOperationGetOperand(loop, 1);
  int64_t st = ttConstIntValue(mlirOperationGetOperand(loop, 2)), trips = constTrips(loop);
  if (trips >= 0 || st <= 0 || !mlirValueIsAOpResult(ubv))
    return trips;
  MlirOperation min = mlirOpResultGetOwner(ubv);
  if (!ttOpIs(min, "arith.minsi") && !ttOpIs(min, "arith.minui"))
    return -1;
  for (int i = 0; i < 2; i++) {
    MlirValue a = mlirOperationGetOperand(min, i);
    if (!mlirValueIsAOpResult(a) || !ttOpIs(mlirOpResultGetOwner(a), "arith.addi"))
      continue;
    MlirOperation add = mlirOpResultGetOwner(a);
    for (int j = 0; j < 2; j++) {
      int64_t c = ttConstIntValue(mlirOperationGetOperand(add, 1 - j));
      if (mlirValueEqual(mlirOperationGetOperand(add, j), lbv) && c >= 0)
        return c / st + (c % st != 0);
    }
  }
  return -1;
}

/* A tile.local_alloc of `slots` slots of view's tile (memref<slots x R x C x T, 3>), laid
 * out as a TMA ring where `swizzled` (marked tile.swizzled: the resident and streamed
 * forms, which cp.async fills). */
static MlirValue slotBuffer(TtBuilder *b, MlirLocation loc, MlirOperation view, int64_t slots,
                            bool swizzled) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType t = mlirValueGetType(mlirOperationGetResult(view, 0));
  int64_t shape[TT_MAX_RANK + 1] = {slots};
  ttTensorShape(t, shape + 1);
  MlirType mt = mlirMemRefTypeContiguousGet(ttElementType(t), 3, shape,
                                            mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 3));
  MlirValue buf = ttBuild(b, "tile.local_alloc", loc, 0, NULL, mt, 0, NULL);
  if (swizzled)
    mlirOperationSetAttributeByName(mlirOpResultGetOwner(buf), ttStrRef("tile.swizzled"),
                                    mlirUnitAttrGet(ctx));
  return buf;
}

/* Step 2b (the resident form, forms.c): a loop over the program's K range, as the K
 * loop's, whose step j copies each resident load's tile at k into slot j of its buffer
 * (tile.async_copy), then one commit and a wait for all (the lowering adds the proxy
 * fence wgmma's reads need). The kernel records the buffers' bytes (tile.resident). */
static void residentCopy(TtBuilder *b, MlirLocation loc, const LoadSlice *s, MlirOperation loop,
                         Rings *rings, MlirContext ctx, int64_t bytes) {
  MlirValue lb = mlirOperationGetOperand(loop, 0), step = mlirOperationGetOperand(loop, 2);
  MlirOperation copy = ttBuildFor(b, loc, lb, mlirOperationGetOperand(loop, 1), step, 0, NULL);
  mlirOperationSetAttributeByName(copy, ttStrRef("tile.resident_copy"), mlirUnitAttrGet(ctx));
  MlirBlock body = ttForBody(copy);
  TtBuilder cb = ttBuilderAtEnd(body);
  MlirValue k = mlirBlockGetArgument(body, 0);
  MlirValue j = ttBinary(&cb, loc, "arith.divui", ttBinary(&cb, loc, "arith.subi", k, lb), step);
  rings->residentCopy = true;
  plCloneSlice(&cb, loc, s, mlirBlockGetArgument(ttForBody(loop), 0), k, (MlirValue){NULL},
               rings, j, NULL);
  rings->residentCopy = false;
  ttBuild(&cb, "scf.yield", loc, 0, NULL, ttNoType(), 0, NULL);
  ttEraseDead(body);
  ttBuild(b, "tile.async_commit", loc, 0, NULL, ttNoType(), 0, NULL);
  asyncWait(b, loc, 0);
  MlirOperation kernel = mlirOperationGetParentOperation(loop);
  mlirOperationSetAttributeByName(kernel, ttStrRef("tile.resident"),
                                  ttIntAttr(ctx, bytes, mlirIntegerTypeGet(ctx, 64)));
}

/* Steps 1-5 for one loop of kernel (the K loop, or a row kernel's chunk loop). */
static bool pipelineLoop(const TtModuleIndex *index, MlirOperation kernel, MlirOperation loop,
                         int64_t stages, int form, int wgmmaInFlight, bool ivOnly,
                         int warpSpecialize, bool waveStages, int resident) {
  MlirBlock kbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  MlirContext ctx = mlirOperationGetContext(kernel);
  MlirLocation loc = mlirOperationGetLocation(loop);
  MlirBlock body = ttForBody(loop);
  LoadSlice *s = ttAlloc(sizeof(LoadSlice));
  MlirOperation views[MAX_LOADS];
  if (!plLoadSlice(body, s, ivOnly)) {
    ttEmitError(loop, "pipeline: the K loop must load its tiles with tile.load from offsets "
                      "computed without loops or branches (at most %d loads, %d ops)",
                MAX_LOADS, MAX_SLICE);
    free(s);
    return false;
  }
  char kname[128] = "";
  ttOpAttrStr(kernel, "sym_name", kname, sizeof kname);
  MlirOperation fusion = ttModuleIndexLauncher(index, kname);
  int64_t asked = stages; /* the option (0: from the shape) */
  /* tma (or auto: tma where the loop qualifies, else registers) */
  bool shared = form == FORM_SHARED, tma = form == FORM_TMA || form == FORM_AUTO;
  bool report = form == FORM_TMA, fits = true;
  if (tma && mlirOperationIsNull(fusion)) {
    if (report) {
      ttEmitError(loop, "pipeline: stage-in=tma needs the kernel launched by a fused "
                        "function (its tile.launch gets the TMA descriptors)");
      free(s);
      return false;
    }
    tma = false;
  }
  int64_t slotBytes = 0, residentBytes = 0;
  Rings rings = {.tma = tma};
  if (tma) {
    int64_t tmaStages = stages;
    tma = plTmaForm(loop, s, views, &tmaStages, ttLaunchPrograms(fusion),
                    ttLaunchProgramsExact(fusion) > 0, report, waveStages, &slotBytes,
                    rings.ring, resident, rings.resident, &residentBytes, rings.copied) &&
          plWgmmaTile(kernel, body, loop, report);
    fits = tma || !report;
    if (tma)
      stages = tmaStages;
  }
  for (int i = 0; resident == 1 && fits && i < s->nloads; i++) /* (not after forms.c's error) */
    if ((!tma || !rings.resident[i]) && !mlirAttributeIsNull(ttOpAttr(s->loads[i], "tile.carry"))) {
      ttEmitError(s->loads[i], "pipeline: resident=1 needs the TMA form (stage-in=tma or auto, "
                               "sm_90a), this load's dot tile of at most 64 rows (a multiple "
                               "of 8, rows of a multiple of 128 bytes), a K loop of a known "
                               "most steps, and its copy beside two stages of the rings in "
                               "shared memory (past one wave: three, in half of it)");
      free(s);
      return false;
    }
  /* TMA rings from the shape (the other forms pick theirs below, uncapped): no more stages
   * than the K loop has steps (at least 2): a slot no step fills only takes shared memory
   * a second block could use (H200, attention scores
   * 32 x 1024 x 1024 x 128 on 128x128x64, 2 K steps: 2 stages 33.3 us, 3 stages 38.1;
   * bench/2026-11-26-h200-bmm-tune.md). */
  int64_t trips = constTrips(loop); /* (-1: not known) */
  if (trips < 0)
    trips = INT64_MAX;
  else if (trips < 2)
    trips = 2;
  if (asked == 0 && stages > trips)
    stages = trips;
  if (fits && !tma)
    fits = plChooseForm(loop, s, views, &stages, &shared);
  if (!fits) {
    free(s);
    return false;
  }
  shared = shared || tma; /* both read slots of rings */
  int nl = s->nloads, nc = 0; /* loads, loads carried in registers */
  rings.tma = tma;
  bool anyResident = false, anyCopied = false;
  for (int i = 0; i < nl; i++) {
    if (!tma)
      rings.ring[i] = shared;
    rings.resident[i] = tma && rings.resident[i];
    rings.copied[i] = tma && rings.copied[i];
    anyResident |= rings.resident[i];
    anyCopied |= rings.copied[i];
    nc += !rings.ring[i] && !rings.resident[i];
  }
  /* --tile's multicast (step 6): A's box shared by a cluster of column tiles, or B's
   * (tile.multicast_operand = 1) by one of row tiles */
  int64_t cluster = tma ? ttOpAttrInt(kernel, "tile.multicast", 1) : 1;
  MlirAttribute which = ttOpAttr(kernel, "tile.multicast_operand");
  int64_t operand = ttOpAttrInt(kernel, "tile.multicast_operand", -1);
  if (!mlirAttributeIsNull(which) && operand != 0 && operand != 1) {
    ttEmitError(kernel, "pipeline: tile.multicast_operand must be the integer 0 (A) or 1 (B)");
    free(s);
    return false;
  }
  operand = operand < 0 ? 0 : operand;
  bool multicast = false;
  for (int i = 0; i < nl; i++) {
    bool shares = cluster > 1 && rings.ring[i] && !anyCopied && /* (its commits: step 3) */
                  plSharedBox(s->loads[i], views[i], (int)operand);
    rings.multicast[i] = shares ? cluster : 1;
    multicast |= rings.multicast[i] > 1;
  }
  /* (a dot staging a register operand waits for its wgmma at once: convert-tile-to-gpu 5w) */
  bool inFlight = tma && !nc && !anyCopied &&
                  plInFlightDots(body, wgmmaInFlight, stages * slotBytes, stages);
  /* step 7: a producer warp fills the rings (every load boxed); step 6's multicast keeps
   * the wgmma in flight only with it */
  int ws = tma && !nc && !anyResident && !anyCopied ? plWarpSpecialize(kernel, body, warpSpecialize, inFlight && !multicast,
                                          stages, multicast)
                      : 0; /* 1: a producer warp, 2: a producer warpgroup */
  inFlight = inFlight && (!multicast || ws);
  /* past one wave, the slot the wgmma in flight holds back comes as a 4th stage where it
   * fits and a block already fills its SM (H200, 4096 x 8192 x 8192 on 128x256x64: 742-779
   * us against 790-817 on 3) */
  int64_t resBytes = residentBytes ? residentBytes + 1024 : 0; /* (beside the rings) */
  if (inFlight && asked == 0 && stages < 4 && stages < trips && ttLaunchPrograms(fusion) > numSms() &&
      stages * slotBytes > smemTwoBlocks() && (stages + 1) * slotBytes + resBytes <= smemDynamic())
    stages++;
  /* On one wave, the same slot comes where forms.c's bytes in flight ask for it
   * (plOneSmStages, read = 2) and a program's walk over K is long enough for a steady
   * state, at least STEADY_ROUNDS turns of the ring: H200, one wave of 64x64x128 tiles on
   * 28-32 K steps 0.93x-0.98x the time at 5 stages of 4, 24 steps 0.98x; 16 steps (P @ V
   * 12 x 1000 x 128 x 1000 on 128x128x64) 1.01x-1.02x, 4 steps (split-K's 64 x 1024 x
   * 4096) 1.04x-1.06x (bench/2026-11-29-h200-m128.md, runs 8-9). The wgmma in flight is
   * decided at forms.c's count first: where it is not taken there (a ring of two blocks'
   * shared memory or less, or fewer than 4 stages), that count's slots all load, and the
   * bytes in flight are already the rule's. */
  int64_t walk = plMostTrips(loop);
  if (inFlight && asked == 0 && walk >= STEADY_ROUNDS * (stages + 1) &&
      plOneSmStages(loop, ttLaunchPrograms(fusion), ttLaunchProgramsExact(fusion) > 0,
                    slotBytes, 2) > stages &&
      (stages + 1) * slotBytes + resBytes <= smemDynamic())
    stages++;
  MlirValue lb = mlirOperationGetOperand(loop, 0), ub = mlirOperationGetOperand(loop, 1),
            step = mlirOperationGetOperand(loop, 2);
  intptr_t nold = mlirOperationGetNumOperands(loop) - 3;
  int carried = (int)(stages - 1) * nc;
  MlirValue *inits = ttAlloc(sizeof(MlirValue) * (size_t)(nold + carried + 1));
  for (intptr_t i = 0; i < nold; i++)
    inits[i] = mlirOperationGetOperand(loop, 3 + i);
  TtBuilder b = {kbody, loop};
  MlirValue *bufs = rings.bufs;
  MlirAttribute boxes[MAX_LOADS];
  int nboxes = 0;
  for (int i = 0; i < nl; i++) { /* a ring of S slots per operand that has one */
    if (!rings.ring[i])
      continue;
    MlirType t = mlirValueGetType(mlirOperationGetResult(views[i], 0));
    int64_t shape[TT_MAX_RANK];
    ttTensorShape(t, shape);
    /* (streamed: laid out as a TMA ring, filled by cp.async) */
    bufs[i] = slotBuffer(&b, loc, views[i], stages, rings.copied[i]);
    if (!tma || rings.copied[i])
      continue;
    /* its mbarriers, and its descriptor: a kernel argument after all others, named in
     * tile.launch's `tma` as [input, D0, D1, box rows, box columns] */
    MlirNamedAttribute count = ttNamedAttr(ctx, "count", ttIntAttr(ctx, stages, ttI32(ctx)));
    rings.bars[i] = ttBuild(&b, "hopper.mbarrier_alloc", loc, 0, NULL,
                            mlirTypeParseGet(ctx, ttStrRef("!hopper.mbarrier")), 1, &count);
    rings.descs[i] = ttKernelInsertArg(
        kernel, mlirBlockGetNumArguments(kbody), mlirTypeParseGet(ctx, ttStrRef("!hopper.tma_desc")));
    MlirAttribute box = ttOpAttr(s->loads[i], "tile.box");
    MlirValue ptr = mlirOperationGetOperand(s->loads[i], 0);
    intptr_t rank = mlirDenseArrayGetNumElements(box); /* 3: [B, D0, D1], a batched map */
    int64_t entry[6] = {mlirBlockArgumentGetArgNumber(ptr)};
    for (intptr_t j = 0; j < rank; j++)
      entry[1 + j] = mlirDenseI64ArrayGetElement(box, j);
    entry[1 + rank] = shape[0] / rings.multicast[i]; /* multicast: each block R / C rows */
    entry[2 + rank] = 128 / ttDtypeBytes(ttElementType(t)); /* 128 bytes a row */
    boxes[nboxes++] = mlirDenseI64ArrayGet(ctx, 3 + rank, entry);
  }
  for (int i = 0; i < nl; i++) /* the resident copies: one swizzled slot a K step */
    if (rings.resident[i])
      bufs[i] = slotBuffer(&b, loc, views[i], plMostTrips(loop), true);
  if (tma)
    ttLaunchSet(fusion, "tma", mlirArrayAttrGet(ctx, nboxes, boxes));
  MlirValue empty = {NULL}; /* step 7: a slot's consumers are done with it */
  int64_t warps = ttOpAttrInt(kernel, "tile.num_warps", 4);
  if (ws) {
    MlirNamedAttribute attrs[2] = {
        ttNamedAttr(ctx, "count", ttIntAttr(ctx, stages, ttI32(ctx))),
        ttNamedAttr(ctx, "arrivals",
                    ttIntAttr(ctx, multicast ? cluster * warps : 32 * warps, ttI32(ctx)))};
    empty = ttBuild(&b, "hopper.mbarrier_alloc", loc, 0, NULL,
                    mlirTypeParseGet(ctx, ttStrRef("!hopper.mbarrier")), 2, attrs);
  }
  if (multicast) { /* clusters of C along x; every block's mbarriers ready before any copy */
    ttLaunchSet(fusion, "cluster", ttIntAttr(ctx, cluster, mlirIntegerTypeGet(ctx, 64)));
    ttBuild(&b, "hopper.cluster_barrier", loc, 0, NULL, ttNoType(), 0, NULL);
  }

  /* Step 2: the prologue. */
  MlirValue iv = mlirBlockGetArgument(body, 0);
  MlirOperation split = {NULL}; /* step 7: scf.if on hopper.producer_warp */
  if (ws)
    split = producerLoop(&b, loc, s, loop, &rings, empty, stages);
  for (int64_t j = 0; !ws && j + 1 < stages; j++) {
    MlirValue k, ok;
    stageK(&b, loc, lb, step, j, ub, &k, &ok);
    plCloneSlice(&b, loc, s, iv, k, ok, shared ? &rings : NULL, ttConstInt(&b, loc, ttI32(ctx), j),
               inits + nold + j * nc);
    if (shared && (!tma || anyCopied))
      ttBuild(&b, "tile.async_commit", loc, 0, NULL, ttNoType(), 0, NULL);
  }
  if (multicast && !ws) /* (step 6: pairs with step 0's wait) */
    ttBuild(&b, "hopper.cluster_arrive", loc, 0, NULL, ttNoType(), 0, NULL);
  if (anyResident) /* step 2b: the resident copies, after the rings' first boxes */
    residentCopy(&b, loc, s, loop, &rings, ctx, residentBytes);

  /* Step 3: the new loop. */
  MlirOperation nloop = ttBuildFor(&b, loc, lb, ub, step, nold + carried, inits);
  MlirAttribute rowLoop = ttOpAttr(loop, "tile.row_loop"); /* --tile's marker stays */
  if (!mlirAttributeIsNull(rowLoop))
    mlirOperationSetAttributeByName(nloop, ttStrRef("tile.row_loop"), rowLoop);
  MlirBlock nbody = ttForBody(nloop);
  TtBuilder nb = ttBuilderAtEnd(nbody);
  MlirValue niv = mlirBlockGetArgument(nbody, 0);
  MlirValue next[MAX_LOADS], rd = {NULL}, wr = {NULL}, phase = {NULL};
  MlirValue idx = {NULL}; /* the step's index */
  if (shared) {
    idx = ttBinary(&nb, loc, "arith.divui", ttBinary(&nb, loc, "arith.subi", niv, lb), step);
    rd = binConst(&nb, loc, "arith.remui", idx, stages);
    wr = binConst(&nb, loc, "arith.remui", binConst(&nb, loc, "arith.addi", idx, stages - 1), stages);
    if (tma) {
      if (anyCopied) /* slot rd's copies have landed; every thread is done with slot wr */
        asyncWait(&nb, loc, stages - 2);
      else if (!inFlight && !multicast && !ws) /* every thread is done with slot wr (read at i - 1) */
        ttBuild(&nb, "tile.barrier", loc, 0, NULL, ttNoType(), 0, NULL);
      phase = binConst(&nb, loc, "arith.remui", binConst(&nb, loc, "arith.divui", idx, stages), 2);
    } else
      asyncWait(&nb, loc, stages - 2);
  }
  /* the refill of slot wr: here, or (wgmma in flight, step 5) after the old body */
  MlirOperation beforeRefill = lastOp(nbody);
  if (inFlight && !ws) /* every warpgroup has waited for its step i - 1 wgmma, which read slot wr */
    ttBuild(&nb, "tile.barrier", loc, 0, NULL, ttNoType(), 0, NULL);
  else if (multicast && !ws) /* every block of the cluster is done with slot wr (step 6) */
    ttBuild(&nb, "hopper.cluster_wait", loc, 0, NULL, ttNoType(), 0, NULL);
  if (!ws) { /* (step 7: the producer's) */
    MlirValue k, ok;
    stageK(&nb, loc, niv, step, stages - 1, ub, &k, &ok);
    plCloneSlice(&nb, loc, s, iv, k, ok, shared ? &rings : NULL, wr, next);
  }
  MlirOperation refillLast = lastOp(nbody);
  if (shared && (!tma || anyCopied))
    ttBuild(&nb, "tile.async_commit", loc, 0, NULL, ttNoType(), 0, NULL);
  for (int i = 0; tma && i < nl; i++) /* slot rd's boxes have landed */
    if (rings.ring[i] && !rings.copied[i])
      ttBuild(&nb, "hopper.mbarrier_wait", loc, 3, (MlirValue[]){rings.bars[i], rd, phase},
              ttNoType(), 0, NULL);
  for (int n = 0, c = 0; n < nl; n++) {
    if (!rings.ring[n] && !rings.resident[n]) { /* the oldest carried tile of each carried load */
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(s->loads[n], 0),
                                    mlirBlockGetArgument(nbody, 1 + nold + c++));
      continue;
    }
    MlirValue view = mlirOperationGetResult(views[n], 0);
    MlirValue slot = ttBuild(&nb, "tile.local_load", loc, 2,
                             (MlirValue[]){bufs[n], rings.resident[n] ? idx : rd},
                             mlirValueGetType(view), 0, NULL);
    mlirValueReplaceAllUsesOfWith(view, slot);
    if (!mlirOperationEqual(views[n], s->loads[n]))
      mlirOperationDestroy(views[n]); /* the expand_shape; the load goes in step 4 */
  }
  mlirValueReplaceAllUsesOfWith(iv, niv);
  for (intptr_t i = 0; i < nold; i++)
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(body, 1 + i),
                                  mlirBlockGetArgument(nbody, 1 + i));
  MlirOperation yield = mlirBlockGetTerminator(body);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);) {
    MlirOperation nextOp = mlirOperationGetNextInBlock(op);
    if (!mlirOperationEqual(op, yield)) {
      mlirOperationRemoveFromParent(op);
      mlirBlockAppendOwnedOperation(nbody, op);
    }
    op = nextOp;
  }
  if (ws) /* step 7: free the slot the last finished wgmma read */
    releaseSlot(&nb, loc, nbody, empty, inFlight ? wr : rd, inFlight ? niv : (MlirValue){NULL},
                lb, multicast ? cluster : 1);
  else if (inFlight) /* step 5 */
    keepWgmmaInFlight(nbody, beforeRefill, refillLast);
  if (multicast && !ws) { /* step 6: the refill after the dot, then this block is done with rd */
    moveToEnd(nbody, beforeRefill, refillLast);
    ttBuild(&nb, "hopper.cluster_arrive", loc, 0, NULL, ttNoType(), 0, NULL);
  }
  MlirValue *ys = ttAlloc(sizeof(MlirValue) * (size_t)(nold + carried + 1));
  for (intptr_t i = 0; i < nold; i++)
    ys[i] = mlirOperationGetOperand(yield, i);
  for (int i = nc; i < carried; i++) /* shift the carried tiles by one stage */
    ys[nold + i - nc] = mlirBlockGetArgument(nbody, 1 + nold + i);
  for (int i = 0; i < nc && carried; i++)
    ys[nold + carried - nc + i] = next[i];
  ttBuild(&nb, "scf.yield", loc, nold + carried, ys, ttNoType(), 0, NULL);

  /* Step 4. The moved loads are now unused; so are slice ops used only by them. */
  for (intptr_t i = 0; i < nold; i++)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(loop, i),
                                  mlirOperationGetResult(nloop, i));
  mlirOperationDestroy(loop);
  TtBuilder after = {kbody, mlirOperationGetNextInBlock(nloop)};
  if (inFlight) /* the last step's wgmma, before the barrier below ends the rings' life */
    wgmmaWait(&after, loc, 0);
  if (multicast && !ws) /* the last step's arrive */
    ttBuild(&after, "hopper.cluster_wait", loc, 0, NULL, ttNoType(), 0, NULL);
  if (shared) /* (tma: every issued box was waited for; this is the barrier) */
    asyncWait(&after, loc, 0);
  for (int i = s->n - 1; i >= 0; i--) {
    if (!s->in[i] || mlirOperationEqual(s->ops[i], yield))
      continue;
    bool used = false;
    for (intptr_t r = 0; r < mlirOperationGetNumResults(s->ops[i]) && !used; r++)
      used = !mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(s->ops[i], r)));
    if (!used)
      mlirOperationDestroy(s->ops[i]);
  }
  if (tma) { /* the clones' masks went unused (after the slice's ops: s->ops is stale now) */
    ttEraseDead(kbody);
    ttEraseDead(nbody);
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(nbody); shared && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) /* the dots' operands moved: their form again */
    if (ttOpIs(op, "tile.dot"))
      ttDotRecordMmaForm(op, ttOpAttrInt(kernel, "tile.num_warps", 4));
  mlirOperationSetAttributeByName(kernel, ttStrRef("tile.num_stages"),
                                  ttIntAttr(ctx, stages, ttI32(ctx)));
  if (ws) { /* step 7: the consumers' part, the new loop on, into the else-region */
    consumerRegion(kbody, split, nloop, multicast);
    mlirOperationSetAttributeByName(kernel, ttStrRef("tile.producer_warps"),
                                    ttIntAttr(ctx, ws == 2 ? 4 : 1, ttI32(ctx)));
  }
  free(inits);
  free(ys);
  free(s);
  return true;
}

/* Whether loop's body has a load slice step 1 takes (ivOnly: of the loads that depend
 * on the induction variable); a loop without one is left as it is. */
static bool hasSlice(MlirOperation loop, bool ivOnly) {
  LoadSlice *s = ttAlloc(sizeof(LoadSlice));
  bool ok = plLoadSlice(ttForBody(loop), s, ivOnly);
  free(s);
  return ok;
}

/* Whether loop is a chunk loop of --tile's staged row form that also loads from global
 * memory: it reads a staged row's slots (tile.local_load) and has tile.load ops (a norm's
 * weight and bias; rows.c, 3'). */
static bool stagedRowLoop(MlirOperation loop) {
  bool slots = false, loads = false;
  for (MlirOperation op = mlirBlockGetFirstOperation(ttForBody(loop)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    slots |= ttOpIs(op, "tile.local_load");
    loads |= ttOpIs(op, "tile.load");
  }
  return slots && loads && hasSlice(loop, false);
}

/* The pass on one kernel: its dot's K loop; or, for a row kernel under row-loads=1, each
 * chunk loop of the staged form that loads from global memory, and (always) the row loop
 * of persistent rows (`tile.row_loop`, its loads that vary by row), in the registers form
 * with two stages (each step issues the next step's loads, carried by the loop: their latency
 * overlaps a step's work instead of starting it). */
static bool pipelineKernel(const TtModuleIndex *index, MlirOperation kernel, int64_t stages,
                           int form, int wgmmaInFlight, bool rowLoads, int warpSpecialize,
                           bool waveStages, int resident) {
  MlirBlock kbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  if (!mlirAttributeIsNull(ttOpAttr(kernel, "tile.num_stages")))
    return true;
  MlirContext ctx = mlirOperationGetContext(kernel);
  MlirOperation loop = ttDotLoop(kbody);
  if (mlirOperationIsNull(loop)) {
    for (MlirOperation op = mlirBlockGetFirstOperation(kbody); rowLoads && !mlirOperationIsNull(op);) {
      MlirOperation next = mlirOperationGetNextInBlock(op); /* (the loop is replaced) */
      if (ttOpIs(op, "scf.for") && stagedRowLoop(op) &&
          !pipelineLoop(index, kernel, op, 2, FORM_REGISTERS, 0, false, 0, false, 0))
        return false;
      op = next;
    }
    char kname[128] = "";
    ttOpAttrStr(kernel, "sym_name", kname, sizeof kname);
    MlirOperation fusion = ttModuleIndexLauncher(index, kname);
    int64_t programs = mlirOperationIsNull(fusion) ? -1 : ttLaunchPrograms(fusion);
    for (MlirOperation op = mlirBlockGetFirstOperation(kbody); !mlirOperationIsNull(op);) {
      MlirOperation next = mlirOperationGetNextInBlock(op); /* --tile's persistent rows */
      bool rowLoop = ttOpIs(op, "scf.for") && !mlirAttributeIsNull(ttOpAttr(op, "tile.row_loop"));
      if (rowLoop)
        plResidentWeights(op, programs); /* resident.c: the weights in shared memory */
      if (rowLoop && hasSlice(op, true) &&
          !pipelineLoop(index, kernel, op, 2, FORM_REGISTERS, 0, true, 0, false, 0))
        return false;
      op = next;
    }
    return true;
  }
  if (stages == 1) { /* recorded, so that a later default run (tt-translate) leaves it */
    mlirOperationSetAttributeByName(kernel, ttStrRef("tile.num_stages"),
                                    ttIntAttr(ctx, 1, ttI32(ctx)));
    return true;
  }
  return pipelineLoop(index, kernel, loop, stages, form, wgmmaInFlight, false, warpSpecialize,
                      waveStages, resident);
}

bool ttPipelinePass(MlirModule module, const TtPassOptions *opts) {
  TtModuleIndex index; /* the launchers, indexed once (the pass adds no top-level ops) */
  ttModuleIndexInit(&index, module);
  bool ok = true;
  for (int i = 0; i < index.n && ok; i++) {
    MlirOperation op = index.ops[i];
    if (ttOpIs(op, "func.func") && !mlirAttributeIsNull(ttOpAttr(op, "tile.kernel"))) {
      TtPassOptions o = ttTunedOptions(op, "pipeline", opts); /* a tuning cache's, where used */
      ok = pipelineKernel(&index, op, o.v[TT_PIPELINE_NUM_STAGES],
                          (int)o.v[TT_PIPELINE_STAGE_IN], (int)o.v[TT_PIPELINE_WGMMA_IN_FLIGHT],
                          o.v[TT_PIPELINE_ROW_LOADS] == 1, (int)o.v[TT_PIPELINE_WARP_SPECIALIZE],
                          o.v[TT_PIPELINE_WAVE_STAGES] == 1, (int)o.v[TT_PIPELINE_RESIDENT]);
    }
  }
  ttModuleIndexDestroy(&index);
  return ok;
}
