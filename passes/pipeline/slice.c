/* slice.c - --pipeline's step 1: a loop body's load slice (the tile.load ops and the ops
 * their offsets and masks need, found backwards from the loads), and its clones at another
 * step of the loop (the prologue's, and each step's refill), as registers, cp.async copies
 * or TMA boxes. */
#include "pipeline.h"


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

static bool usesResultOf(MlirOperation user, MlirOperation def) {
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(user); k++) {
    MlirValue x = mlirOperationGetOperand(user, k);
    if (mlirValueIsAOpResult(x) && mlirOperationEqual(mlirOpResultGetOwner(x), def))
      return true;
  }
  return false;
}

/* Whether op reads iv or a result of an op of s marked in dep (ops[0..i)). */
static bool readsIv(const LoadSlice *s, const bool *dep, int i, MlirValue iv) {
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(s->ops[i]); k++) {
    MlirValue x = mlirOperationGetOperand(s->ops[i], k);
    if (mlirValueEqual(x, iv))
      return true;
    for (int j = 0; j < i && mlirValueIsAOpResult(x); j++)
      if (dep[j] && mlirOperationEqual(mlirOpResultGetOwner(x), s->ops[j]))
        return true;
  }
  return false;
}

/* The load slice of body (step 1); with ivOnly, only the loads whose offsets or mask
 * depend on the loop's induction variable (a row loop's rows, not a weight read at the
 * same columns every row). */
bool plLoadSlice(MlirBlock body, LoadSlice *s, bool ivOnly) {
  s->n = s->nloads = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (s->n == MAX_SLICE)
      return false;
    s->ops[s->n++] = op;
  }
  bool dep[MAX_SLICE] = {false};
  for (int i = 0; ivOnly && i < s->n; i++)
    dep[i] = readsIv(s, dep, i, mlirBlockGetArgument(body, 0));
  for (int i = s->n - 1; i >= 0; i--) {
    s->in[i] = ttOpIs(s->ops[i], "tile.load") && (!ivOnly || dep[i]);
    for (int j = i + 1; j < s->n && !s->in[i]; j++)
      s->in[i] = s->in[j] && usesResultOf(s->ops[j], s->ops[i]);
    if (ttOpIs(s->ops[i], "tile.load") && (!ivOnly || dep[i]) &&
        mlirOperationGetNumRegions(s->ops[i]) == 0) {
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
 * load's mask is and-ed with splat(ok) (ok null: as it is). Registers (no rings, or a load
 * without one): the new loads' results go to out (program order). Shared: load n becomes
 * a tile.async_copy into slot `slot` of its ring; tma: a hopper.tma_load of its box there
 * when ok. A resident load (Rings.resident) is a tile.async_copy into slot `slot` of its
 * buffer in the copy loop's clone (Rings.residentCopy), the only load cloned there; the
 * other clones skip it. */
void plCloneSlice(TtBuilder *b, MlirLocation loc, const LoadSlice *s, MlirValue iv,
                  MlirValue k, MlirValue ok, const Rings *rings, MlirValue slot,
                  MlirValue *out) {
  const MlirValue *bufs = rings ? rings->bufs : NULL;
  ValueMap m = {.n = 0};
  mapPut(&m, iv, k);
  int nl = 0, nc = 0; /* loads, carried loads */
  for (int i = 0; i < s->n; i++) {
    if (!s->in[i])
      continue;
    MlirOperation c = mlirOperationClone(s->ops[i]);
    for (intptr_t j = 0; j < mlirOperationGetNumOperands(c); j++)
      mlirOperationSetOperand(c, j, mapped(&m, mlirOperationGetOperand(c, j)));
    bool isLoad = ttOpIs(c, "tile.load");
    bool resident = isLoad && rings && rings->resident[nl];
    if (isLoad && rings && resident != rings->residentCopy) { /* (the other clone's) */
      nl++;
      mlirOperationDestroy(c);
      continue;
    }
    bool ring = isLoad && rings && (rings->ring[nl] || resident);
    if (ring && rings->tma && !resident && !rings->copied[nl]) { /* the box at offsets[0] */
      MlirContext ctx = mlirLocationGetContext(loc);
      MlirNamedAttribute attrs[2] = {
          ttNamedAttr(ctx, "dims", ttOpAttr(c, "tile.box")),
          ttNamedAttr(ctx, "multicast", ttIntAttr(ctx, rings->multicast[nl], ttI32(ctx)))};
      MlirValue ops[6] = {rings->descs[nl], bufs[nl], slot, rings->bars[nl],
                          mlirOperationGetOperand(c, 1), ok};
      ttBuild(b, "hopper.tma_load", loc, 6, ops, ttNoType(), rings->multicast[nl] > 1 ? 2 : 1,
              attrs);
      nl++;
      mlirOperationDestroy(c);
      continue;
    }
    if (isLoad) {
      MlirValue mask = mlirOperationGetOperand(c, 2);
      if (!mlirValueIsNull(ok)) {
        MlirValue okTile = ttBuild(b, "tile.splat", loc, 1, &ok, mlirValueGetType(mask), 0, NULL);
        mask = ttBinary(b, loc, "arith.andi", mask, okTile);
      }
      if (ring) {
        MlirValue ops[5] = {mlirOperationGetOperand(c, 0), mlirOperationGetOperand(c, 1), mask,
                            bufs[nl++], slot};
        ttBuild(b, "tile.async_copy", loc, 5, ops, ttNoType(), 0, NULL);
        mlirOperationDestroy(c);
        continue;
      }
      mlirOperationSetOperand(c, 2, mask);
      out[nc++] = mlirOperationGetResult(c, 0);
      nl++;
    }
    ttInsert(b, c);
    for (intptr_t r = 0; r < mlirOperationGetNumResults(c); r++)
      mapPut(&m, mlirOperationGetResult(s->ops[i], r), mlirOperationGetResult(c, r));
  }
}
