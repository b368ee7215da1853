/* hopper.c - step 7 of --convert-tile-to-gpu: TMA and mbarriers (hopper dialect;
 * --pipeline stage-in=tma), and programmatic dependent launch.
 *
 * hopper.mbarrier_alloc is a shared global of `count` 8-byte mbarriers that thread 0
 * initializes to one arrival each, then fence.mbarrier_init and a barrier. hopper.tma_load
 * is, in thread 0 when its predicate holds: mbarrier.arrive.expect_tx of the tile's bytes
 * on mbarrier `slot`, then per 64 columns one cp.async.bulk.tensor.2d of an R x 64 box
 * at (column, row) = (offsets[0] % D1 + 64 j, offsets[0] / D1) into the slot (the tensor
 * map swizzles it by 128 bytes, the layout 5w reads); with dims [B, D0, D1] (a batched
 * map) a .3d copy at (column, row % D0, row / D0). offsets[0] is lane 0 of thread 0's
 * first run. With `multicast` = C (--tile multicast: a cluster of C blocks along x that
 * share the tile), block r = x mod C copies rows [r R / C, (r + 1) R / C) of each box
 * (the map's box is R / C rows) to the same offset of every block's slot
 * (.multicast::cluster, mask of all C), which completes on each block's mbarrier: every
 * block still expects the whole tile's bytes. hopper.cluster_barrier is barrier.cluster
 * arrive (relaxed) and wait in every thread.
 * hopper.mbarrier_wait is mbarrier.try_wait.parity in every thread (that runs it: a
 * warp-specialised kernel's producer region runs in block thread T alone, kernel.c). hopper.mbarrier_arrive
 * is mbarrier.arrive (release, CTA scope) in every thread where its predicate holds, or with
 * `multicast` = C in lane j < C of each warp on block j's mbarrier (mapa; CTA scope as
 * CUTLASS's consumer release: the wgmma that read the slot is done, and no data passes);
 * mbarrier_alloc's `arrivals` is the count each phase waits for.
 * hopper.producer_warp (kernel.c) is tid >= T. The
 * buffer of a kernel with TMA rings is dynamic shared memory (its size goes to the launch
 * metadata through `tt.dynamic_shared`), its start rounded up to 1024 bytes. */

#include "lower.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MlirValue barrierAt(Lower *l, MlirValue bars, MlirValue slot) {
  return tgGep(l, bars, slot, mlirIntegerTypeGet(l->ctx, 64));
}

bool tgLowerMbarrierAlloc(Lower *l, MlirOperation op) {
  int64_t count = ttOpAttrInt(op, "count", 0);
  if (count < 1 || count > 64) {
    ttEmitError(op, "convert-tile-to-gpu: hopper.mbarrier_alloc needs a count of 1 to 64");
    return false;
  }
  char name[200];
  snprintf(name, sizeof name, "%s_mbar%d", l->smemName, l->nbars++);
  tgSharedGlobal(l, name, count * 8, 8, false);
  MlirValue bars = tgSharedAddress(l, name);
  TtBuilder outer = l->b;
  MlirBlock then = tgThread0(l, (MlirValue){NULL});
  l->b = (TtBuilder){then, mlirBlockGetTerminator(then)};
  int64_t arrivals = ttOpAttrInt(op, "arrivals", 1);
  for (int64_t i = 0; i < count; i++)
    tgBuild(l, "nvvm.mbarrier.init", 2,
            (MlirValue[]){barrierAt(l, bars, tgConstI32(l, i)), tgConstI32(l, arrivals)}, ttNoType(),
            0, NULL);
  tgBuild(l, "nvvm.fence.mbarrier.init", 0, NULL, ttNoType(), 0, NULL);
  l->b = outer;
  tgBarrier(l);
  tgDefine(l, mlirOperationGetResult(op, 0))->parts[0] = bars;
  return true;
}

bool tgLowerTmaLoad(Lower *l, MlirOperation op) {
  Lowered *x[6]; /* descriptor, ring, slot, mbarriers, offsets, predicate */
  tgOperands(l, op, 6, x);
  Lowered *desc = x[0], *ring = x[1], *slot = x[2], *bars = x[3], *offs = x[4], *pred = x[5];
  MlirAttribute dims = ttOpAttr(op, "dims");
  MlirType rt = mlirValueGetType(mlirOperationGetOperand(op, 1));
  if (!desc || !ring || !ring->swz || !slot || !bars || !offs || !pred ||
      !mlirAttributeIsADenseI64Array(dims) || mlirDenseArrayGetNumElements(dims) < 2 ||
      mlirDenseArrayGetNumElements(dims) > 3) {
    ttEmitError(op, "convert-tile-to-gpu: hopper.tma_load needs a descriptor, a ring of "
                    "tile.local_alloc, a slot, mbarriers of hopper.mbarrier_alloc, offsets, "
                    "a predicate and dims = [D0, D1] or [B, D0, D1]");
    return false;
  }
  intptr_t rank = mlirDenseArrayGetNumElements(dims);
  int64_t rows = mlirShapedTypeGetDimSize(rt, 1), cols = mlirShapedTypeGetDimSize(rt, 2);
  int64_t d1 = mlirDenseI64ArrayGetElement(dims, rank - 1), eb = ttDtypeBytes(rt), bc = 128 / eb;
  int64_t d0 = mlirDenseI64ArrayGetElement(dims, rank - 2);
  MlirValue first = tgExtract(l, offs->parts[0], 0);
  int64_t cast = ttOpAttrInt(op, "multicast", 1), pieceRows = rows / (cast > 1 ? cast : 1);
  TtBuilder outer = l->b;
  MlirBlock then = tgThread0(l, pred->parts[0]);
  l->b = (TtBuilder){then, mlirBlockGetTerminator(then)};
  MlirValue bar = barrierAt(l, bars->parts[0], slot->parts[0]);
  tgBuild(l, "nvvm.mbarrier.arrive.expect_tx", 2, (MlirValue[]){bar, tgConstI32(l, rows * cols * eb)},
        mlirIntegerTypeGet(l->ctx, 64), 0, NULL);
  MlirValue row = tgArithC(l, "arith.divui", first, d1), col = tgArithC(l, "arith.remui", first, d1);
  MlirValue batch = {NULL}; /* a batched map: (column, row, matrix) */
  if (rank == 3) {
    batch = tgArithC(l, "arith.divui", row, d0);
    row = tgArithC(l, "arith.remui", row, d0);
  }
  MlirValue dst0 = tgGep(l, ring->sbuf, tgArithC(l, "arith.muli", slot->parts[0], rows * cols * eb),
                       mlirIntegerTypeGet(l->ctx, 8));
  MlirValue mask = {NULL};
  if (cast > 1) { /* this block's rows of the box, at their place in every block's slot */
    MlirValue piece = tgArithC(l, "arith.remui", tgGpuIndex(l, "gpu.block_id", 0), cast);
    row = tgBuild(l, "arith.addi", 2, (MlirValue[]){row, tgArithC(l, "arith.muli", piece, pieceRows)},
                  mlirValueGetType(row), 0, NULL);
    dst0 = tgGep(l, dst0, tgArithC(l, "arith.muli", piece, pieceRows * 128),
                 mlirIntegerTypeGet(l->ctx, 8));
    mask = ttConstInt(&l->b, l->loc, mlirIntegerTypeGet(l->ctx, 16), (1 << cast) - 1);
  }
  MlirNamedAttribute attrs[3] = {
      ttNamedAttr(l->ctx, "isCTAOnly", mlirBoolAttrGet(l->ctx, 0)), /* ::cluster dst: sm_90 */
      ttNamedAttr(l->ctx, "mode", mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.tma_load_mode<tile>"))),
      ttNamedAttr(l->ctx, "operandSegmentSizes",
                  mlirDenseI32ArrayGet(l->ctx, 8,
                                       (const int32_t[]){1, 1, (int32_t)rank, 1, 0, cast > 1, 0, 0})),
  };
  for (int64_t j = 0; j < cols / bc; j++) { /* boxes of 128 bytes a row */
    MlirValue dst = j ? tgGep(l, dst0, tgConstI32(l, j * rows * 128), mlirIntegerTypeGet(l->ctx, 8)) : dst0;
    MlirValue c = j ? tgArithC(l, "arith.addi", col, bc * j) : col;
    /* this block's shared memory as a shared::cluster address (a cluster of one) */
    dst = tgBuild(l, "llvm.addrspacecast", 1, &dst, mlirTypeParseGet(l->ctx, ttStrRef("!llvm.ptr<7>")),
                0, NULL);
    MlirValue ops[7] = {dst, desc->parts[0], c, row}; /* then [batch], mbarrier, [mask] */
    int n = 4;
    if (rank == 3)
      ops[n++] = batch;
    ops[n++] = bar;
    if (cast > 1)
      ops[n++] = mask;
    tgBuild(l, "nvvm.cp.async.bulk.tensor.shared.cluster.global", n, ops, ttNoType(), 3, attrs);
  }
  l->b = outer;
  return true;
}

/* hopper.cluster_barrier: barrier.cluster.arrive.relaxed and wait (cluster_arrive and
 * cluster_wait: one half each). Relaxed: the arrive
 * orders no memory (a release arrive in the thread that issued TMA copies waits for
 * them: with multicast rings each K step then took a whole memory latency, H200,
 * bench/2026-11-27-h200-multicast.md); the rings need only the execution order - a
 * block's reads of a slot are done (wgmma waited, or ld.shared values used) before it
 * arrives, and mbarrier inits are fenced for the cluster (fence.mbarrier_init). A
 * cluster_barrier after remote mbarrier arrivals (a warp-specialised multicast ring's last
 * one, before the blocks exit) is a release arrive and acquire wait instead: no block may
 * leave while an arrival on its shared memory is still on its way. */
bool tgLowerClusterBarrierOp(Lower *l, MlirOperation op) {
  MlirNamedAttribute aligned = ttNamedAttr(l->ctx, "aligned", mlirUnitAttrGet(l->ctx));
  if (ttOpIs(op, "hopper.cluster_barrier") && l->remoteArrives) { /* see above */
    tgClusterBarrier(l);
    return true;
  }
  if (!ttOpIs(op, "hopper.cluster_wait"))
    tgBuild(l, "nvvm.cluster.arrive.relaxed", 0, NULL, ttNoType(), 1, &aligned);
  if (!ttOpIs(op, "hopper.cluster_arrive"))
    tgBuild(l, "nvvm.cluster.wait", 0, NULL, ttNoType(), 1, &aligned);
  return true;
}

/* The mbarriers, slot and third operand (phase, predicate) of hopper.mbarrier_wait and
 * mbarrier_arrive, lowered; false (with an error) when one is not. */
static bool mbarrierOperands(Lower *l, MlirOperation op, Lowered **x) {
  tgOperands(l, op, 3, x);
  if (x[0] && x[1] && x[2])
    return true;
  char name[64];
  ttEmitError(op, "convert-tile-to-gpu: an operand of %s is not lowered",
              ttOpName(op, name, sizeof name));
  return false;
}

bool tgLowerMbarrierWait(Lower *l, MlirOperation op) {
  Lowered *x[3]; /* mbarriers, slot, phase */
  if (!mbarrierOperands(l, op, x))
    return false;
  tgBuild(l, "nvvm.mbarrier.try_wait.parity", 3,
        (MlirValue[]){barrierAt(l, x[0]->parts[0], x[1]->parts[0]), x[2]->parts[0],
                      tgConstI32(l, 10000000)},
        ttNoType(), 0, NULL);
  return true;
}

bool tgLowerMbarrierArrive(Lower *l, MlirOperation op) {
  Lowered *x[3]; /* mbarriers, slot, predicate */
  if (!mbarrierOperands(l, op, x))
    return false;
  Lowered *bars = x[0], *slot = x[1], *pred = x[2];
  int64_t cast = ttOpAttrInt(op, "multicast", 1);
  MlirType i1 = mlirIntegerTypeGet(l->ctx, 1);
  MlirValue cond = pred->parts[0], lane = {NULL};
  if (cast > 1) { /* lane j of each warp: block j's mbarrier */
    lane = tgArithC(l, "arith.remui", l->tid, 32);
    MlirNamedAttribute ult = ttNamedAttr(l->ctx, "predicate",
                                         mlirIntegerAttrGet(mlirIntegerTypeGet(l->ctx, 64), 6));
    MlirValue in = tgBuild(l, "arith.cmpi", 2, (MlirValue[]){lane, tgConstI32(l, cast)}, i1, 1, &ult);
    cond = tgBuild(l, "arith.andi", 2, (MlirValue[]){cond, in}, i1, 0, NULL);
  }
  MlirOperation ifOp = tgBuildIf(l, cond, ttNoType());
  tgYield(l, tgIfBlock(ifOp, 1), (MlirValue){NULL});
  TtBuilder outer = l->b;
  l->b = ttBuilderAtEnd(tgIfBlock(ifOp, 0));
  MlirValue bar = barrierAt(l, bars->parts[0], slot->parts[0]);
  l->remoteArrives = l->remoteArrives || cast > 1;
  if (cast > 1)
    bar = tgBuild(l, "nvvm.mapa", 2, (MlirValue[]){bar, lane},
                  mlirTypeParseGet(l->ctx, ttStrRef("!llvm.ptr<7>")), 0, NULL);
  tgBuild(l, "nvvm.mbarrier.arrive", 1, &bar, ttNoType(), 0, NULL);
  tgYield(l, tgIfBlock(ifOp, 0), (MlirValue){NULL});
  l->b = outer;
  return true;
}

/* hopper.griddep_wait and hopper.griddep_launch_dependents: griddepcontrol; a kernel
 * that waits is marked for a `pdl` launch. */
bool tgLowerGriddep(Lower *l, MlirOperation op) {
  bool wait = ttOpIs(op, "hopper.griddep_wait");
  l->pdl = l->pdl || wait;
  MlirNamedAttribute kind = ttNamedAttr(
      l->ctx, "kind",
      mlirAttributeParseGet(l->ctx, ttStrRef(wait ? "#nvvm<grid_dep_action wait>"
                                                  : "#nvvm<grid_dep_action launch_dependents>")));
  tgBuild(l, "nvvm.griddepcontrol", 0, NULL, ttNoType(), 1, &kind);
  return true;
}
