/* reduce.c - tile.reduce in --convert-tile-to-gpu: a 1-D tile to a scalar.
 *
 * Algorithm (lowerReduce): combine the thread's own elements (its REPS vectors, then the
 * lanes), then across the warp with butterfly shuffles, then (more than one warp) across
 * warps: lane 0 of each warp writes its value to a shared-memory scratch, and after a
 * barrier every thread combines all of them, so every thread ends with the result. A
 * barrier before the write keeps an earlier reduction's readers safe.
 *
 * tile.cluster_reduce (tgLowerClusterReduce): thread 0 of each block writes its value to a
 * shared slot of its own (one per op, so no later op overwrites a slot another block may
 * still read), then a cluster barrier (arrive with release, wait with acquire semantics),
 * then every thread reads the slot of each block of the cluster in rank order through
 * distributed shared memory (mapa, ld.shared::cluster) and combines them. Before the
 * kernel returns, one more cluster barrier keeps every block's slots alive until all
 * blocks have read them (kernel.c, lowerReturn).
 */
#include "lower.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The combiner of a tile.reduce kind: the arith op and the vector.reduction kind. */
static bool reduceKind(const char *kind, const char **arith, const char **vkind) {
  static const char *map[][3] = {{"sum", "arith.addf", "#vector.kind<add>"},
                                 {"max", "arith.maximumf", "#vector.kind<maximumf>"},
                                 {"min", "arith.minimumf", "#vector.kind<minimumf>"}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strcmp(map[i][0], kind) == 0) {
      *arith = map[i][1];
      *vkind = map[i][2];
      return true;
    }
  return false;
}

/* A pointer to the kernels' shared-memory scratch: one f32 per warp (at most 32), a
 * global in the gpu.module, made once. */
#define SCRATCH_NAME "__tt_reduce_scratch"
static MlirValue scratch(Lower *l) {
  tgSharedGlobal(l, SCRATCH_NAME, 32 * 4, 16, false);
  return tgSharedAddress(l, SCRATCH_NAME);
}

/* Step 2 for tile.reduce of a 1-D tile to a scalar: combine the thread's own elements
 * (its REPS vectors, then the lanes), then across the warp with butterfly shuffles, then
 * (more than one warp) across warps: lane 0 of each warp writes its value to shared
 * memory, and after a barrier every thread combines all of them, so every thread ends
 * with the result. A barrier before the write keeps an earlier reduction's readers safe. */
bool tgLowerReduce(Lower *l, MlirOperation op) {
  char kind[16] = "";
  const char *arith, *vkind;
  ttOpAttrStr(op, "kind", kind, sizeof kind);
  MlirValue res = mlirOperationGetResult(op, 0);
  MlirType t = mlirValueGetType(res);
  Lowered *x = tgLookup(l, mlirOperationGetOperand(op, 0));
  if (!reduceKind(kind, &arith, &vkind) || !mlirTypeIsAF32(t) || !x) {
    ttEmitError(op, "convert-tile-to-gpu: tile.reduce of kind '%s' to a scalar of this type "
                    "is not supported (sum, max, min to f32)",
                kind);
    return false;
  }
  MlirValue acc = x->parts[0];
  for (int r = 1; r < x->n; r++)
    acc = tgBuild(l, arith, 2, (MlirValue[]){acc, x->parts[r]}, mlirValueGetType(acc), 0, NULL);
  MlirNamedAttribute vk = ttNamedAttr(l->ctx, "kind", mlirAttributeParseGet(l->ctx, ttStrRef(vkind)));
  MlirValue v = tgBuild(l, "vector.reduction", 1, &acc, t, 1, &vk);
  MlirType i32 = ttI32(l->ctx);
  MlirValue width = ttConstInt(&l->b, l->loc, i32, 32);
  MlirNamedAttribute xorMode =
      ttNamedAttr(l->ctx, "mode", mlirAttributeParseGet(l->ctx, ttStrRef("#gpu<shuffle_mode xor>")));
  for (int off = 16; off >= 1; off /= 2) {
    MlirValue ops[3] = {v, ttConstInt(&l->b, l->loc, i32, off), width};
    MlirType rts[2] = {t, mlirIntegerTypeGet(l->ctx, 1)};
    MlirOperation sh = ttInsert(&l->b, ttOpCreate("gpu.shuffle", l->loc, 3, ops, 2, rts, 1,
                                                  &xorMode, 0, NULL));
    v = tgBuild(l, arith, 2, (MlirValue[]){v, mlirOperationGetResult(sh, 0)}, t, 0, NULL);
  }
  int64_t warps = l->T / 32;
  if (warps > 1) {
    MlirValue base = scratch(l);
    MlirValue warp = tgBuild(l, "arith.divui", 2, (MlirValue[]){l->tid, width}, i32, 0, NULL);
    MlirValue lane = tgBuild(l, "arith.remui", 2, (MlirValue[]){l->tid, width}, i32, 0, NULL);
    MlirNamedAttribute eq = ttNamedAttr(l->ctx, "predicate",
                                        ttIntAttr(l->ctx, 0, mlirIntegerTypeGet(l->ctx, 64)));
    MlirValue first = tgBuild(l, "arith.cmpi", 2,
                            (MlirValue[]){lane, ttConstInt(&l->b, l->loc, i32, 0)},
                            mlirIntegerTypeGet(l->ctx, 1), 1, &eq);
    tgBarrier(l);
    MlirOperation ifOp = tgBuildIf(l, first, ttNoType());
    TtBuilder saved = l->b;
    l->b = ttBuilderAtEnd(tgIfBlock(ifOp, 0));
    tgBuild(l, "llvm.store", 2, (MlirValue[]){v, tgGep(l, base, warp, t)}, ttNoType(), 0, NULL);
    tgYield(l, tgIfBlock(ifOp, 0), (MlirValue){NULL});
    tgYield(l, tgIfBlock(ifOp, 1), (MlirValue){NULL});
    l->b = saved;
    tgBarrier(l);
    for (int64_t w = 0; w < warps; w++) {
      MlirValue p = tgGep(l, base, ttConstInt(&l->b, l->loc, i32, w), t);
      MlirValue y = tgBuild(l, "llvm.load", 1, &p, t, 0, NULL);
      v = w == 0 ? y : tgBuild(l, arith, 2, (MlirValue[]){v, y}, t, 0, NULL);
    }
  }
  Lowered *out = tgDefine(l, res);
  out->parts[0] = v;
  return true;
}

/* Barrier across the blocks of the cluster: every thread arrives (release) and waits
 * (acquire), so shared-memory writes before it are visible cluster-wide after it. */
void tgClusterBarrier(Lower *l) {
  MlirNamedAttribute aligned = ttNamedAttr(l->ctx, "aligned", mlirUnitAttrGet(l->ctx));
  tgBuild(l, "nvvm.cluster.arrive", 0, NULL, ttNoType(), 1, &aligned);
  tgBuild(l, "nvvm.cluster.wait", 0, NULL, ttNoType(), 1, &aligned);
}

/* tile.cluster_reduce of a dot accumulator (split-K's slices over a cluster of `size`
 * along x, rank = block x mod size): each block stores its tile to scratch shared memory
 * ([M][N + 4] f32, tgAccToShared); after a cluster barrier block r sums rows [r R, r R + R)
 * (R = ceil(M / size), up to M) over the cluster's tiles, 4 f32 a thread, and writes the sums into
 * every block's tile; after a second barrier each block reads its tile (now the sum) in
 * the flat layout. */
static bool clusterSumTile(Lower *l, MlirOperation op, Lowered *x, int64_t size) {
  int64_t m = x->mmaM, n = x->mmaN, ld = n + 4, rows = (m + size - 1) / size;
  if (!x->mma || n % 4) {
    ttEmitError(op, "convert-tile-to-gpu: tile.cluster_reduce of a tile needs a dot's "
                    "accumulator");
    return false;
  }
  MlirType f32 = mlirF32TypeGet(l->ctx), i1 = mlirIntegerTypeGet(l->ctx, 1);
  int64_t four = 4;
  MlirType v4 = mlirVectorTypeGet(1, &four, f32);
  MlirType remote = mlirTypeParseGet(l->ctx, ttStrRef("!llvm.ptr<7>"));
  MlirValue buf = tgAccToShared(l, x);
  tgClusterBarrier(l);
  MlirValue rank = tgArithC(l, "arith.remui", tgGpuIndex(l, "gpu.block_id", 0), size);
  MlirValue first = tgArithC(l, "arith.muli", rank, rows * ld); /* row r ceil(M / size) */
  /* the slice's rows past M (where size does not divide M): the last block's vectors end
   * at M's */
  MlirValue lastVec = {NULL};
  if (m % size)
    lastVec = tgArithC(l, "arith.muli", tgArith(l, "arith.subi", tgConstI32(l, m),
                                                tgArithC(l, "arith.muli", rank, rows)),
                       n / 4);
  int64_t vecs = rows * n / 4, perRow = n / 4;
  MlirNamedAttribute ult = ttNamedAttr(l->ctx, "predicate", ttIntAttr(l->ctx, 6, mlirIntegerTypeGet(l->ctx, 64)));
  MlirNamedAttribute sltAttr = ttNamedAttr(l->ctx, "predicate", ttIntAttr(l->ctx, 2, mlirIntegerTypeGet(l->ctx, 64)));
  MlirNamedAttribute align = tgAlignAttr(l, 16);
  for (int64_t at = 0; at < vecs; at += l->T) {
    MlirValue v = at ? tgArithC(l, "arith.addi", l->tid, at) : l->tid;
    TtBuilder outer = l->b;
    if (at + l->T > vecs || m % size) { /* threads past the slice's vectors idle */
      MlirValue in = tgBuild(l, "arith.cmpi", 2, (MlirValue[]){v, tgConstI32(l, vecs)}, i1, 1, &ult);
      if (m % size) {
        MlirValue inM = tgBuild(l, "arith.cmpi", 2, (MlirValue[]){v, lastVec}, i1, 1, &sltAttr);
        in = tgBuild(l, "arith.andi", 2, (MlirValue[]){in, inM}, i1, 0, NULL);
      }
      MlirOperation ifOp = tgBuildIf(l, in, ttNoType());
      tgYield(l, tgIfBlock(ifOp, 0), (MlirValue){NULL});
      tgYield(l, tgIfBlock(ifOp, 1), (MlirValue){NULL});
      MlirBlock then = tgIfBlock(ifOp, 0);
      l->b = (TtBuilder){then, mlirBlockGetTerminator(then)};
    }
    MlirValue off = tgArith(l, "arith.addi", first,
                            tgArith(l, "arith.addi", tgArithC(l, "arith.muli", tgArithC(l, "arith.divui", v, perRow), ld),
                                    tgArithC(l, "arith.muli", tgArithC(l, "arith.remui", v, perRow), 4)));
    MlirValue p = tgGep(l, buf, off, f32), at4[8], sum = {NULL};
    for (int64_t r = 0; r < size; r++) {
      at4[r] = tgBuild(l, "nvvm.mapa", 2, (MlirValue[]){p, tgConstI32(l, r)}, remote, 0, NULL);
      MlirValue y = tgBuild(l, "llvm.load", 1, &at4[r], v4, 1, &align);
      sum = r == 0 ? y : tgBuild(l, "arith.addf", 2, (MlirValue[]){sum, y}, v4, 0, NULL);
    }
    for (int64_t r = 0; r < size; r++)
      tgBuild(l, "llvm.store", 2, (MlirValue[]){sum, at4[r]}, ttNoType(), 1, &align);
    l->b = outer;
  }
  tgClusterBarrier(l);
  tgReadFlat(l, mlirOperationGetResult(op, 0), buf, tgConstI32(l, 0), m, n, ld, f32);
  return true;
}

bool tgLowerClusterReduce(Lower *l, MlirOperation op) {
  if (mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetOperand(op, 0)))) {
    Lowered *x = tgLookup(l, mlirOperationGetOperand(op, 0));
    MlirAttribute size = ttOpAttr(op, "size");
    if (!x || mlirAttributeIsNull(size)) {
      ttEmitError(op, "convert-tile-to-gpu: tile.cluster_reduce needs a lowered operand and a size");
      return false;
    }
    return clusterSumTile(l, op, x, mlirIntegerAttrGetValueInt(size));
  }
  char kind[16] = "", name[64];
  const char *arith, *vkind;
  ttOpAttrStr(op, "kind", kind, sizeof kind);
  MlirAttribute sizeAttr = ttOpAttr(op, "size");
  Lowered *x = tgLookup(l, mlirOperationGetOperand(op, 0));
  if (!reduceKind(kind, &arith, &vkind) || !x || mlirAttributeIsNull(sizeAttr)) {
    ttEmitError(op, "convert-tile-to-gpu: tile.cluster_reduce needs a lowered f32 operand, "
                    "kind sum, max or min, and a size");
    return false;
  }
  int64_t size = mlirIntegerAttrGetValueInt(sizeAttr);
  MlirType f32 = mlirF32TypeGet(l->ctx);
  snprintf(name, sizeof name, "__tt_cluster_slot%d", l->nclusterSlots++);
  tgSharedGlobal(l, name, 4, 4, false);
  MlirValue slot = tgSharedAddress(l, name);
  MlirNamedAttribute eq = ttNamedAttr(l->ctx, "predicate",
                                      ttIntAttr(l->ctx, 0, mlirIntegerTypeGet(l->ctx, 64)));
  MlirValue first = tgBuild(l, "arith.cmpi", 2, (MlirValue[]){l->tid, tgConstI32(l, 0)},
                            mlirIntegerTypeGet(l->ctx, 1), 1, &eq);
  MlirOperation ifOp = tgBuildIf(l, first, ttNoType());
  TtBuilder saved = l->b;
  l->b = ttBuilderAtEnd(tgIfBlock(ifOp, 0));
  tgBuild(l, "llvm.store", 2, (MlirValue[]){x->parts[0], slot}, ttNoType(), 0, NULL);
  tgYield(l, tgIfBlock(ifOp, 0), (MlirValue){NULL});
  tgYield(l, tgIfBlock(ifOp, 1), (MlirValue){NULL});
  l->b = saved;
  tgClusterBarrier(l);
  MlirType remote = mlirTypeParseGet(l->ctx, ttStrRef("!llvm.ptr<7>"));
  MlirValue v = {NULL};
  for (int64_t r = 0; r < size; r++) {
    MlirValue p = tgBuild(l, "nvvm.mapa", 2, (MlirValue[]){slot, tgConstI32(l, r)}, remote, 0,
                          NULL);
    MlirValue y = tgBuild(l, "llvm.load", 1, &p, f32, 0, NULL);
    v = r == 0 ? y : tgBuild(l, arith, 2, (MlirValue[]){v, y}, f32, 0, NULL);
  }
  Lowered *out = tgDefine(l, mlirOperationGetResult(op, 0));
  out->parts[0] = v;
  return true;
}
