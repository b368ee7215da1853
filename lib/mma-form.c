/* mma-form.c - which tensor-core form a tile.dot takes, decided once and recorded on it.
 *
 * A tile.dot runs on one of three forms on a target with warpgroup MMA (sm_90a), named by
 * its `mma` attribute (declared in dialects/tile/tile.irdl.mlir):
 *   wgmma         C^T = B^T A^T: N in 64-row blocks per warpgroup, M wgmma's narrow side
 *                 (convert-tile-to-gpu's 5w);
 *   wgmma-direct  C = A B: 64 rows of M per warpgroup, all of N (a multiple of 8 up to
 *                 256) as wgmma's n, B read K-major (5w d);
 *   sync          mma.sync.m16n8k16 (step 5): the tile fits neither, or an operand is a
 *                 slot of a cp.async ring, which only ldmatrix reads.
 * On other targets (convert-tile-to-gpu mma=sync) every dot runs on mma.sync.
 *
 * Algorithm (ttDotMmaFormFor; ttDotRecordMmaForm records its answer):
 *  1. Find where each operand comes from: registers (a loaded tile), a slot of a TMA ring
 *     (tile.local_load of a tile.local_alloc that hopper.tma_load fills, or one marked
 *     `tile.swizzled`: laid out as such a ring), or a slot of a cp.async ring (any other).
 *  2. A cp.async slot means sync. fp8 operands in TMA slots run fp8 wgmma in place, which
 *     needs both in slots and B K-major (a tile.trans of an [N, K] box); else sync.
 *  3. Otherwise the shape decides (ttMmaFormChoose): whole warpgroups; the swapped form
 *     where N is a multiple of 64 per warpgroup and M a multiple of 8 up to 256, the
 *     direct form where ttWgmmaDirect holds and B is K-major; K a multiple of 64 (128 for
 *     fp8 slots: one 128-byte row); at most TT_MMA_MAX_PARTS accumulator vectors per
 *     thread. Else sync.
 * --tile records the form when it makes a dot (operands in registers); --pipeline records
 * it again where it moves operands into rings. The lowering reads it (tgDotForm).
 */
#include "tt.h"

#include <string.h>

const char *const ttMmaFormNames[] = {"sync", "wgmma", "wgmma-direct", NULL};

/* The vector<4xf32> parts per thread of an M x N accumulator in a wgmma form. */
static int64_t wgmmaParts(TtMmaForm form, int64_t m, int64_t n, int64_t warps) {
  return form == TT_MMA_WGMMA_DIRECT ? n / 8 : n / (warps / 4) / 64 * (m / 8);
}

TtMmaForm ttMmaFormChoose(int64_t m, int64_t n, int64_t k, int64_t warps, bool fp8Slots,
                          bool bT) {
  if (warps < 4 || warps % 4 || k % (fp8Slots ? 128 : 64))
    return TT_MMA_SYNC;
  TtMmaForm form = TT_MMA_SYNC;
  if (n % (64 * (warps / 4)) == 0 && m % 8 == 0 && m <= 256)
    form = TT_MMA_WGMMA;
  else if (bT && ttWgmmaDirect(m, n, warps))
    form = TT_MMA_WGMMA_DIRECT;
  if (form != TT_MMA_SYNC && wgmmaParts(form, m, n, warps) > TT_MMA_MAX_PARTS)
    return TT_MMA_SYNC;
  return form;
}

/* The defining op of v, looking through tile.trans (a null op for block arguments). */
static MlirOperation producer(MlirValue v) {
  while (mlirValueIsAOpResult(v)) {
    MlirOperation op = mlirOpResultGetOwner(v);
    if (!ttOpIs(op, "tile.trans"))
      return op;
    v = mlirOperationGetOperand(op, 0);
  }
  return (MlirOperation){NULL};
}

/* True when ring (a tile.local_alloc result) is filled by hopper.tma_load, or laid out
 * as such a ring (`tile.swizzled`: --pipeline's resident copies). */
static bool tmaRing(MlirValue ring) {
  if (mlirValueIsAOpResult(ring) &&
      !mlirAttributeIsNull(ttOpAttr(mlirOpResultGetOwner(ring), "tile.swizzled")))
    return true;
  for (MlirOpOperand u = mlirValueGetFirstUse(ring); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (ttOpIs(mlirOpOperandGetOwner(u), "hopper.tma_load"))
      return true;
  return false;
}

bool ttDotOperandInSlot(MlirOperation dot, int i) {
  MlirOperation def = producer(mlirOperationGetOperand(dot, i));
  return !mlirOperationIsNull(def) && ttOpIs(def, "tile.local_load");
}

TtMmaForm ttDotMmaFormFor(MlirOperation dot, int64_t warps) {
  int64_t as[TT_MAX_RANK], bs[TT_MAX_RANK];
  MlirValue bv = mlirOperationGetOperand(dot, 1);
  bool bT = ttTransposedView(bv);
  bool fp8 = ttTypeIsFp8(ttElementType(mlirValueGetType(mlirOperationGetOperand(dot, 0))));
  int slots = 0, ringSlots = 0; /* step 1 */
  for (int i = 0; i < 2; i++) {
    if (!ttDotOperandInSlot(dot, i))
      continue;
    slots++;
    ringSlots += !tmaRing(mlirOperationGetOperand(producer(mlirOperationGetOperand(dot, i)), 0));
  }
  bool fp8Slots = fp8 && slots;
  if (ttTensorShape(mlirValueGetType(mlirOperationGetOperand(dot, 0)), as) != 2 ||
      ttTensorShape(mlirValueGetType(bv), bs) != 2 || ringSlots || /* step 2 */
      (fp8Slots && (slots != 2 || !bT)))
    return TT_MMA_SYNC;
  return ttMmaFormChoose(as[0], bs[1], as[1], warps, fp8Slots, bT); /* step 3 */
}

void ttDotRecordMmaForm(MlirOperation dot, int64_t warps) {
  MlirContext ctx = mlirOperationGetContext(dot);
  TtMmaForm form = ttDotMmaFormFor(dot, warps);
  mlirOperationSetAttributeByName(dot, ttStrRef("mma"), ttStrAttr(ctx, ttMmaFormNames[form]));
}

TtMmaForm ttDotMmaForm(MlirOperation dot) {
  char name[16] = "";
  ttOpAttrStr(dot, "mma", name, sizeof name);
  for (int f = 0; ttMmaFormNames[f]; f++)
    if (strcmp(ttMmaFormNames[f], name) == 0)
      return (TtMmaForm)f;
  return TT_MMA_SYNC; /* (the tile IRDL admits only the three names) */
}
