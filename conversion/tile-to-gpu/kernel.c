/* kernel.c - the --convert-tile-to-gpu lowering: tile kernels to gpu.func. This file holds
 * the pass entry and the walk over a kernel; lower.h says which file lowers which ops.
 *
 * A tile kernel works on whole 1-D tiles of B elements; a gpu.func is one thread. The
 * *layout* says which thread holds which elements: with T = 32 * num_warps threads and
 * VEC = 16 bytes / the narrowest element loaded or stored (capped at B / T), element e
 * belongs to thread (e / VEC) % T, in register group e / (VEC * T), lane e % VEC. So each
 * thread holds REPS = B / (VEC * T) groups of VEC consecutive elements, and a warp's
 * groups are adjacent in memory: a group is one 16-byte access, coalesced across the warp.
 *
 * Algorithm, for each func.func with `tile.kernel`:
 *  1. Compute the layout; make `gpu.func` (kernel, known block size T) in
 *     `gpu.module @tt_kernels`, with `!tile.ptr<T>` arguments as `!llvm.ptr<1>`.
 *  2. Walk the kernel body in order, mapping each tile value to REPS values of type
 *     vector<VEC x T> (scalars map to themselves), and computing for every i32 tile an
 *     *axis fact* in the manner of Triton's AxisInfo: runs of `contig` consecutive values
 *     whose first value and position are multiples of `contig`, runs of `constancy` equal
 *     values, and a power of two `divisibility` of every value.
 *       program_id/num_programs -> gpu.block_id/grid_dim;  range -> constants + tid*VEC;
 *       splat -> vector.broadcast;  arith/math on tiles -> the same op on each vector;
 *       load/store -> step 3;  func.return -> gpu.return;  scf.for (a looped row
 *       kernel's walk over a row) -> the same loop, each carried tile as REPS carried
 *       vectors, its body lowered the same way;  scf.if on a scalar (split-K's last
 *       slice) -> the same if, its then-block lowered the same way.
 *     Each op goes to the function the table `lowerings` names for it (elementwise.c,
 *     reduce.c, ...); arith and math ops not named there to tgLowerGeneric.
 *  3. Loads and stores of 16-byte runs, masked at the tail (load-store.c).
 *  4. Erase the tile kernel.
 * Dot kernels add steps stated at the head of their files: 5, tile.dot on tensor cores
 * (dot.c, dot-mma-sync.c; 5w, warpgroup MMA for mma=wgmma: dot-wgmma.c); 6,
 * shared-memory rings and cp.async (async-copy.c); 7, TMA copies and mbarriers, the
 * hopper ops of --pipeline stage-in=tma (hopper.c).
 */
#include "lower.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The programs per SM a kernel asks for (see MAX_THREADS_PER_SM; at least the kernel's
 * tile.programs_per_sm, `asked`, 0 when not given), within the hardware's limit of 32
 * and, for a kernel with tile.local_alloc buffers (ringBytes of them), within what the
 * SM's shared memory holds (more would only cost registers). */
static int64_t ctasPerSm(const Lower *l, int64_t ringBytes, int64_t asked) {
  int64_t n = MAX_THREADS_PER_SM / ((l->T + 32 * l->producerWarps) * l->REPS);
  n = n > asked ? n : asked;
  int64_t bySmem = ringBytes ? ttTargetBlocksBySmem(l->target, ringBytes) : 32;
  n = n < bySmem ? n : bySmem;
  return n < 1 ? 1 : n > 32 ? 32 : n;
}


static bool lowerOp(Lower *l, MlirOperation op);

/* The lowered parts of values vals[0..n) in order (REPS per tile, one per scalar) into
 * out (room for n * MAX_REPS); returns how many, or -1 when one is not lowered. */
static intptr_t flatten(Lower *l, intptr_t n, const MlirValue *vals, MlirValue *out) {
  intptr_t k = 0;
  for (intptr_t i = 0; i < n; i++) {
    Lowered *x = tgLookup(l, vals[i]);
    if (!x)
      return -1;
    for (int r = 0; r < x->n; r++)
      out[k++] = x->parts[r];
  }
  return k;
}

/* Binds values keys[0..n) to consecutive lowered parts, each in the layout of like[i]. */
static void bind(Lower *l, intptr_t n, const MlirValue *keys, const MlirValue *parts,
                 Lowered *const *like) {
  intptr_t k = 0;
  for (intptr_t i = 0; i < n; i++) {
    Lowered *x = tgDefine(l, keys[i]);
    x->n = like[i]->n;
    x->mma = like[i]->mma;
    x->form = like[i]->form;
    x->mmaM = like[i]->mmaM;
    x->mmaN = like[i]->mmaN;
    for (int r = 0; r < x->n; r++)
      x->parts[r] = parts[k++];
  }
}

/* The tile.dot in block body whose accumulator is block argument v (or a null op). */
static MlirOperation dotOfAccumulator(MlirBlock body, MlirValue v) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (ttOpIs(op, "tile.dot") && mlirValueEqual(mlirOperationGetOperand(op, 2), v))
      return op;
  return (MlirOperation){NULL};
}

/* Step 2 for scf.for (a loop over a row's chunks): the same loop, each tile it carries
 * becoming REPS carried vectors, its body lowered op by op into the new body. The
 * induction variable's divisibility is that of its start and step. */
static bool lowerFor(Lower *l, MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op) - 3, ninits = 0;
  MlirValue *vals = ttAlloc(sizeof(MlirValue) * (size_t)(n + 3));
  MlirValue *flat = ttAlloc(sizeof(MlirValue) * (size_t)(n * MAX_REPS + 3));
  Lowered **like = ttAlloc(sizeof(Lowered *) * (size_t)(n + 1));
  MlirBlock tbody = ttForBody(op);
  bool ok = true;
  for (intptr_t i = 0; i < n + 3; i++) {
    vals[i] = mlirOperationGetOperand(op, i);
    int64_t cs[TT_MAX_RANK];
    MlirOperation dot = i >= 3 ? dotOfAccumulator(tbody, mlirBlockGetArgument(tbody, i - 2))
                               : (MlirOperation){NULL};
    if (!mlirOperationIsNull(dot) && ttTensorShape(mlirValueGetType(vals[i]), cs) == 2)
      ok = ok && tgToMma(l, op, vals[i], cs[0], cs[1], tgDotForm(l, dot)); /* step 5c */
    if (i >= 3)
      like[i - 3] = tgLookup(l, vals[i]);
  }
  ok = ok && flatten(l, 3, vals, flat) == 3 && (ninits = flatten(l, n, vals + 3, flat + 3)) >= 0;
  if (!ok) {
    ttEmitError(op, "convert-tile-to-gpu: an operand of scf.for is not lowered");
    free(vals);
    free(flat);
    free(like);
    return false;
  }
  MlirOperation loop = ttBuildFor(&l->b, l->loc, flat[0], flat[1], flat[2], ninits, flat + 3);
  MlirBlock gbody = ttForBody(loop);
  Lowered *iv = tgDefine(l, mlirBlockGetArgument(tbody, 0));
  iv->parts[0] = mlirBlockGetArgument(gbody, 0);
  iv->axis.div = tgGcd64(tgLookup(l, vals[0])->axis.div, tgLookup(l, vals[2])->axis.div);
  for (intptr_t i = 0; i < n; i++)
    vals[i] = mlirBlockGetArgument(tbody, i + 1);
  for (intptr_t i = 0; i < ninits; i++)
    flat[i] = mlirBlockGetArgument(gbody, i + 1);
  bind(l, n, vals, flat, like);
  TtBuilder outer = l->b;
  l->b = ttBuilderAtEnd(gbody);
  for (MlirOperation x = mlirBlockGetFirstOperation(tbody); ok && !mlirOperationIsNull(x);
       x = mlirOperationGetNextInBlock(x)) {
    if (!ttOpIs(x, "scf.yield")) {
      ok = lowerOp(l, x);
      continue;
    }
    for (intptr_t i = 0; i < n; i++)
      vals[i] = mlirOperationGetOperand(x, i);
    ok = flatten(l, n, vals, flat) == ninits;
    if (ok)
      ttBuild(&l->b, "scf.yield", l->loc, ninits, flat, ttNoType(), 0, NULL);
  }
  l->b = outer;
  for (intptr_t i = 0; i < n; i++)
    vals[i] = mlirOperationGetResult(op, i);
  for (intptr_t i = 0; ok && i < ninits; i++)
    flat[i] = mlirOperationGetResult(loop, i);
  if (ok)
    bind(l, n, vals, flat, like);
  free(vals);
  free(flat);
  free(like);
  return ok;
}

/* What a warp-specialised kernel's producer region may hold: index and offset math, its
 * loops, mbarrier waits and arrivals and TMA copies - nothing that takes a barrier of the
 * block (a dot, a reduction, tile.barrier, async waits, mbarrier inits, cluster
 * barriers), which only the producer warp would reach. */
static bool producerOpOk(MlirOperation op, void *bad) {
  static const char *const allowed[] = {
      "scf.for", "scf.yield", "tile.splat", "tile.range", "tile.program_id",
      "tile.num_programs", "tensor.expand_shape", "tensor.collapse_shape",
      "hopper.mbarrier_wait", "hopper.mbarrier_arrive", "hopper.tma_load"};
  bool ok = ttOpHasPrefix(op, "arith.") || ttOpHasPrefix(op, "math.");
  for (size_t i = 0; i < sizeof allowed / sizeof allowed[0] && !ok; i++)
    ok = ttOpIs(op, allowed[i]);
  if (!ok)
    *(MlirOperation *)bad = op;
  return ok;
}

/* Step 2's check of an scf.if on hopper.producer_warp: a top-level op of the kernel whose
 * then-region holds only producerOpOk's ops. */
static bool producerRegionOk(MlirOperation ifOp, MlirBlock then) {
  if (!ttOpIs(mlirBlockGetParentOperation(mlirOperationGetBlock(ifOp)), "func.func")) {
    ttEmitError(ifOp, "convert-tile-to-gpu: the scf.if on hopper.producer_warp must be a "
                      "top-level op of its kernel");
    return false;
  }
  MlirOperation bad = {NULL};
  for (MlirOperation x = mlirBlockGetFirstOperation(then); !mlirOperationIsNull(x) &&
                                                           mlirOperationIsNull(bad);
       x = mlirOperationGetNextInBlock(x))
    ttWalk(x, producerOpOk, &bad);
  if (!mlirOperationIsNull(bad)) {
    char name[64];
    ttEmitError(bad, "convert-tile-to-gpu: '%s' cannot run in the producer warp's region "
                     "(index math, loops, mbarrier waits and arrivals and TMA copies only)",
                ttOpName(bad, name, sizeof name));
    return false;
  }
  return true;
}

/* The ops of block `from` but its scf.yield, lowered into block `to`: before its
 * terminator where it has one, else at its end, then a yield. */
static bool lowerRegion(Lower *l, MlirBlock from, MlirBlock to) {
  TtBuilder outer = l->b;
  MlirOperation term = mlirBlockGetTerminator(to);
  l->b = (TtBuilder){to, term};
  bool ok = true;
  for (MlirOperation x = mlirBlockGetFirstOperation(from); ok && !mlirOperationIsNull(x);
       x = mlirOperationGetNextInBlock(x))
    if (!ttOpIs(x, "scf.yield"))
      ok = lowerOp(l, x);
  if (mlirOperationIsNull(term))
    tgYield(l, to, (MlirValue){NULL});
  l->b = outer;
  return ok;
}

/* A producer warpgroup's register split (tile.producer_warps = 4): the block starts with
 * ptxas's count a thread under the block's size and blocks an SM (known_block_size and
 * nvvm.minctasm: with setmaxnreg ptxas takes all of it, 64 Ki registers over the blocks'
 * threads rounded down to 8: 168 at 384 threads and one block an SM), the producer gives
 * back all but PRODUCER_REGS (setmaxnreg.dec: it only computes addresses and issues
 * copies) and the consumer warpgroups take the pool's rest (setmaxnreg.inc; 232 with two
 * of them), as CUTLASS's and FlashAttention-3's warp-specialised kernels do. Only on one
 * block an SM (the form --pipeline makes; with more, asked by tile.programs_per_sm, ptxas
 * could not fit the consumers' code in the smaller share and fails where it would spill),
 * and the consumers' only past the start (one consumer warpgroup has 248 already). */
#define PRODUCER_REGS 40
static void setMaxRegisters(Lower *l, bool consumers) {
  if (l->producerWarps != 4 || l->ctas != 1)
    return;
  int64_t threads = l->T + 128, start = TT_SM_REGISTERS / threads / 8 * 8;
  start = start > 248 ? 248 : start;
  int64_t regs = consumers ? (start * threads - 128 * PRODUCER_REGS) / l->T / 8 * 8 : PRODUCER_REGS;
  regs = regs > 248 ? 248 : regs;
  if (consumers && regs <= start)
    return;
  MlirNamedAttribute attrs[2] = {
      ttNamedAttr(l->ctx, "action",
                  mlirAttributeParseGet(l->ctx, ttStrRef(consumers ? "#nvvm<action increase>"
                                                                   : "#nvvm<action decrease>"))),
      ttNamedAttr(l->ctx, "regCount", ttIntAttr(l->ctx, regs, ttI32(l->ctx))),
  };
  tgBuild(l, "nvvm.setmaxregister", 0, NULL, ttNoType(), 2, attrs);
}

/* Step 2 for scf.if without results on a scalar condition (the same in every thread of
 * the block: --splitk's last slice; or, on hopper.producer_warp, a warp-specialised
 * kernel's split): the same if, its blocks lowered op by op. The producer's then-region
 * runs in block thread T alone (an inner if; the layout already sees the warp as threads
 * 0-31, so T computes thread 0's tiles and issues the TMA copies); the warp's other 31
 * lanes skip it. Had they run its `empty` waits too, their waits would hold nothing back:
 * once LLVM unrolls the loop and duplicates a wait into T's path and theirs, the warp may
 * run T's path to the end first, and a lane then waiting at parity p on a slot already two
 * phases further (try_wait.parity cannot tell them apart) spins forever - a hang seen on
 * an H200 (f16 1 x 1000 x 1024, 8 K steps on 3 slots, with the producer's copies
 * reordered; bench/2026-11-29-h200-ws.md run 10). The consumers' else-region takes named
 * barriers of T threads. */
static bool lowerIf(Lower *l, MlirOperation op) {
  MlirValue cv = mlirOperationGetOperand(op, 0);
  Lowered *c = tgLookup(l, cv);
  MlirBlock then = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirBlock other = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 1));
  bool split = ttProducerSplit(op);
  if (!c || mlirOperationGetNumResults(op) != 0 || tgIsTile(cv) ||
      (!split && !mlirBlockIsNull(other) && !ttOpIs(mlirBlockGetFirstOperation(other), "scf.yield"))) {
    ttEmitError(op, "convert-tile-to-gpu: scf.if needs a lowered scalar condition, no "
                    "results and no else-branch (but on hopper.producer_warp)");
    return false;
  }
  if (split && !producerRegionOk(op, then))
    return false;
  MlirOperation ifOp = tgBuildIf(l, c->parts[0], ttNoType());
  int64_t leader = l->leader; /* (an if inside either region keeps its region's) */
  bool consumers = l->consumers;
  MlirBlock into = tgIfBlock(ifOp, 0);
  if (split) { /* then { if (thread id == T) { the producer's ops } } */
    l->leader = l->T;
    TtBuilder outer = l->b;
    l->b = ttBuilderAtEnd(into);
    setMaxRegisters(l, false);
    MlirBlock lead = tgThread0(l, (MlirValue){NULL}); /* (the region's leader: T) */
    tgYield(l, into, (MlirValue){NULL});
    l->b = outer;
    into = lead;
  }
  bool ok = lowerRegion(l, then, into);
  l->leader = leader;
  l->consumers = consumers || split;
  if (ok && split && !mlirBlockIsNull(other)) {
    TtBuilder outer = l->b;
    MlirBlock consumer = tgIfBlock(ifOp, 1);
    l->b = (TtBuilder){consumer, mlirBlockGetTerminator(consumer)};
    setMaxRegisters(l, true);
    l->b = outer;
    ok = lowerRegion(l, other, consumer);
  } else
    tgYield(l, tgIfBlock(ifOp, 1), (MlirValue){NULL});
  l->consumers = consumers;
  return ok;
}

/* hopper.producer_warp: tid >= T, in a kernel with tile.producer_warps = 1 or 4. */
static bool lowerProducerWarp(Lower *l, MlirOperation op) {
  if (l->producerWarps != 1 && l->producerWarps != 4) {
    ttEmitError(op, "convert-tile-to-gpu: hopper.producer_warp needs its kernel's "
                    "tile.producer_warps = 1 or 4");
    return false;
  }
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0)); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (!ttOpIs(mlirOpOperandGetOwner(u), "scf.if")) {
      ttEmitError(op, "convert-tile-to-gpu: hopper.producer_warp may only be the condition "
                      "of an scf.if (the kernel's split)");
      return false;
    }
  tgDefine(l, mlirOperationGetResult(op, 0))->parts[0] = l->inProducer; /* (step 2's) */
  return true;
}

/* Step 2 for tensor.expand_shape/collapse_shape (the flat layout is row-major, so the
 * parts stay) and tile.trans feeding only tile.dot (a transposed view; trans.c decides). */
bool tgLowerView(Lower *l, MlirOperation op) {
  Lowered *x = tgLookup(l, mlirOperationGetOperand(op, 0));
  if (!x) {
    ttEmitError(op, "convert-tile-to-gpu: the operand is not lowered");
    return false;
  }
  Lowered *y = tgDefine(l, mlirOperationGetResult(op, 0));
  MlirValue key = y->key;
  *y = *x;
  y->key = key;
  y->def = op;
  if (ttOpIs(op, "tile.trans")) {
    if (x->mma) {
      ttEmitError(op, "convert-tile-to-gpu: tile.trans of a tile.dot result is not supported");
      return false;
    }
    y->trans = !x->trans;
  }
  return true;
}

/* Operands held as tile.dot fragments, transposed views or in shared memory go to the
 * flat layout (5c, 6) before an op that is neither a dot nor a view uses them (a dot and a
 * transposing view also take shared tiles in place; tile.cluster_reduce takes a dot's
 * fragments, which it stores to shared memory itself). */
static bool flatOperands(Lower *l, MlirOperation op) {
  bool dotLike = ttOpIs(op, "tile.dot") || ttOpIs(op, "tile.trans");
  bool view = dotLike || ttOpIs(op, "tensor.expand_shape") ||
              ttOpIs(op, "tensor.collapse_shape") || ttOpIs(op, "scf.for") ||
              ttOpIs(op, "tile.cluster_reduce"); /* an accumulator goes through its smem */
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    Lowered *x = tgLookup(l, v);
    if (x && x->shared && x->swz && !dotLike) {
      ttEmitError(op, "convert-tile-to-gpu: a TMA slot (128-byte swizzled) can only feed "
                      "tile.dot");
      return false;
    }
    if (x && x->shared && !dotLike) {
      int64_t shape[TT_MAX_RANK];
      if (ttTensorShape(mlirValueGetType(v), shape) == 1) /* a 1 x C slot */
        shape[1] = shape[0], shape[0] = 1;
      tgReadFlat(l, v, x->sbuf, x->parts[0], shape[0], shape[1], x->ld,
               ttElementType(mlirValueGetType(v)));
      continue;
    }
    if (view)
      continue;
    if (x && x->trans) {
      ttEmitError(op, "convert-tile-to-gpu: a tile.trans result can only feed tile.dot");
      return false;
    }
    if (x && x->mma)
      tgToFlat(l, x);
  }
  return true;
}

static bool lowerBarrier(Lower *l, MlirOperation op) {
  (void)op;
  tgBarrier(l);
  return true;
}

static bool lowerReturn(Lower *l, MlirOperation op) {
  (void)op;
  if (l->nclusterSlots) /* no block leaves while another may read its slots */
    tgClusterBarrier(l);
  tgBuild(l, "gpu.return", 0, NULL, ttNoType(), 0, NULL);
  return true;
}

/* Which function lowers which op (step 2); arith and math ops not named here go to
 * tgLowerGeneric. */
typedef bool (*LowerFn)(Lower *l, MlirOperation op);
static const struct {
  const char *name;
  LowerFn fn;
} lowerings[] = {
    /* elementwise.c */
    {"tile.program_id", tgLowerIndex},
    {"tile.num_programs", tgLowerIndex},
    {"tile.range", tgLowerRange},
    {"tile.splat", tgLowerSplat},
    /* load-store.c */
    {"tile.load", tgLowerMemory},
    {"tile.store", tgLowerMemory},
    {"tile.atomic_add", tgLowerMemory},
    /* reduce.c */
    {"tile.reduce", tgLowerReduce},
    {"tile.cluster_reduce", tgLowerClusterReduce},
    /* dot.c, dot-wgmma.c */
    {"tile.dot", tgLowerDot},
    {"hopper.wgmma_wait", tgLowerWgmmaWait},
    /* async-copy.c */
    {"tile.local_alloc", tgLowerLocalAlloc},
    {"tile.local_load", tgLowerLocalLoad},
    {"tile.async_copy", tgLowerAsyncCopy},
    {"tile.async_commit", tgLowerAsyncSync},
    {"tile.async_wait", tgLowerAsyncSync},
    /* hopper.c */
    {"hopper.mbarrier_alloc", tgLowerMbarrierAlloc},
    {"hopper.tma_load", tgLowerTmaLoad},
    {"hopper.mbarrier_wait", tgLowerMbarrierWait},
    {"hopper.mbarrier_arrive", tgLowerMbarrierArrive},
    {"hopper.producer_warp", lowerProducerWarp},
    {"hopper.griddep_wait", tgLowerGriddep},
    {"hopper.griddep_launch_dependents", tgLowerGriddep},
    {"hopper.cluster_barrier", tgLowerClusterBarrierOp},
    {"hopper.cluster_arrive", tgLowerClusterBarrierOp},
    {"hopper.cluster_wait", tgLowerClusterBarrierOp},
    /* here */
    {"tile.barrier", lowerBarrier},
    {"tensor.expand_shape", tgLowerView},
    {"tensor.collapse_shape", tgLowerView},
    /* trans.c */
    {"tile.trans", tgLowerTrans},
    {"scf.for", lowerFor},
    {"scf.if", lowerIf},
    /* load-store.c */
    {"tile.arrive", tgLowerArrive},
    {"func.return", lowerReturn},
};

/* 5c's narrow form: an arith.truncf to f16 or bf16 (no attributes: round to nearest even)
 * of a swapped-form wgmma accumulator that nothing else reads converts it in its
 * fragments and moves it to the flat layout at half the bytes (tgWgmmaToFlatNarrow);
 * true when it did, and defined the truncf's result. Not in a kernel whose wgmma stay in
 * flight across K steps (--pipeline's hopper.wgmma_wait): there ptxas serializes every
 * wgmma when the accumulator is converted after the loop's last wait (C7514, lit
 * pipeline/wgmma-in-flight.mlir), though it takes stores of it. */
static bool narrowToFlat(Lower *l, MlirOperation op) {
  if (!ttOpIs(op, "arith.truncf") || mlirOperationGetNumAttributes(op) != 0)
    return false;
  MlirValue v = mlirOperationGetOperand(op, 0);
  Lowered *x = tgLookup(l, v);
  MlirType out = ttElementType(mlirValueGetType(mlirOperationGetResult(op, 0)));
  MlirOpOperand use = mlirValueGetFirstUse(v);
  if (!x || !x->mma || x->form != TT_MMA_WGMMA || !(mlirTypeIsAF16(out) || mlirTypeIsABF16(out)) ||
      mlirOpOperandIsNull(use) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)))
    return false;
  for (MlirOperation o = mlirBlockGetFirstOperation(mlirOperationGetBlock(op)); /* (once) */
       !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
    if (ttOpIs(o, "hopper.wgmma_wait"))
      return false;
  tgWgmmaToFlatNarrow(l, x, mlirOperationGetResult(op, 0), out);
  return true;
}

/* Step 2 for one op of the kernel body. */
static bool lowerOp(Lower *l, MlirOperation op) {
  if (narrowToFlat(l, op))
    return true;
  if (!flatOperands(l, op))
    return false;
  for (size_t i = 0; i < sizeof lowerings / sizeof lowerings[0]; i++)
    if (ttOpIs(op, lowerings[i].name))
      return lowerings[i].fn(l, op);
  if (ttOpHasPrefix(op, "arith.") || ttOpHasPrefix(op, "math."))
    return tgLowerGeneric(l, op);
  char name[64];
  ttEmitError(op, "convert-tile-to-gpu: cannot lower '%s' yet", ttOpName(op, name, sizeof name));
  return false;
}

/* What scanKernel finds. */
typedef struct {
  int64_t minBytes, minNumel, maxNumel;
  int64_t dotBytes; /* the most shared memory a tile.dot's staging may need */
  int64_t ringBytes; /* the tile.local_alloc buffers' bytes, summed */
  bool failed, dot, tma;
} Scan;

static bool scanOp(MlirOperation op, void *userData) {
  Scan *sc = userData;
  intptr_t n = mlirOperationGetNumResults(op);
  for (intptr_t i = 0; i < n + mlirOperationGetNumOperands(op); i++) {
    MlirValue v = i < n ? mlirOperationGetResult(op, i) : mlirOperationGetOperand(op, i - n);
    MlirType t = mlirValueGetType(v);
    if (!mlirTypeIsARankedTensor(t))
      continue;
    int64_t shape[TT_MAX_RANK];
    int64_t r = ttTensorShape(t, shape);
    if (r < 1 || r > 2) {
      ttEmitError(op, "convert-tile-to-gpu: only 1-D and 2-D tiles are supported");
      sc->failed = true;
      return false;
    }
    int64_t numel = ttTensorNumel(t);
    if (!sc->minNumel || numel < sc->minNumel)
      sc->minNumel = numel;
    if (numel > sc->maxNumel)
      sc->maxNumel = numel;
  }
  /* the data of a load (its result) or store (operand 2), not offsets or masks */
  MlirValue data = ttOpIs(op, "tile.load")         ? mlirOperationGetResult(op, 0)
                   : ttOpIs(op, "tile.store") || ttOpIs(op, "tile.atomic_add")
                       ? mlirOperationGetOperand(op, 2)
                   : ttOpIs(op, "tile.async_copy") ? mlirOperationGetOperand(op, 3)
                   : ttOpIs(op, "hopper.tma_load") ? mlirOperationGetOperand(op, 1)
                                                   : (MlirValue){NULL};
  int bytes = mlirValueIsNull(data) ? 0 : ttDtypeBytes(mlirValueGetType(data));
  if (bytes > 0 && bytes < sc->minBytes)
    sc->minBytes = bytes;
  int64_t a[TT_MAX_RANK], b[TT_MAX_RANK];
  if (ttOpIs(op, "tile.dot") && ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 0)), a) == 2 &&
      ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 1)), b) == 2) {
    int64_t need = ttSmemDotBytes(a[0], b[1], a[1]);
    sc->dotBytes = need > sc->dotBytes ? need : sc->dotBytes;
  }
  MlirType mt = ttOpIs(op, "tile.local_alloc") ? mlirValueGetType(mlirOperationGetResult(op, 0))
                                               : (MlirType){NULL};
  if (!mlirTypeIsNull(mt) && mlirTypeIsAMemRef(mt) && mlirShapedTypeHasStaticShape(mt) &&
      mlirShapedTypeGetRank(mt) == 3) {
    int64_t r = mlirShapedTypeGetDimSize(mt, 1), c = mlirShapedTypeGetDimSize(mt, 2);
    bool swz = !mlirAttributeIsNull(ttOpAttr(op, "tile.swizzled")); /* (unpadded: 5w) */
    sc->ringBytes += mlirShapedTypeGetDimSize(mt, 0) *
                     (swz ? r * c * ttDtypeBytes(mt) : ttSmemTileBytes(r, c, ttDtypeBytes(mt)));
  }
  sc->dot |= ttOpIs(op, "tile.dot");
  sc->tma |= ttOpIs(op, "hopper.tma_load");
  return true;
}

/* The narrowest element (bytes) loaded, stored or atomically added, and the smallest and
 * largest tile (elements), over the kernel and the loops in it; false on a tile of rank
 * above 2. */
static bool scanKernel(MlirOperation func, Scan *sc) {
  *sc = (Scan){16, 0, 0, 0, 0, false, false, false};
  ttWalk(func, scanOp, sc);
  return !sc->failed;
}

/* A tile fits the layout when it is a multiple of VEC * T with at most MAX_REPS runs per
 * thread. Returns the first size that does not fit, or 0. */
static bool fitsOp(MlirOperation op, void *userData) {
  int64_t *ctx = userData; /* [VEC * T, bad] */
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op) && !ctx[1]; i++) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, i));
    int64_t numel = mlirTypeIsARankedTensor(t) ? ttTensorNumel(t) : 0;
    if (numel && (numel % ctx[0] || numel / ctx[0] > MAX_REPS))
      ctx[1] = numel;
  }
  return !ctx[1];
}

/* The module's `gpu.module @tt_kernels`, made at the end of the module the first time it
 * is asked for; *cached holds it after the first call (one lookup per pass, not a scan
 * of the module per kernel), and names the sym_names of the ops it already had. */
static MlirOperation gpuModule(MlirModule module, MlirOperation *cached, TtStrIndex *names) {
  if (!mlirOperationIsNull(*cached))
    return *cached;
  MlirOperation gm = *cached = ttModuleLookup(module, "tt_kernels");
  if (!mlirOperationIsNull(gm)) {
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(gm, 0));
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      MlirAttribute s = ttOpAttr(op, "sym_name");
      if (!mlirAttributeIsNull(s) && mlirAttributeIsAString(s))
        ttStrIndexAdd(names, mlirStringAttrGetValue(s), 0);
    }
    return gm;
  }
  MlirContext ctx = mlirModuleGetContext(module);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, mlirBlockCreate(0, NULL, NULL));
  MlirNamedAttribute name = ttNamedAttr(ctx, "sym_name", ttStrAttr(ctx, "tt_kernels"));
  gm = ttOpCreate("gpu.module", mlirOperationGetLocation(mlirModuleGetOperation(module)), 0,
                  NULL, 0, NULL, 1, &name, 1, &region); /* (at the input file's module) */
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(module), gm);
  mlirOperationSetAttributeByName(mlirModuleGetOperation(module),
                                  ttStrRef("gpu.container_module"), mlirUnitAttrGet(ctx));
  return *cached = gm;
}

/* Steps 1-3 for one kernel. */
static bool lowerKernel(MlirModule module, MlirOperation *gm, TtStrIndex *gmNames,
                        MlirOperation func, const TtPassOptions *opts) {
  MlirContext ctx = mlirOperationGetContext(func);
  Lower l = {0};
  l.wgmma = opts->v[TT_LOWER_MMA] == 1;
  l.selectLoads = opts->v[TT_LOWER_MASKED_LOADS] >= 1;
  l.oneAddressLoads = opts->v[TT_LOWER_MASKED_LOADS] == 2;
  l.target = ttTargetForSm((int)opts->v[TT_LOWER_SM]);
  l.ctx = ctx;
  l.loc = mlirOperationGetLocation(func);
  int64_t warps = ttOpAttrInt(func, "tile.num_warps", 4);
  MlirRegion fr = mlirOperationGetRegion(func, 0);
  if (mlirBlockIsNull(mlirRegionGetFirstBlock(fr)) ||
      !mlirBlockIsNull(mlirBlockGetNextInRegion(mlirRegionGetFirstBlock(fr)))) {
    ttEmitError(func, "convert-tile-to-gpu: a tile kernel must have a body of one block");
    return false;
  }
  l.producerWarps = ttOpAttrInt(func, "tile.producer_warps", 0);
  if (warps < 1 || warps + l.producerWarps > 32) {
    ttEmitError(func, "convert-tile-to-gpu: tile.num_warps = %lld is out of range (1 to 32, "
                      "with tile.producer_warps)",
                (long long)warps);
    return false;
  }
  int splits = 0; /* top-level scf.if ops on hopper.producer_warp */
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(fr));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    splits += ttProducerSplit(op);
  if ((l.producerWarps != 0) != (splits == 1) || splits > 1) {
    ttEmitError(func, "convert-tile-to-gpu: a kernel with tile.producer_warps (1 or 4) splits once "
                      "on hopper.producer_warp (a top-level scf.if), and only such a kernel "
                      "(it has %d such splits)",
                splits);
    return false;
  }
  Scan sc;
  if (!scanKernel(func, &sc))
    return false;
  l.T = 32 * warps;
  int64_t minNumel = sc.minNumel ? sc.minNumel : l.T;
  l.VEC = 16 / sc.minBytes;
  if (sc.dot && l.VEC > 8) /* step 5 moves operands in runs of 8 (fp8 ones widen to f16) */
    l.VEC = 8;
  if (l.VEC * l.T > minNumel)
    l.VEC = minNumel / l.T;
  int64_t fit[2] = {l.VEC * l.T, 0};
  if (l.VEC < 1)
    fit[1] = minNumel;
  else
    ttWalk(func, fitsOp, fit);
  if (fit[1]) {
    ttEmitError(func, "convert-tile-to-gpu: tile size %lld does not fit %lld threads "
                      "(it must be a multiple of 32 * num_warps, with at most %d runs of "
                      "16 bytes per thread)",
                (long long)fit[1], (long long)l.T, MAX_REPS);
    return false;
  }
  l.REPS = (sc.maxNumel ? sc.maxNumel : l.T) / (l.VEC * l.T);
  snprintf(l.smemName, sizeof l.smemName, "__tt_smem_");
  ttOpAttrStr(func, "sym_name", l.smemName + 10, sizeof l.smemName - 10);

  /* Step 1: the gpu.func. */
  MlirBlock tbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  intptr_t nargs = mlirBlockGetNumArguments(tbody);
  MlirType *types = ttAlloc(sizeof(MlirType) * (size_t)(nargs ? nargs : 1));
  MlirLocation *locs = ttAlloc(sizeof(MlirLocation) * (size_t)(nargs ? nargs : 1));
  MlirAttribute *argAttrs = ttAlloc(sizeof(MlirAttribute) * (size_t)(nargs ? nargs : 1));
  MlirType gptr = mlirTypeParseGet(ctx, ttStrRef("!llvm.ptr<1>"));
  MlirType tmaDesc = mlirTypeParseGet(ctx, ttStrRef("!hopper.tma_desc"));
  /* a tensor map: 128 bytes by value (__grid_constant__), the kernel sees its address */
  MlirAttribute byValue = mlirAttributeParseGet(
      ctx, ttStrRef("{llvm.byval = !llvm.array<128 x i8>, llvm.align = 64 : i64, "
                    "nvvm.grid_constant}"));
  MlirAttribute plain = mlirDictionaryAttrGet(ctx, 0, NULL);
  for (intptr_t i = 0; i < nargs; i++) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(tbody, i));
    types[i] = mlirTypeIsAInteger(t) || mlirTypeIsAFloat(t) ? t : gptr;
    argAttrs[i] = mlirTypeEqual(t, tmaDesc) ? byValue : plain;
    if (mlirTypeEqual(t, tmaDesc))
      types[i] = mlirTypeParseGet(ctx, ttStrRef("!llvm.ptr"));
    if (mlirTypeIsARankedTensor(t) || mlirTypeIsAVector(t) || mlirTypeIsAShaped(t)) {
      ttEmitError(func, "convert-tile-to-gpu: argument %d of a tile kernel is a tile; "
                        "kernels take !tile.ptr<T>, integers and floats",
                  (int)i);
      free(types);
      free(locs);
      free(argAttrs);
      return false;
    }
    locs[i] = l.loc;
  }
  MlirRegion region = mlirRegionCreate();
  MlirBlock body = mlirBlockCreate(nargs, types, locs);
  mlirRegionAppendOwnedBlock(region, body);
  MlirAttribute symName = ttOpAttr(func, "sym_name");
  int32_t bs[3] = {(int32_t)(l.T + 32 * l.producerWarps), 1, 1};
  l.ctas = ctasPerSm(&l, sc.ringBytes, ttOpAttrInt(func, "tile.programs_per_sm", 0));
  MlirNamedAttribute attrs[6] = {
      ttNamedAttr(ctx, "sym_name", symName),
      ttNamedAttr(ctx, "function_type",
                  mlirTypeAttrGet(mlirFunctionTypeGet(ctx, nargs, types, 0, NULL))),
      ttNamedAttr(ctx, "gpu.kernel", mlirUnitAttrGet(ctx)),
      ttNamedAttr(ctx, "known_block_size", mlirDenseI32ArrayGet(ctx, 3, bs)),
      ttNamedAttr(ctx, "nvvm.minctasm",
                  ttIntAttr(ctx, l.ctas, ttI32(ctx))),
      /* the llvm.func's (gpu-to-ptx moves them there: a gpu.func cannot carry them) */
      ttNamedAttr(ctx, "tt.llvm_arg_attrs", mlirArrayAttrGet(ctx, nargs, argAttrs)),
  };
  MlirOperation gfunc = ttOpCreate("gpu.func", l.loc, 0, NULL, 0, NULL, 6, attrs, 1, &region);
  l.gpuModule = gpuModule(module, gm, gmNames);
  l.gpuNames = gmNames;
  mlirBlockAppendOwnedOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(l.gpuModule, 0)),
                                gfunc);
  ttStrIndexAdd(gmNames, mlirStringAttrGetValue(symName), 0);
  for (intptr_t i = 0; i < nargs; i++) {
    Lowered *x = tgDefine(&l, mlirBlockGetArgument(tbody, i));
    x->parts[0] = mlirBlockGetArgument(body, i);
  }
  free(types);
  free(locs);
  free(argAttrs);

  /* Step 2. */
  l.b = ttBuilderAtEnd(body);
  l.tid = l.threadId = tgGpuIndex(&l, "gpu.thread_id", 0);
  if (l.producerWarps) { /* the producer warp computes tiles as threads 0-31 do */
    MlirNamedAttribute uge = ttNamedAttr(ctx, "predicate", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 9));
    l.inProducer = tgBuild(&l, "arith.cmpi", 2, (MlirValue[]){l.tid, tgConstI32(&l, l.T)},
                           mlirIntegerTypeGet(ctx, 1), 1, &uge);
    l.tid = tgBuild(&l, "arith.select", 3,
                    (MlirValue[]){l.inProducer, tgArithC(&l, "arith.subi", l.threadId, l.T), l.threadId},
                    ttI32(ctx), 0, NULL);
  }
  /* past the static 48 KiB (rings: with room for the scratch above them) */
  l.dynamic = sc.tma || sc.dotBytes > TT_SMEM_LIMIT || sc.ringBytes + 1024 > TT_SMEM_LIMIT;
  for (intptr_t i = 0; i < nargs; i++) /* thread 0 fetches the tensor maps early */
    if (mlirTypeEqual(mlirValueGetType(mlirBlockGetArgument(tbody, i)), tmaDesc)) {
      TtBuilder outer = l.b;
      MlirBlock then = tgThread0(&l, (MlirValue){NULL});
      l.b = (TtBuilder){then, mlirBlockGetTerminator(then)};
      tgBuild(&l, "nvvm.prefetch", 1, (MlirValue[]){mlirBlockGetArgument(body, i)}, ttNoType(), 2,
            (MlirNamedAttribute[]){ttNamedAttr(ctx, "tensormap", mlirUnitAttrGet(ctx)),
                                    ttNamedAttr(ctx, "in_param_space", mlirUnitAttrGet(ctx))});
      l.b = outer;
    }
  if (l.dynamic) { /* the dynamic buffer's start, rounded up to 1024 bytes */
    MlirValue p = tgSharedAddress(&l, l.smemName);
    MlirValue a = tgBuild(&l, "llvm.ptrtoint", 1, &p, ttI32(ctx), 0, NULL);
    a = tgArithC(&l, "arith.andi", tgArithC(&l, "arith.addi", a, 1023), ~(int64_t)1023);
    l.base = tgBuild(&l, "llvm.inttoptr", 1, &a, mlirTypeParseGet(ctx, ttStrRef("!llvm.ptr<3>")), 0, NULL);
  }
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(tbody); ok && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    ok = lowerOp(&l, op);
  if (ok && l.dynamic) { /* TMA rings or large dot tiles: dynamic, its size (and the
                          * alignment slack) to the metadata */
    tgSharedGlobal(&l, l.smemName, 0, 1024, true);
    mlirOperationSetAttributeByName(gfunc, ttStrRef("tt.dynamic_shared"),
                                    ttIntAttr(ctx, l.smemBytes + 1024, ttI32(ctx)));
  } else if (ok && l.smemBytes) /* step 5's buffer, now that its size is known */
    tgSharedGlobal(&l, l.smemName, l.smemBytes, l.smemAlign ? 1024 : 16, false);
  if (ok && l.pdl) /* for the metadata: a `pdl` launch */
    mlirOperationSetAttributeByName(gfunc, ttStrRef("tt.pdl"), mlirUnitAttrGet(ctx));
  for (int i = 0; i < l.nvals; i++)
    free(l.vals[i]);
  free(l.vals);
  ttPtrIndexDestroy(&l.valIndex);
  if (!ok)
    mlirOperationDestroy(gfunc);
  return ok;
}

bool ttConvertTileToGpu(MlirModule module, const TtPassOptions *opts) {
  MlirBlock body = mlirModuleGetBody(module);
  MlirOperation op = mlirBlockGetFirstOperation(body), gm = {NULL};
  TtStrIndex gmNames = {0}; /* the sym_names in gm */
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (ttOpIs(op, "func.func") && !mlirAttributeIsNull(ttOpAttr(op, "tile.kernel"))) {
      if (!lowerKernel(module, &gm, &gmNames, op, opts))
        break;
      mlirOperationDestroy(op); /* step 4 */
    }
    op = next;
  }
  ttStrIndexDestroy(&gmNames);
  return mlirOperationIsNull(op); /* every kernel lowered */
}
