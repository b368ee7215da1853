/* pipeline.c - the --pipeline pass: software pipelining of a dot kernel's K loop.
 *
 * Without it, each step of the K loop loads its A and B tiles and then waits for them
 * before the tile.dot: per program, memory and tensor cores take turns. With num-stages =
 * S, the loads of step i + S - 1 are issued at the top of step i, so S - 1 steps of loads
 * are in flight while step i computes. The tiles in flight are carried by the loop (this
 * version stages them in registers: the lowering keeps scf.for's carried tiles in
 * registers; an asynchronous copy to shared memory, cp.async or TMA, is the next form).
 *
 * Algorithm, for each tile kernel with a K loop (ttDotLoop) and S >= 2:
 *  1. The *load slice*: the loop body's tile.load ops and the body ops they depend on
 *     (offsets and masks, computed from the induction variable k).
 *  2. Prologue, before the loop: for j = 0 .. S-2, a copy of the slice at k = lb + j * step,
 *     each load's mask and-ed with `k < ub` (a loop shorter than S - 1 steps loads nothing
 *     past its end).
 *  3. A new loop over the same range carries the old loop's values and S - 1 tiles per
 *     load. Its body: a copy of the slice at k + (S - 1) * step (masked the same way), then
 *     the old body with each load's result replaced by the oldest carried tile of that load;
 *     it yields the old values, the carried tiles shifted by one, and the new loads.
 *  4. The old loop's results are replaced by the new loop's; the old loop is erased. The
 *     kernel gets `tile.num_stages = S` (also for S = 1, which changes nothing else), and a
 *     kernel that has it is left alone: tt-translate runs the pass with its defaults on
 *     whatever tt-opt did not pipeline.
 */
#include "tt.h"

#include <stdlib.h>

#define MAX_SLICE 256
#define MAX_LOADS 8

/* An old-value -> new-value map for cloning the slice. */
typedef struct {
  MlirValue from[MAX_SLICE * 2], to[MAX_SLICE * 2];
  int n;
} ValueMap;

static MlirValue mapped(const ValueMap *m, MlirValue v) {
  for (int i = m->n - 1; i >= 0; i--)
    if (mlirValueEqual(m->from[i], v))
      return m->to[i];
  return v;
}

static void mapPut(ValueMap *m, MlirValue from, MlirValue to) {
  if (m->n < MAX_SLICE * 2) {
    m->from[m->n] = from;
    m->to[m->n++] = to;
  }
}

/* Step 1: the body's ops in order, and which are in the load slice. */
typedef struct {
  MlirOperation ops[MAX_SLICE];
  bool in[MAX_SLICE];
  int n;
  MlirOperation loads[MAX_LOADS];
  int nloads;
} LoadSlice;

static bool usesResultOf(MlirOperation user, MlirOperation def) {
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(user); k++) {
    MlirValue x = mlirOperationGetOperand(user, k);
    if (mlirValueIsAOpResult(x) && mlirOperationEqual(mlirOpResultGetOwner(x), def))
      return true;
  }
  return false;
}

static bool loadSlice(MlirBlock body, LoadSlice *s) {
  s->n = s->nloads = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (s->n == MAX_SLICE)
      return false;
    s->ops[s->n++] = op;
  }
  for (int i = s->n - 1; i >= 0; i--) {
    s->in[i] = ttOpIs(s->ops[i], "tile.load");
    for (int j = i + 1; j < s->n && !s->in[i]; j++)
      s->in[i] = s->in[j] && usesResultOf(s->ops[j], s->ops[i]);
    if (ttOpIs(s->ops[i], "tile.load") && mlirOperationGetNumRegions(s->ops[i]) == 0) {
      if (s->nloads == MAX_LOADS)
        return false;
      s->loads[s->nloads++] = s->ops[i];
    }
    if (s->in[i] && mlirOperationGetNumRegions(s->ops[i]) != 0)
      return false; /* a loop or branch computing a load's offsets: not handled */
  }
  /* loads were found last to first: put them in program order */
  for (int i = 0; i < s->nloads / 2; i++) {
    MlirOperation t = s->loads[i];
    s->loads[i] = s->loads[s->nloads - 1 - i];
    s->loads[s->nloads - 1 - i] = t;
  }
  return s->nloads > 0;
}

/* A copy of the slice at builder b with the induction variable `iv` mapped to k; each
 * load's mask is and-ed with splat(ok). The new loads' results go to out (program order). */
static void cloneSlice(TtBuilder *b, MlirLocation loc, const LoadSlice *s, MlirValue iv,
                       MlirValue k, MlirValue ok, MlirValue *out) {
  ValueMap m = {.n = 0};
  mapPut(&m, iv, k);
  int nl = 0;
  for (int i = 0; i < s->n; i++) {
    if (!s->in[i])
      continue;
    MlirOperation c = mlirOperationClone(s->ops[i]);
    for (intptr_t j = 0; j < mlirOperationGetNumOperands(c); j++)
      mlirOperationSetOperand(c, j, mapped(&m, mlirOperationGetOperand(c, j)));
    if (ttOpIs(c, "tile.load")) {
      MlirValue mask = mlirOperationGetOperand(c, 2);
      MlirType mt = mlirValueGetType(mask);
      MlirValue okTile = ttBuild(b, "tile.splat", loc, 1, &ok, mt, 0, NULL);
      mlirOperationSetOperand(c, 2, ttBinary(b, loc, "arith.andi", mask, okTile));
      out[nl++] = mlirOperationGetResult(c, 0);
    }
    ttInsert(b, c);
    for (intptr_t r = 0; r < mlirOperationGetNumResults(c); r++)
      mapPut(&m, mlirOperationGetResult(s->ops[i], r), mlirOperationGetResult(c, r));
  }
}

/* `lb + j * step` and whether it is below ub. */
static void stageK(TtBuilder *b, MlirLocation loc, MlirValue base, MlirValue step, int64_t j,
                   MlirValue ub, MlirValue *k, MlirValue *ok) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType i32 = mlirValueGetType(base);
  *k = base;
  if (j)
    *k = ttBinary(b, loc, "arith.addi", base,
                  ttBinary(b, loc, "arith.muli", step, ttConstInt(b, loc, i32, j)));
  MlirNamedAttribute slt = ttNamedAttr(ctx, "predicate",
                                       mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 2));
  *ok = ttBuild(b, "arith.cmpi", loc, 2, (MlirValue[]){*k, ub}, mlirIntegerTypeGet(ctx, 1), 1,
                &slt);
}

/* Steps 1-4 for one kernel. */
static bool pipelineKernel(MlirOperation kernel, int64_t stages) {
  MlirBlock kbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  MlirOperation loop = ttDotLoop(kbody);
  if (mlirOperationIsNull(loop) || !mlirAttributeIsNull(ttOpAttr(kernel, "tile.num_stages")))
    return true;
  MlirContext ctx = mlirOperationGetContext(kernel);
  if (stages < 2) { /* recorded, so that a later default run (tt-translate) leaves it */
    mlirOperationSetAttributeByName(kernel, ttStrRef("tile.num_stages"),
                                    ttIntAttr(ctx, 1, ttI32(ctx)));
    return true;
  }
  MlirLocation loc = mlirOperationGetLocation(loop);
  MlirBlock body = ttForBody(loop);
  LoadSlice *s = ttAlloc(sizeof(LoadSlice));
  if (!loadSlice(body, s)) {
    ttEmitError(loop, "pipeline: the K loop must load its tiles with tile.load from offsets "
                      "computed without loops or branches (at most %d loads, %d ops)",
                MAX_LOADS, MAX_SLICE);
    free(s);
    return false;
  }
  MlirValue lb = mlirOperationGetOperand(loop, 0), ub = mlirOperationGetOperand(loop, 1),
            step = mlirOperationGetOperand(loop, 2);
  intptr_t nold = mlirOperationGetNumOperands(loop) - 3;
  int nl = s->nloads, carried = (int)(stages - 1) * nl;
  MlirValue *inits = ttAlloc(sizeof(MlirValue) * (size_t)(nold + carried + 1));
  for (intptr_t i = 0; i < nold; i++)
    inits[i] = mlirOperationGetOperand(loop, 3 + i);

  /* Step 2: the prologue. */
  TtBuilder b = {kbody, loop};
  MlirValue iv = mlirBlockGetArgument(body, 0);
  for (int64_t j = 0; j + 1 < stages; j++) {
    MlirValue k, ok;
    stageK(&b, loc, lb, step, j, ub, &k, &ok);
    cloneSlice(&b, loc, s, iv, k, ok, inits + nold + j * nl);
  }

  /* Step 3: the new loop. */
  MlirOperation nloop = ttBuildFor(&b, loc, lb, ub, step, nold + carried, inits);
  MlirBlock nbody = ttForBody(nloop);
  TtBuilder nb = ttBuilderAtEnd(nbody);
  MlirValue niv = mlirBlockGetArgument(nbody, 0);
  MlirValue *next = ttAlloc(sizeof(MlirValue) * (size_t)(nl + 1));
  MlirValue k, ok;
  stageK(&nb, loc, niv, step, stages - 1, ub, &k, &ok);
  cloneSlice(&nb, loc, s, iv, k, ok, next);
  for (int i = 0; i < nl; i++) /* the oldest carried tile of each load */
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(s->loads[i], 0),
                                  mlirBlockGetArgument(nbody, 1 + nold + i));
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
  MlirValue *ys = ttAlloc(sizeof(MlirValue) * (size_t)(nold + carried + 1));
  for (intptr_t i = 0; i < nold; i++)
    ys[i] = mlirOperationGetOperand(yield, i);
  for (int i = nl; i < carried; i++) /* shift the carried tiles by one stage */
    ys[nold + i - nl] = mlirBlockGetArgument(nbody, 1 + nold + i);
  for (int i = 0; i < nl; i++)
    ys[nold + carried - nl + i] = next[i];
  ttBuild(&nb, "scf.yield", loc, nold + carried, ys, ttNoType(), 0, NULL);

  /* Step 4. The moved loads are now unused; so are slice ops used only by them. */
  for (intptr_t i = 0; i < nold; i++)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(loop, i),
                                  mlirOperationGetResult(nloop, i));
  mlirOperationDestroy(loop);
  for (int i = s->n - 1; i >= 0; i--) {
    if (!s->in[i] || mlirOperationEqual(s->ops[i], yield))
      continue;
    bool used = false;
    for (intptr_t r = 0; r < mlirOperationGetNumResults(s->ops[i]) && !used; r++)
      used = !mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(s->ops[i], r)));
    if (!used)
      mlirOperationDestroy(s->ops[i]);
  }
  mlirOperationSetAttributeByName(kernel, ttStrRef("tile.num_stages"),
                                  ttIntAttr(ctx, stages, ttI32(ctx)));
  free(inits);
  free(next);
  free(ys);
  free(s);
  return true;
}

bool ttPipelinePass(MlirModule module, const TtPassOptions *opts) {
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (ttOpIs(op, "func.func") && !mlirAttributeIsNull(ttOpAttr(op, "tile.kernel")) &&
        !pipelineKernel(op, opts->v[0]))
      return false;
  return true;
}
