/* async-copy.c - step 6 of --convert-tile-to-gpu: shared-memory rings and
 * asynchronous copies (--pipeline stage-in=shared).
 *
 * A tile.local_alloc memref<S x R x C x T, 3> is a part of the kernel's shared-memory
 * buffer: S slots of R rows of C elements, each row padded by 16 bytes as in 5a
 * (ttSmemTileBytes), so a slot feeds ldmatrix without bank conflicts. tile.async_copy
 * sends run r of its flat tile (first element e) to row e / C, column e % C of the slot:
 * one cp.async (sm_80+; .cg, not kept in L1, for 16 bytes; a run of more than 16 bytes, a
 * wider element than the kernel's narrowest, one a 16 bytes) when the run's offsets are
 * contiguous and aligned - with a mask constant over the run the copy's source size is
 * its size or 0 (zero fill), else it runs under step 3's guard, the lanes one by one
 * under the mask where it is off - and otherwise (offsets off alignment: a staged row of
 * an odd width) the lanes are loaded one by one without a branch (each from the tensor's
 * start where its mask is off, then zero selected: every load of the copy in flight at
 * once) and stored to the slot.
 * A buffer marked `tile.swizzled` (--pipeline's resident copies, read by wgmma) is laid out
 * as a TMA ring (5w: 1024-byte aligned slots, 128-byte swizzle, no padding); a copy into
 * it sends each aligned run of the group (the offsets' contiguity: 4, 8 or 16 bytes) as
 * one cp.async to its swizzled address, its source size the run's or 0 where its mask is
 * off; runs under 4 bytes (rows of an odd width) are loaded lane by lane without a branch
 * and stored to their 16-byte chunk. tile.async_commit and
 * tile.async_wait are cp.async.commit_group and cp.async.wait_group + a barrier (after a
 * copy into a swizzled buffer: with fence.proxy.async between them, since wgmma reads it
 * through the async proxy).
 * tile.local_load makes a tile held in shared memory: tile.dot reads it in place (no 5a
 * staging); any other use reads it into the flat layout (a 1-D tile: a 1 x C slot, the
 * chunk of a staged row, --tile's rows.c 3'). fp8 tiles are not staged this
 * way (--pipeline keeps them in registers: they widen to f16 before ldmatrix). */

#include "lower.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool tgLowerLocalAlloc(Lower *l, MlirOperation op) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  int eb = ttDtypeBytes(t);
  if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t) || mlirShapedTypeGetRank(t) != 3 ||
      !eb || 16 % eb || (mlirShapedTypeGetDimSize(t, 2) * eb) % 16) {
    ttEmitError(op, "convert-tile-to-gpu: tile.local_alloc needs a static memref<S x R x C x "
                    "T, 3> whose rows are a multiple of 16 bytes");
    return false;
  }
  int64_t rows = mlirShapedTypeGetDimSize(t, 1), cols = mlirShapedTypeGetDimSize(t, 2);
  /* filled by hopper.tma_load, or marked so: 5w's layout, 1024-byte aligned slots */
  bool swz = !mlirAttributeIsNull(ttOpAttr(op, "tile.swizzled"));
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    swz = swz || ttOpIs(mlirOpOperandGetOwner(u), "hopper.tma_load");
  if (swz && (eb > 2 || (cols * eb) % 128 || rows % 8)) {
    ttEmitError(op, "convert-tile-to-gpu: a ring that hopper.tma_load fills (or marked "
                    "tile.swizzled) needs 1- or 2-byte elements, a multiple of 8 rows and "
                    "rows of a multiple of 128 bytes");
    return false;
  }
  int64_t align = swz ? 1024 : 16;
  int64_t at = (l->smemBytes + align - 1) / align * align; /* past everything used so far */
  int64_t slot = swz ? rows * cols * eb : ttSmemTileBytes(rows, cols, eb);
  l->ringTop = l->smemBytes = at + mlirShapedTypeGetDimSize(t, 0) * slot;
  l->ringsDead = false;
  l->smemAlign = l->smemAlign || swz;
  Lowered *x = tgDefine(l, mlirOperationGetResult(op, 0));
  x->sbuf = tgGep(l, tgSmemBase(l), tgConstI32(l, at), mlirIntegerTypeGet(l->ctx, 8));
  x->swz = swz;
  x->ld = swz ? cols : cols + 16 / eb;
  x->slotElems = swz ? rows * cols : rows * x->ld;
  return true;
}

/* One cp.async of `bytes` from global src to shared dst; `size` (may be null) is how many
 * source bytes are read, the rest zero-filled. */
static void cpAsync(Lower *l, MlirValue dst, MlirValue src, int64_t bytes, MlirValue size) {
  MlirNamedAttribute attrs[2] = {
      ttNamedAttr(l->ctx, "modifier",
                  mlirAttributeParseGet(l->ctx, ttStrRef(bytes == 16 ? "#nvvm<load_cache_modifier cg>"
                                                                     : "#nvvm<load_cache_modifier ca>"))),
      ttNamedAttr(l->ctx, "size", ttIntAttr(l->ctx, bytes, ttI32(l->ctx))),
  };
  tgBuild(l, "nvvm.cp.async.shared.global", mlirValueIsNull(size) ? 2 : 3,
        (MlirValue[]){dst, src, size}, ttNoType(), 2, attrs);
}

/* A run of `bytes` from src to dst as cp.asyncs of `piece` bytes (`per` elements each). */
static void cpAsyncRun(Lower *l, MlirValue dst, MlirValue src, int64_t bytes, int64_t piece,
                       int64_t per, MlirType elem, MlirValue size) {
  for (int64_t k = 0; k < bytes / piece; k++)
    cpAsync(l, k ? tgGep(l, dst, tgConstI32(l, k * per), elem) : dst,
            k ? tgGep(l, src, tgConstI32(l, k * per), elem) : src, piece, size);
}

/* A copy into a swizzled buffer (the header): group r of the tile at (row, col). */
static void swizzledGroup(Lower *l, Lowered *ptr, Lowered *offs, Lowered *mask, MlirValue dst0,
                          int64_t rows, int64_t cols, int r, MlirType elem, MlirValue zero) {
  int64_t eb = ttDtypeBytes(elem), epc = 16 / eb;
  MlirValue row, col;
  tgRunAt(l, r, cols, &row, &col);
  Lanes s = tgLanesOf(l, offs, mask, r);
  int64_t w = s.run < epc ? s.run : epc; /* a run's piece: within one 16-byte chunk */
  if (w * eb >= 4) {
    for (int64_t lo = 0; lo < l->VEC; lo += w) {
      MlirValue c = lo ? tgArithC(l, "arith.addi", col, lo) : col;
      MlirValue dst = tgGep(l, dst0, tgSwizzledOffset(l, row, c, rows, eb, w < epc), elem);
      MlirValue src = tgGep(l, ptr->parts[0], tgExtract(l, s.offs, lo), elem);
      MlirValue size = tgBuild(l, "arith.select", 3,
                               (MlirValue[]){tgRunAllOn(l, &s, mask, lo, w), tgConstI32(l, w * eb),
                                             tgConstI32(l, 0)},
                               ttI32(l->ctx), 0, NULL);
      cpAsync(l, dst, src, w * eb, size);
    }
    return;
  }
  /* lane by lane, stored a chunk (at most 16 bytes) at a time */
  MlirValue v = tgLoadLanesSelect(l, ptr->parts[0], &s, zero, elem);
  int64_t per = l->VEC < epc ? l->VEC : epc;
  MlirType ct = mlirVectorTypeGet(1, &per, elem);
  MlirNamedAttribute align = tgAlignAttr(l, per * eb);
  for (int64_t lo = 0; lo < l->VEC; lo += per) {
    MlirValue part = v;
    if (per < l->VEC) { /* (a kernel of narrower elements: groups past 16 bytes) */
      part = tgPoison(l, ct);
      for (int64_t i = 0; i < per; i++)
        part = tgInsert(l, tgExtract(l, v, lo + i), part, i);
    }
    MlirValue c = lo ? tgArithC(l, "arith.addi", col, lo) : col; /* (in its chunk: per < epc) */
    tgStore(l, part, tgGep(l, dst0, tgSwizzledOffset(l, row, c, rows, eb, per < epc), elem),
            &align);
  }
}

bool tgLowerAsyncCopy(Lower *l, MlirOperation op) {
  Lowered *x[5]; /* ptr, offsets, mask, ring, slot */
  tgOperands(l, op, 5, x);
  Lowered *ptr = x[0], *offs = x[1], *mask = x[2], *ring = x[3], *slot = x[4];
  MlirType rt = mlirValueGetType(mlirOperationGetOperand(op, 3));
  MlirType elem = ttElementType(rt);
  int64_t bytes = l->VEC * ttDtypeBytes(elem);
  /* a run past 16 bytes (a wider element than the kernel's narrowest) takes several
   * 16-byte copies of `per` elements each */
  int64_t piece = bytes > 16 ? 16 : bytes, per = piece / ttDtypeBytes(elem);
  if (!ptr || !offs || !mask || !ring || !slot || mlirValueIsNull(ring->sbuf) ||
      (bytes != 4 && bytes != 8 && bytes % 16 != 0)) {
    ttEmitError(op, "convert-tile-to-gpu: tile.async_copy needs a tile.local_alloc buffer "
                    "and runs of 4, 8 or a multiple of 16 bytes");
    return false;
  }
  MlirType vt = tgVecOf(l, elem);
  MlirAttribute z = mlirTypeIsAFloat(elem) ? mlirFloatAttrDoubleGet(l->ctx, elem, 0.0)
                                           : mlirIntegerAttrGet(elem, 0);
  MlirNamedAttribute zattr = ttNamedAttr(l->ctx, "value", mlirDenseElementsAttrSplatGet(vt, z));
  MlirValue zero = tgBuild(l, "arith.constant", 0, NULL, vt, 1, &zattr);
  MlirValue base = tgArithC(l, "arith.muli", slot->parts[0], ring->slotElems);
  int64_t cols = mlirShapedTypeGetDimSize(rt, 2);
  if (ring->swz) {
    MlirValue dst0 = tgGep(l, ring->sbuf, base, elem);
    for (int r = 0; r < offs->n; r++)
      swizzledGroup(l, ptr, offs, mask, dst0, mlirShapedTypeGetDimSize(rt, 1), cols, r, elem,
                    zero);
    l->asyncProxy = true;
    return true;
  }
  for (int r = 0; r < offs->n; r++) {
    MlirValue row, col;
    tgRunAt(l, r, cols, &row, &col);
    MlirValue off = tgArith(l, "arith.addi", tgArithC(l, "arith.muli", row, ring->ld), col);
    MlirValue dst = tgGep(l, ring->sbuf, tgArith(l, "arith.addi", base, off), elem);
    Lanes s = tgLanesOf(l, offs, mask, r);
    MlirNamedAttribute align = tgAlignAttr(l, piece);
    if (s.contig && mask->axis.constancy >= l->VEC) {
      MlirValue src = tgGep(l, ptr->parts[0], tgExtract(l, s.offs, 0), elem);
      MlirValue size = tgBuild(l, "arith.select", 3,
                             (MlirValue[]){tgExtract(l, s.mask, 0), tgConstI32(l, piece), tgConstI32(l, 0)},
                             ttI32(l->ctx), 0, NULL);
      cpAsyncRun(l, dst, src, bytes, piece, per, elem, size);
      continue;
    }
    MlirOperation ifOp = s.contig ? tgBuildIf(l, tgAllLanesOn(l, &s, mask), ttNoType())
                                  : (MlirOperation){NULL};
    TtBuilder saved = l->b;
    if (ifOp.ptr) {
      l->b = ttBuilderAtEnd(tgIfBlock(ifOp, 0));
      cpAsyncRun(l, dst, tgGep(l, ptr->parts[0], tgExtract(l, s.offs, 0), elem), bytes, piece,
                 per, elem, (MlirValue){NULL});
      tgYield(l, tgIfBlock(ifOp, 0), (MlirValue){NULL});
      l->b = ttBuilderAtEnd(tgIfBlock(ifOp, 1));
    }
    MlirValue v = s.contig ? tgLoadLanes(l, ptr->parts[0], &s, zero, elem)
                           : tgLoadLanesSelect(l, ptr->parts[0], &s, zero, elem);
    tgStore(l, v, dst, &align);
    if (ifOp.ptr)
      tgYield(l, tgIfBlock(ifOp, 1), (MlirValue){NULL});
    l->b = saved;
  }
  return true;
}

bool tgLowerLocalLoad(Lower *l, MlirOperation op) {
  Lowered *ring = tgLookup(l, mlirOperationGetOperand(op, 0));
  Lowered *slot = tgLookup(l, mlirOperationGetOperand(op, 1));
  MlirValue res = mlirOperationGetResult(op, 0);
  int64_t shape[TT_MAX_RANK];
  MlirType rt = mlirValueGetType(mlirOperationGetOperand(op, 0));
  intptr_t rank = ttTensorShape(mlirValueGetType(res), shape);
  if (rank == 1) { /* a 1 x C slot read as a 1-D tile (a staged row's chunk) */
    shape[1] = shape[0];
    shape[0] = 1;
  }
  if (!ring || !slot || mlirValueIsNull(ring->sbuf) || rank < 1 || rank > 2 ||
      shape[0] != mlirShapedTypeGetDimSize(rt, 1) || shape[1] != mlirShapedTypeGetDimSize(rt, 2) ||
      !mlirTypeEqual(ttElementType(rt), ttElementType(mlirValueGetType(res)))) {
    ttEmitError(op, "convert-tile-to-gpu: tile.local_load needs a tile.local_alloc buffer "
                    "and gives one R x C slot of it (a 1 x C slot: a 1-D tile of C)");
    return false;
  }
  Lowered *x = tgDefine(l, res);
  x->def = op;
  x->shared = true;
  x->swz = ring->swz;
  x->sbuf = ring->sbuf;
  x->ld = ring->ld;
  x->parts[0] = tgArithC(l, "arith.muli", slot->parts[0], ring->slotElems);
  return true;
}

/* True when an op of the kernel after `op` (in op's block, or nested in such an op) uses
 * a tile.local_alloc ring. */
static bool ringUse(MlirOperation op, void *userData) {
  bool *found = userData;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op) && !*found; i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    *found = mlirValueIsAOpResult(v) && ttOpIs(mlirOpResultGetOwner(v), "tile.local_alloc");
  }
  return !*found;
}

static bool ringsUsedAfter(MlirOperation op) {
  bool found = false;
  for (MlirOperation x = mlirOperationGetNextInBlock(op); !mlirOperationIsNull(x) && !found;
       x = mlirOperationGetNextInBlock(x))
    ttWalk(x, ringUse, &found);
  return found;
}

/* Step 6 for the ops that only act (no values). A wait for all groups at the top level
 * of the kernel (or of a warp-specialised kernel's consumer region: every copy the
 * producer issued has landed, the consumers waited for each) after which no op touches a
 * ring ends the rings' life: later scratch may
 * reuse their bytes (the wait's barrier orders every thread's last read before it; a
 * wgmma still reading a TMA slot is waited for before it: --pipeline puts its
 * hopper.wgmma_wait first). */
bool tgLowerAsyncSync(Lower *l, MlirOperation op) {
  if (ttOpIs(op, "tile.async_commit")) {
    tgBuild(l, "nvvm.cp.async.commit.group", 0, NULL, ttNoType(), 0, NULL);
    return true;
  }
  int64_t pending = ttOpAttrInt(op, "pending", 0);
  MlirNamedAttribute n = ttNamedAttr(l->ctx, "n", ttIntAttr(l->ctx, pending, ttI32(l->ctx)));
  tgBuild(l, "nvvm.cp.async.wait.group", 0, NULL, ttNoType(), 1, &n);
  if (l->asyncProxy) /* (the header) */
    tgFenceProxyAsync(l);
  tgBarrier(l);
  MlirOperation parent = mlirBlockGetParentOperation(mlirOperationGetBlock(op));
  if (l->consumers) /* a warp-specialised kernel's consumer region: its split's parent */
    parent = mlirBlockGetParentOperation(mlirOperationGetBlock(parent));
  if (pending == 0 && ttOpIs(parent, "func.func") && !ringsUsedAfter(op))
    l->ringsDead = true;
  return true;
}
