/* load-store.c - step 3 of --convert-tile-to-gpu: tile.load, tile.store and
 * tile.atomic_add; and tile.arrive (tgLowerArrive).
 *
 * Algorithm, for register group r of the access:
 *  1. When the offsets have contig >= VEC the group is one vector access, guarded by
 *     "all lanes on": the mask's last lane when the mask is `x < y` with x contiguous and
 *     y constant over the group, its first lane when the mask is constant over the group,
 *     else the and of its lanes.
 *  1b. When the offsets run shorter (contig < VEC: rows whose stride is not a multiple
 *     of 16 bytes, e.g. a matrix of K = 4100 f16 columns: runs of 4, 8-byte aligned; or
 *     gathered lanes), the group is, when all its lanes are on, VEC / run unmasked
 *     accesses of `run` lanes (the widest the alignment allows), put together: one
 *     guard per group, not a branch per lane.
 *  1c. A store (or atomic add) of 16-byte groups whose offsets run on from lane to lane
 *     but start at no 8-byte (an add: 16-byte) boundary (a row of an odd-width matrix:
 *     N = 3001 f16) is realigned across the warp: each lane shuffles in the previous
 *     lane's group and writes the 16 aligned bytes that end inside its own, so the row is
 *     written in 16-byte accesses, not VEC of one element each (whose partial sectors
 *     cost L2 8x; split-K's f16 adds the most). A store (storeRealignedPlain) writes a
 *     row's ends as at most log2(VEC) aligned stores each; an add (addRealigned) as
 *     16-byte reds padded with -0.0 where they stay in the tensor.
 *  1'. With masked-loads >= 1, a load of step 1 whose mask is constant over
 *     the group takes no branch: it reads from the group's address where the mask is on, else from the
 *     tensor's start (in bounds and aligned as the group's), and selects `other` where
 *     off. (A branch lets LLVM sink the loaded values' uses into it, so a thread waits for
 *     each load before it issues the next: 38 branches in a looped layer_norm row of
 *     90000 against 19 at 98304, whose chunks are whole.) The default: 0.52x-0.84x the
 *     time on looped rows of a partial last chunk, the same elsewhere (H200, 2026-11-27).
 *  1''. A load of step 1 marked `tile.early` whose mask varies over the group (a row in
 *     --tile's aligned frame: only its last group straddles the mask) issues its vector
 *     load before the guard's branch, from the group's address where all lanes are on,
 *     else from the tensor's start, and takes the lanes of step 2 inside the branch only
 *     where they are not: no load waits behind a branch (with masked-loads).
 *  1u. With masked-loads=2 (the default), a load whose lanes all read one address
 *     (offsets constant over the group: a broadcast scalar) is one scalar load, from that
 *     address where any lane is on, else from the tensor's start, and a select of `other`
 *     per lane (loadOneAddress): no branch. (1 sends such a group to step 1b, whose masked
 *     path loads lane by lane behind a branch each: 96 loads a thread for the two scales
 *     of an fp8 64 x 96 tile with a row mask; H200, fp8 GEMMs at M = 96 and 112: 0.78x-
 *     1.01x the time of that, bench/2026-11-29-h200-m128.md run 7.)
 *  2. When that guard is false (or the offsets are not contiguous) each lane is loaded or
 *     stored alone under its mask (Lanes: computed from lane 0 inside the slow path).
 *  3. tile.atomic_add is a store that adds: on the fast path from sm=90 vector reds of 16
 *     bytes (atomicRun), else one atomic per lane.
 *  4. A load of integers (an index of index_select or gather) keeps its offsets' constancy
 *     as its own axis fact: lanes that read one address read one value. (A lane off the
 *     mask reads `other` instead, but the data load those values address is masked by a
 *     subset of that mask, so its fast path, taken only when all its lanes are on, sees
 *     equal values.) An embedding row's index is then constant over a row's run, and the
 *     row itself is read in 16-byte accesses where its width allows.
 */
#include "lower.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The widest power of two <= VEC that divides a run of `contig` (1 when none). */
static int64_t runOf(Lower *l, int64_t contig) {
  int64_t w = 1;
  while (w * 2 <= l->VEC && contig % (w * 2) == 0)
    w *= 2;
  return w;
}

Lanes tgLanesOf(Lower *l, Lowered *offs, Lowered *mask, int r) {
  int64_t run = runOf(l, offs->axis.contig);
  Lanes s = {offs->parts[r], mask->parts[r], run == l->VEC, run, {NULL}, {NULL}, 0, 0, r, false};
  int64_t seq = tgMaxI(offs->axis.seq, offs->axis.contig);
  if (mask->def.ptr && ttOpIs(mask->def, "arith.constant") && seq >= l->VEC && seq % l->VEC == 0) {
    MlirAttribute v = ttOpAttr(mask->def, "value");
    s.allOn = mlirAttributeIsADenseElements(v) && mlirDenseElementsAttrIsSplat(v) &&
              mlirDenseElementsAttrGetBoolSplatValue(v);
  }
  if (mask->def.ptr && ttOpIs(mask->def, "arith.cmpi")) {
    int64_t pred = ttOpAttrInt(mask->def, "predicate", -1);
    Lowered *x = tgLookup(l, mlirOperationGetOperand(mask->def, 0));
    Lowered *y = tgLookup(l, mlirOperationGetOperand(mask->def, 1));
    bool less = pred == 2 || pred == 3 || pred == 6 || pred == 7; /* slt sle ult ule */
    int64_t mrun = !less || !x || !y ? 0
                   : x->axis.contig >= l->VEC && y->axis.constancy >= l->VEC ? l->VEC
                   : x->axis.contig >= run && y->axis.constancy >= run && run > 1 ? run
                                                                                  : 0;
    if (mrun) {
      s.x = x->parts[r];
      s.y = y->parts[r];
      s.pred = pred;
      s.mrun = mrun;
    }
  }
  return s;
}

/* Lane i of vector v whose values run in steps of one over runs of `run` lanes: the
 * first lane of i's run, plus i % run. */
static MlirValue runLane(Lower *l, MlirValue v, int64_t i, int64_t run) {
  MlirValue x0 = tgExtract(l, v, i - i % run);
  if (i % run == 0)
    return x0;
  MlirValue ops[2] = {x0, ttConstInt(&l->b, l->loc, ttI32(l->ctx), i % run)};
  return tgBuild(l, "arith.addi", 2, ops, ttI32(l->ctx), 0, NULL);
}

/* lane 0 of vector v, plus i */
static MlirValue lane0Plus(Lower *l, MlirValue v, int64_t i) { return runLane(l, v, i, i + 1); }

static MlirValue laneOffset(Lower *l, const Lanes *s, int64_t i) {
  return runLane(l, s->offs, i, s->run);
}

static MlirValue laneMask(Lower *l, const Lanes *s, int64_t i) {
  if (mlirValueIsNull(s->x))
    return tgExtract(l, s->mask, i);
  MlirValue ops[2] = {runLane(l, s->x, i, s->mrun), tgExtract(l, s->y, i - i % s->mrun)};
  MlirNamedAttribute pred =
      ttNamedAttr(l->ctx, "predicate", ttIntAttr(l->ctx, s->pred, mlirIntegerTypeGet(l->ctx, 64)));
  return tgBuild(l, "arith.cmpi", 2, ops, mlirIntegerTypeGet(l->ctx, 1), 1, &pred);
}

/* Whether every lane of register group r of mask m is on, from how m was made: lane 0
 * when m is constant over the group; lane VEC - 1 when m is `x < y` (or <=) with x
 * running in steps of one and y constant over it, lane 0 when it is `x > y` (or >=);
 * both sides of an `and` (a 2-D mask: row < M and column < N; a row in --tile's aligned
 * frame: s <= column < N + s), each so; else the and of its lanes. */
static MlirValue allOnOf(Lower *l, Lowered *m, int r, int depth) {
  MlirType i1 = mlirIntegerTypeGet(l->ctx, 1);
  if (m->axis.constancy >= l->VEC)
    return tgExtract(l, m->parts[r], 0);
  MlirOperation def = m->def;
  if (def.ptr && depth < 4 && ttOpIs(def, "arith.andi")) {
    Lowered *a = tgLookup(l, mlirOperationGetOperand(def, 0));
    Lowered *b = tgLookup(l, mlirOperationGetOperand(def, 1));
    if (a && b)
      return tgBuild(l, "arith.andi", 2,
                     (MlirValue[]){allOnOf(l, a, r, depth + 1), allOnOf(l, b, r, depth + 1)}, i1,
                     0, NULL);
  }
  if (def.ptr && ttOpIs(def, "arith.cmpi")) {
    int64_t pred = ttOpAttrInt(def, "predicate", -1);
    Lowered *x = tgLookup(l, mlirOperationGetOperand(def, 0));
    Lowered *y = tgLookup(l, mlirOperationGetOperand(def, 1));
    bool less = pred == 2 || pred == 3 || pred == 6 || pred == 7;    /* slt sle ult ule */
    bool greater = pred == 4 || pred == 5 || pred == 8 || pred == 9; /* sgt sge ugt uge */
    if ((less || greater) && x && y && x->axis.contig >= l->VEC && y->axis.constancy >= l->VEC) {
      MlirNamedAttribute p = ttNamedAttr(l->ctx, "predicate",
                                         ttIntAttr(l->ctx, pred, mlirIntegerTypeGet(l->ctx, 64)));
      MlirValue ops[2] = {tgExtract(l, x->parts[r], less ? l->VEC - 1 : 0), tgExtract(l, y->parts[r], 0)};
      return tgBuild(l, "arith.cmpi", 2, ops, i1, 1, &p);
    }
  }
  MlirNamedAttribute kind =
      ttNamedAttr(l->ctx, "kind", mlirAttributeParseGet(l->ctx, ttStrRef("#vector.kind<and>")));
  return tgBuild(l, "vector.reduction", 1, &m->parts[r], i1, 1, &kind);
}

/* Step 3's guard: an i1 that is true when every lane of the mask group is on. */
MlirValue tgAllLanesOn(Lower *l, const Lanes *s, Lowered *mask) {
  if (mask->axis.constancy >= l->VEC)
    return tgExtract(l, s->mask, 0);
  if (!mlirValueIsNull(s->x))
    return laneMask(l, s, l->VEC - 1);
  return allOnOf(l, mask, s->r, 0);
}

/* Step 1b's guard: true when lanes [lo, lo + n) of the mask are all on. */
MlirValue tgRunAllOn(Lower *l, const Lanes *s, Lowered *mask, int64_t lo, int64_t n) {
  if (mask->axis.constancy >= n && mask->axis.constancy % n == 0)
    return tgExtract(l, s->mask, lo);
  if (!mlirValueIsNull(s->x) && s->mrun >= n)
    return laneMask(l, s, lo + n - 1);
  MlirValue all = tgExtract(l, s->mask, lo);
  for (int64_t i = lo + 1; i < lo + n; i++)
    all = tgBuild(l, "arith.andi", 2, (MlirValue[]){all, tgExtract(l, s->mask, i)},
                  mlirIntegerTypeGet(l->ctx, 1), 0, NULL);
  return all;
}

/* Loads lane by lane under the mask: the slow path of step 3. */
MlirValue tgLoadLanes(Lower *l, MlirValue ptr, const Lanes *s, MlirValue other,
                      MlirType elem) {
  MlirValue acc = other;
  for (int64_t i = 0; i < l->VEC; i++) {
    MlirOperation ifOp = tgBuildIf(l, laneMask(l, s, i), elem);
    TtBuilder saved = l->b;
    l->b = ttBuilderAtEnd(tgIfBlock(ifOp, 0));
    MlirValue p = tgGep(l, ptr, laneOffset(l, s, i), elem);
    tgYield(l, tgIfBlock(ifOp, 0), tgLoadPtr(l, p, elem, 0));
    l->b = ttBuilderAtEnd(tgIfBlock(ifOp, 1));
    MlirValue o = tgExtract(l, other, i);
    tgYield(l, tgIfBlock(ifOp, 1), o);
    l->b = saved;
    acc = tgInsert(l, mlirOperationGetResult(ifOp, 0), acc, i);
  }
  return acc;
}

/* Loads lane by lane without a branch: lane i from its offset where its mask is on, else
 * from the tensor's start (in bounds), then `other` selected where off (step 1' lane by
 * lane: every load issued before any is used). */
MlirValue tgLoadLanesSelect(Lower *l, MlirValue ptr, const Lanes *s, MlirValue other,
                            MlirType elem) {
  MlirValue acc = other;
  if (s->allOn) { /* consecutive lanes, all on: immediate offsets from lane 0's address */
    MlirValue p0 = tgGep(l, ptr, laneOffset(l, s, 0), elem);
    for (int64_t i = 0; i < l->VEC; i++) {
      MlirValue p = i ? tgGep(l, p0, tgConstI32(l, i), elem) : p0;
      acc = tgInsert(l, tgLoadPtr(l, p, elem, 0), acc, i);
    }
    return acc;
  }
  for (int64_t i = 0; i < l->VEC; i++) {
    MlirValue on = laneMask(l, s, i), p = tgGep(l, ptr, laneOffset(l, s, i), elem);
    MlirValue at = tgBuild(l, "arith.select", 3, (MlirValue[]){on, p, ptr}, mlirValueGetType(p), 0, NULL);
    MlirValue v = tgLoadPtr(l, at, elem, 0);
    acc = tgInsert(l, tgBuild(l, "arith.select", 3, (MlirValue[]){on, v, tgExtract(l, other, i)}, elem, 0, NULL),
                   acc, i);
  }
  return acc;
}

/* Step 1u (masked-loads=2): a group whose lanes all read one address (a broadcast
 * scalar, e.g. a scale, under a C tile's mask) as one scalar load - from that address
 * where any lane is on, else from the tensor's start - broadcast, and `other` selected
 * where a lane is off: no branch, and LLVM merges the groups' loads of one address. */
static MlirValue loadOneAddress(Lower *l, MlirValue ptr, const Lanes *s, Lowered *mask,
                                MlirValue other, MlirType elem) {
  MlirType i1 = mlirIntegerTypeGet(l->ctx, 1);
  MlirValue any = laneMask(l, s, 0);
  for (int64_t i = 1; mask->axis.constancy < l->VEC && i < l->VEC; i++)
    any = tgBuild(l, "arith.ori", 2, (MlirValue[]){any, laneMask(l, s, i)}, i1, 0, NULL);
  MlirValue p = tgGep(l, ptr, tgExtract(l, s->offs, 0), elem);
  MlirValue at = tgBuild(l, "arith.select", 3, (MlirValue[]){any, p, ptr}, mlirValueGetType(p), 0, NULL);
  MlirValue v = tgLoadPtr(l, at, elem, 0);
  MlirValue acc = other;
  for (int64_t i = 0; i < l->VEC; i++) {
    MlirValue on = mask->axis.constancy >= l->VEC ? any : laneMask(l, s, i);
    acc = tgInsert(l, tgBuild(l, "arith.select", 3, (MlirValue[]){on, v, tgExtract(l, other, i)}, elem, 0, NULL),
                   acc, i);
  }
  return acc;
}

/* `*p += x` as a relaxed llvm.atomicrmw (tile.atomic_add: f32 everywhere, f16 from sm_70,
 * bf16 from sm_90; its result is unused: `red`, or for f16 an `atom` into a dead
 * register). */
static void atomicAdd(Lower *l, MlirValue p, MlirValue x) {
  MlirType i64 = mlirIntegerTypeGet(l->ctx, 64);

  MlirNamedAttribute attrs[2] = {/* LLVM's enums: AtomicBinOp fadd, AtomicOrdering monotonic */
                                 ttNamedAttr(l->ctx, "bin_op", ttIntAttr(l->ctx, 11, i64)),
                                 ttNamedAttr(l->ctx, "ordering", ttIntAttr(l->ctx, 2, i64))};
  tgBuild(l, "llvm.atomicrmw", 2, (MlirValue[]){p, x}, mlirValueGetType(x), 2, attrs);
}

/* `p[0 .. VEC) += run` for a contiguous run of tile.atomic_add (offs: its offsets; p is
 * aligned to the run's bytes, up to 16). From sm_90 each 16 bytes (or the whole run, when
 * shorter and a multiple of 4) is one `red.global.add` of 32-bit words - f32, or f16/bf16
 * pairs as f16x2/bf16x2 - with .v2 or .v4 (PTX ISA 8.1), through nvvm.inline_ptx: LLVM
 * has no vector atomic add for NVPTX (it expands one into a compare-and-swap loop). Else,
 * and for other types, one atomic per lane. */
static void atomicRun(Lower *l, MlirValue p, MlirValue offs, MlirValue run, MlirType elem) {
  int64_t eb = ttDtypeBytes(mlirValueGetType(run)), bytes = l->VEC * eb;
  const char *kind = mlirTypeIsAF32(elem)    ? "f32"
                     : mlirTypeIsAF16(elem)  ? "f16x2"
                     : mlirTypeIsABF16(elem) ? "bf16x2"
                                             : NULL;
  int64_t chunk = bytes < 16 ? bytes : 16; /* the bytes of one red */
  if (!l->target->vectorRed || !kind || chunk % 4) {
    for (int64_t i = 0; i < l->VEC; i++)
      atomicAdd(l, tgGep(l, p, lane0Plus(l, offs, i), elem), tgExtract(l, run, i));
    return;
  }
  int64_t words = chunk / 4, all = bytes / 4;
  MlirValue packed = run; /* the run as 32-bit words */
  if (!mlirTypeIsAF32(elem))
    packed = tgBuild(l, "vector.bitcast", 1, &run, mlirVectorTypeGet(1, &all, ttI32(l->ctx)), 0, NULL);
  char ptx[96], vec[8] = "";
  if (words > 1)
    snprintf(vec, sizeof vec, "v%d.", (int)words);
  int at = snprintf(ptx, sizeof ptx, "red.global.add.%s%s%s [$0], %s$1",
                    mlirTypeIsAF32(elem) ? "" : "noftz.", vec, kind, words > 1 ? "{" : "");
  for (int64_t w = 1; w < words; w++)
    at += snprintf(ptx + at, sizeof ptx - (size_t)at, ", $%d", (int)w + 1);
  snprintf(ptx + at, sizeof ptx - (size_t)at, "%s;", words > 1 ? "}" : "");
  int32_t segments[3] = {(int32_t)words + 1, 0, 0}; /* read-only, read-write, predicate */
  MlirNamedAttribute attrs[2] = {
      ttNamedAttr(l->ctx, "ptxCode", mlirStringAttrGet(l->ctx, ttStrRef(ptx))),
      ttNamedAttr(l->ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(l->ctx, 3, segments)),
  };
  for (int64_t w = 0; w < all; w += words) {
    MlirValue ops[5] = {tgGep(l, p, lane0Plus(l, offs, w * 4 / eb), elem)};
    for (int64_t i = 0; i < words; i++)
      ops[1 + i] = tgExtract(l, packed, w + i);
    tgBuild(l, "nvvm.inline_ptx", words + 1, ops, ttNoType(), 2, attrs);
  }
}

/* Stores (or atomically adds) lane i of `value` when `cond` holds. */
static void storeLane(Lower *l, MlirValue cond, MlirValue ptr, const Lanes *s, int64_t i,
                      MlirValue value, MlirType elem, bool atomic) {
  MlirOperation ifOp = tgBuildIf(l, cond, ttNoType());
  TtBuilder saved = l->b;
  l->b = ttBuilderAtEnd(tgIfBlock(ifOp, 0));
  MlirValue ops[2] = {tgExtract(l, value, i), tgGep(l, ptr, laneOffset(l, s, i), elem)};
  if (atomic)
    atomicAdd(l, ops[1], ops[0]);
  else
    tgStore(l, ops[0], ops[1], NULL);
  tgYield(l, tgIfBlock(ifOp, 0), (MlirValue){NULL});
  tgYield(l, tgIfBlock(ifOp, 1), (MlirValue){NULL});
  l->b = saved;
}

/* Stores (or atomically adds) lane by lane under the mask. */
static void storeLanes(Lower *l, MlirValue ptr, const Lanes *s, MlirValue value,
                       MlirType elem, bool atomic) {
  for (int64_t i = 0; i < l->VEC; i++)
    storeLane(l, laneMask(l, s, i), ptr, s, i, value, elem, atomic);
}

/* Step 1b's guard: true when every lane of the group is on (over runs of the mask's
 * `x < y` form shorter than the group: each run's last lane). */
static MlirValue groupAllOn(Lower *l, const Lanes *s, Lowered *mask) {
  if (mlirValueIsNull(s->x) || s->mrun == l->VEC || mask->axis.constancy >= l->VEC)
    return tgAllLanesOn(l, s, mask);
  MlirValue all = tgRunAllOn(l, s, mask, 0, s->mrun);
  for (int64_t lo = s->mrun; lo < l->VEC; lo += s->mrun)
    all = tgBuild(l, "arith.andi", 2, (MlirValue[]){all, tgRunAllOn(l, s, mask, lo, s->mrun)},
                  mlirIntegerTypeGet(l->ctx, 1), 0, NULL);
  return all;
}

/* Step 1b: when every lane of the group is on, VEC / run unmasked accesses of `run`
 * lanes each (the widest the alignment allows: one lane at a time for rows of 2-byte
 * alignment, without a branch per lane); else the lanes one by one under the mask.
 * Returns the loaded group (a load), or the null value (a store). */
static MlirValue accessRuns(Lower *l, MlirValue ptr, const Lanes *s, Lowered *mask,
                            MlirValue d, MlirType elem, bool isStore) {
  int64_t w = s->run, bytes = w * ttDtypeBytes(elem);
  MlirType rt = w > 1 ? mlirVectorTypeGet(1, &w, elem) : elem;
  MlirOperation ifOp = tgBuildIf(l, groupAllOn(l, s, mask), isStore ? ttNoType() : tgVecOf(l, elem));
  TtBuilder saved = l->b;
  l->b = ttBuilderAtEnd(tgIfBlock(ifOp, 0));
  MlirValue acc = d;
  MlirNamedAttribute align = tgAlignAttr(l, bytes);
  for (int64_t lo = 0; lo < l->VEC; lo += w) {
    MlirValue p = tgGep(l, ptr, tgExtract(l, s->offs, lo), elem);
    if (isStore) {
      MlirValue run = tgExtract(l, d, lo);
      if (w > 1) {
        run = tgBuild(l, "vector.broadcast", 1, &run, rt, 0, NULL);
        for (int64_t i = 1; i < w; i++)
          run = tgInsert(l, tgExtract(l, d, lo + i), run, i);
      }
      tgStore(l, run, p, &align);
      continue;
    }
    MlirValue got = tgLoadPtr(l, p, rt, bytes);
    if (w == 1)
      acc = tgInsert(l, got, acc, lo);
    for (int64_t i = 0; w > 1 && i < w; i++)
      acc = tgInsert(l, tgExtract(l, got, i), acc, lo + i);
  }
  tgYield(l, tgIfBlock(ifOp, 0), isStore ? (MlirValue){NULL} : acc);
  l->b = ttBuilderAtEnd(tgIfBlock(ifOp, 1));
  if (isStore)
    storeLanes(l, ptr, s, d, elem, false);
  tgYield(l, tgIfBlock(ifOp, 1), isStore ? (MlirValue){NULL} : tgLoadLanes(l, ptr, s, d, elem));
  l->b = saved;
  return isStore ? (MlirValue){NULL} : mlirOperationGetResult(ifOp, 0);
}

/* gpu.shuffle of i32 `v` by `mode` (up or down) one lane; *valid: the lane it read is in
 * the warp. */
static MlirValue shuffle1(Lower *l, MlirValue v, const char *mode, MlirValue *valid) {
  MlirType i32 = ttI32(l->ctx);
  char m[40];
  snprintf(m, sizeof m, "#gpu<shuffle_mode %s>", mode);
  MlirNamedAttribute a = ttNamedAttr(l->ctx, "mode", mlirAttributeParseGet(l->ctx, ttStrRef(m)));
  MlirValue ops[3] = {v, ttConstInt(&l->b, l->loc, i32, 1), ttConstInt(&l->b, l->loc, i32, 32)};
  MlirType rts[2] = {i32, mlirIntegerTypeGet(l->ctx, 1)};
  MlirOperation sh = ttInsert(&l->b, ttOpCreate("gpu.shuffle", l->loc, 3, ops, 2, rts, 1, &a, 0, NULL));
  if (valid)
    *valid = mlirOperationGetResult(sh, 1);
  return mlirOperationGetResult(sh, 0);
}

static MlirValue i32Op(Lower *l, const char *name, MlirValue a, MlirValue b) {
  return tgBuild(l, name, 2, (MlirValue[]){a, b}, mlirValueGetType(a), 0, NULL);
}

static MlirValue cmpI32(Lower *l, int64_t pred, MlirValue a, MlirValue b) {
  MlirNamedAttribute p =
      ttNamedAttr(l->ctx, "predicate", ttIntAttr(l->ctx, pred, mlirIntegerTypeGet(l->ctx, 64)));
  return tgBuild(l, "arith.cmpi", 2, (MlirValue[]){a, b}, mlirIntegerTypeGet(l->ctx, 1), 1, &p);
}

static MlirValue selectOf(Lower *l, MlirValue c, MlirValue a, MlirValue b) {
  return tgBuild(l, "arith.select", 3, (MlirValue[]){c, a, b}, mlirValueGetType(a), 0, NULL);
}

/* Step 1c applies: an atomic add, or a store with less than 8 bytes of alignment, whose
 * groups are 16 bytes and whose offsets run over whole groups (seq). A store of 8-byte
 * runs (N = 4100 f16) stays step 1b's two stores a group: they fill whole sectors across
 * the warp as 16 would, and realigning them measured no gain (94.1 -> 95.0 us at 4096 x
 * 4100 x 1000, H100; 2-byte runs, N = 3001: 108.7 -> 53.0 us at 4096 x 3001 x 1024); an
 * add of them would be one 16-bit atomic a lane (compare-and-swap loops). */
static bool realignable(Lower *l, Lowered *offs, MlirType elem, bool atomic) {
  int64_t seq = tgMaxI(offs->axis.seq, offs->axis.contig);
  return l->VEC * ttDtypeBytes(elem) == 16 && seq >= l->VEC && seq % l->VEC == 0 &&
         l->T % 32 == 0 && (atomic || runOf(l, offs->axis.contig) * ttDtypeBytes(elem) < 8);
}

/* One 16-byte store (or vector red, at `vals`' offset vector `offs` with lane 0 `at`)
 * under `cond`. */
static void wideAccess(Lower *l, MlirValue cond, MlirValue ptr, const Lanes *s, MlirValue at,
                       MlirValue vals, MlirType elem, bool atomic) {
  MlirOperation ifOp = tgBuildIf(l, cond, ttNoType());
  TtBuilder saved = l->b;
  l->b = ttBuilderAtEnd(tgIfBlock(ifOp, 0));
  MlirNamedAttribute align = tgAlignAttr(l, 16);
  if (atomic)
    atomicRun(l, ptr, tgInsert(l, at, s->offs, 0), vals, elem);
  else
    tgStore(l, vals, tgGep(l, ptr, at, elem), &align);
  tgYield(l, tgIfBlock(ifOp, 0), (MlirValue){NULL});
  tgYield(l, tgIfBlock(ifOp, 1), (MlirValue){NULL});
  l->b = saved;
}

/* Under `cond`, adds f16/bf16 `x` at element offset `off` as a red of the 32-bit word
 * that holds it (red.global.add.noftz.f16x2 / bf16x2, sm_90), the other half -0.0: a
 * lone 16-bit add is a compare-and-swap loop in SASS (ptxas expands both atom and red of
 * .f16), 2.7x the split-K epilogue of an odd-width row. `even`: off is the word's low half. */
static void halfWordRed(Lower *l, MlirValue cond, MlirValue ptr, MlirValue off, MlirValue even,
                        MlirValue x, MlirType elem) {
  MlirType i32 = ttI32(l->ctx);
  MlirOperation ifOp = tgBuildIf(l, cond, ttNoType());
  TtBuilder saved = l->b;
  l->b = ttBuilderAtEnd(tgIfBlock(ifOp, 0));
  MlirValue bits = tgBuild(l, "arith.bitcast", 1, &x, mlirIntegerTypeGet(l->ctx, 16), 0, NULL);
  bits = tgBuild(l, "arith.extui", 1, &bits, i32, 0, NULL);
  MlirValue lo = i32Op(l, "arith.ori", bits, ttConstInt(&l->b, l->loc, i32, (int32_t)0x80000000));
  MlirValue hi = i32Op(l, "arith.ori", i32Op(l, "arith.shli", bits, ttConstInt(&l->b, l->loc, i32, 16)),
                       ttConstInt(&l->b, l->loc, i32, 0x8000));
  MlirValue word = selectOf(l, even, lo, hi);
  MlirValue at = i32Op(l, "arith.andi", off, ttConstInt(&l->b, l->loc, i32, ~1));
  int32_t segments[3] = {2, 0, 0};
  MlirNamedAttribute attrs[2] = {
      ttNamedAttr(l->ctx, "ptxCode",
                  mlirStringAttrGet(l->ctx, ttStrRef(mlirTypeIsAF16(elem)
                                                         ? "red.global.add.noftz.f16x2 [$0], $1;"
                                                         : "red.global.add.noftz.bf16x2 [$0], $1;"))),
      ttNamedAttr(l->ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(l->ctx, 3, segments)),
  };
  tgBuild(l, "nvvm.inline_ptx", 2, (MlirValue[]){tgGep(l, ptr, at, elem), word}, ttNoType(), 2, attrs);
  tgYield(l, tgIfBlock(ifOp, 0), (MlirValue){NULL});
  tgYield(l, tgIfBlock(ifOp, 1), (MlirValue){NULL});
  l->b = saved;
}

/* What step 1c knows of a lane's group and its neighbours' in the warp, computed on
 * every lane before any branch (the shuffles need the whole warp): w[0..3] the previous
 * lane's group's words, w[4..7] this one's; o0 the group's first offset, m = o0 % VEC;
 * whether the group is all on; `realign`: m != 0, the group and the previous lane's are
 * all on and consecutive; nextR: the next lane realigns; for an add also the next lane's
 * first offset and whether it is all on. The aligned window that ends inside the group
 * starts at element `start` = o0 - m, `sh` bytes into w: word q, then `bits` bits. */
typedef struct {
  MlirValue w[8], o0, m, allOn, mNonZero, realign, nextR, nextOk, nextO, nextAll;
  MlirValue q, bits, start;
} Neighbours;

static Neighbours neighboursOf(Lower *l, const Lanes *s, Lowered *mask, MlirValue d,
                               MlirType elem, bool add) {
  MlirType i32 = ttI32(l->ctx);
  int64_t four = 4;
  MlirValue zero = ttConstInt(&l->b, l->loc, i32, 0), vec = ttConstInt(&l->b, l->loc, i32, l->VEC);
  Neighbours n = {{{NULL}}, {NULL}, {NULL}, {NULL}, {NULL}, {NULL}, {NULL}, {NULL}, {NULL},
                  {NULL}, {NULL}, {NULL}, {NULL}};
  n.o0 = tgExtract(l, s->offs, 0);
  n.allOn = groupAllOn(l, s, mask);
  MlirValue all = tgBuild(l, "arith.extui", 1, &n.allOn, i32, 0, NULL);
  MlirValue words = tgBuild(l, "vector.bitcast", 1, &d, mlirVectorTypeGet(1, &four, i32), 0, NULL);
  for (int k = 0; k < 4; k++) {
    n.w[4 + k] = tgExtract(l, words, k);
    n.w[k] = shuffle1(l, n.w[4 + k], "up", NULL);
  }
  MlirValue ok, prevO = shuffle1(l, n.o0, "up", &ok), prevAll = shuffle1(l, all, "up", NULL);
  n.m = i32Op(l, "arith.andi", n.o0, ttConstInt(&l->b, l->loc, i32, l->VEC - 1));
  n.mNonZero = cmpI32(l, 1, n.m, zero);
  n.realign = i32Op(l, "arith.andi", ok, cmpI32(l, 0, i32Op(l, "arith.addi", prevO, vec), n.o0));
  n.realign = i32Op(l, "arith.andi", n.realign, i32Op(l, "arith.andi", n.allOn, n.mNonZero));
  n.realign = i32Op(l, "arith.andi", n.realign, cmpI32(l, 1, prevAll, zero));
  MlirValue r32 = tgBuild(l, "arith.extui", 1, &n.realign, i32, 0, NULL);
  n.nextR = shuffle1(l, r32, "down", &n.nextOk);
  n.nextR = i32Op(l, "arith.andi", n.nextOk, cmpI32(l, 1, n.nextR, zero));
  if (add) {
    n.nextO = shuffle1(l, n.o0, "down", NULL);
    n.nextAll = cmpI32(l, 1, shuffle1(l, all, "down", NULL), zero);
  }
  MlirValue sh = i32Op(l, "arith.subi", ttConstInt(&l->b, l->loc, i32, 16),
                       i32Op(l, "arith.muli", n.m, ttConstInt(&l->b, l->loc, i32, ttDtypeBytes(elem))));
  n.q = i32Op(l, "arith.shrui", sh, ttConstInt(&l->b, l->loc, i32, 2));
  n.bits = i32Op(l, "arith.shli", i32Op(l, "arith.andi", sh, ttConstInt(&l->b, l->loc, i32, 3)),
                 ttConstInt(&l->b, l->loc, i32, 3));
  n.start = i32Op(l, "arith.subi", n.o0, n.m);
  return n;
}

/* Step 1c's aligned windows: from the words c[0..11] (the previous lane's group, this
 * lane's, then a filler), win[h] = the 16 bytes that start 16 h + 4 q + bits / 8 bytes
 * into c, as type t (q in 0..3: two layers of selects, q & 2 then q & 1, then a funnel
 * shift of each word pair). */
static void alignedWindows(Lower *l, const MlirValue *c, MlirValue q, MlirValue bits, MlirType t,
                           MlirValue *win) {
  MlirType i32 = ttI32(l->ctx);
  int64_t four = 4;
  MlirValue v[11], zero = ttConstInt(&l->b, l->loc, i32, 0);
  MlirValue q2 = cmpI32(l, 1, i32Op(l, "arith.andi", q, ttConstInt(&l->b, l->loc, i32, 2)), zero);
  MlirValue q1 = cmpI32(l, 1, i32Op(l, "arith.andi", q, ttConstInt(&l->b, l->loc, i32, 1)), zero);
  for (int j = 0; j < 10; j++)
    v[j] = selectOf(l, q2, c[j + 2], c[j]);
  for (int j = 0; j < 9; j++)
    v[j] = selectOf(l, q1, v[j + 1], v[j]);
  for (int h = 0; h < 2; h++) {
    MlirValue w = tgBuild(l, "llvm.mlir.poison", 0, NULL, mlirVectorTypeGet(1, &four, i32), 0, NULL);
    for (int k = 4 * h; k < 4 * h + 4; k++)
      w = tgInsert(l, tgBuild(l, "llvm.intr.fshr", 3, (MlirValue[]){v[k + 1], v[k], bits}, i32, 0, NULL),
                   w, k - 4 * h);
    win[h] = tgBuild(l, "vector.bitcast", 1, &w, t, 0, NULL);
  }
}

/* Under `cond`, stores the p elements at element `pos` = idx * p of the aligned 16-byte
 * window `win` (4 words) at element offset `at` + pos, as one p * eb-byte store; idx is
 * odd (odd = true) or even, so it is picked from VEC / (2p) candidates by selects. */
static void storePiece(Lower *l, MlirValue cond, MlirValue ptr, MlirValue at, MlirValue win,
                       MlirValue idx, int64_t p, bool odd, MlirType elem) {
  MlirType i32 = ttI32(l->ctx);
  int64_t k = l->VEC / p, bytes = p * ttDtypeBytes(elem);
  MlirType unit = mlirIntegerTypeGet(l->ctx, (unsigned)(8 * bytes));
  MlirValue units = tgBuild(l, "vector.bitcast", 1, &win, mlirVectorTypeGet(1, &k, unit), 0, NULL);
  MlirValue v = tgExtract(l, units, odd);
  for (int64_t c = odd + 2; c < k; c += 2)
    v = selectOf(l, cmpI32(l, 0, idx, ttConstInt(&l->b, l->loc, i32, c)), tgExtract(l, units, c), v);
  MlirOperation ifOp = tgBuildIf(l, cond, ttNoType());
  TtBuilder saved = l->b;
  l->b = ttBuilderAtEnd(tgIfBlock(ifOp, 0));
  MlirValue off = i32Op(l, "arith.addi", at, i32Op(l, "arith.muli", idx, ttConstInt(&l->b, l->loc, i32, p)));
  MlirNamedAttribute align = tgAlignAttr(l, bytes);
  tgStore(l, v, tgGep(l, ptr, off, elem), &align);
  tgYield(l, tgIfBlock(ifOp, 0), (MlirValue){NULL});
  tgYield(l, tgIfBlock(ifOp, 1), (MlirValue){NULL});
  l->b = saved;
}

/* Step 1c for a store: group `d` (16 bytes: lanes o0 .. o0+VEC-1, o0 of any alignment;
 * the previous lane of the warp holds the VEC elements before them when the run goes
 * on) as aligned accesses, each element written once. With m = o0 % VEC, the words of
 * the previous lane's group, this one's and zeros are shifted (alignedWindows) into the aligned
 * windows W = [o0 - m, o0 - m + VEC) and W' = the next VEC elements. When the group is
 * all on:
 *  - m = 0: the group as it is;
 *  - a lane whose previous lane's group is all on and ends where this one starts
 *    (`realign`) stores W: the previous lane's last m elements and its own first VEC - m;
 *  - else (the head) its first VEC - m elements, W's [m, VEC), as at most log2(VEC)
 *    naturally aligned stores (sizes 1, 2, 4, ... from m up);
 *  - where the next lane does not realign (the tail), its last m elements, W's [0, m),
 *    so (sizes ..., 2, 1 down to m).
 * A group not all on stores lane by lane under the mask (its neighbours then write their
 * own heads and tails). */
static void storeRealignedPlain(Lower *l, MlirValue ptr, const Lanes *s, Lowered *mask,
                                MlirValue d, MlirType elem) {
  MlirType i32 = ttI32(l->ctx), i1 = mlirIntegerTypeGet(l->ctx, 1);
  int64_t four = 4;
  MlirType w4 = mlirVectorTypeGet(1, &four, i32);
  MlirValue zero = ttConstInt(&l->b, l->loc, i32, 0), vec = ttConstInt(&l->b, l->loc, i32, l->VEC);
  MlirValue yes = ttConstInt(&l->b, l->loc, i1, 1);
  Neighbours n = neighboursOf(l, s, mask, d, elem, false);
  MlirValue m = n.m, mNonZero = n.mNonZero, realign = n.realign, start = n.start;
  MlirValue c[12]; /* the two groups' words, then zeros */
  for (int k = 0; k < 12; k++)
    c[k] = k < 8 ? n.w[k] : zero;
  MlirOperation ifAll = tgBuildIf(l, n.allOn, ttNoType());
  TtBuilder saved = l->b;
  l->b = ttBuilderAtEnd(tgIfBlock(ifAll, 0));
  MlirValue win[2];
  alignedWindows(l, c, n.q, n.bits, w4, win);
  wideAccess(l, i32Op(l, "arith.xori", mNonZero, yes), ptr, s, n.o0, d, elem, false);
  wideAccess(l, realign, ptr, s, start, tgBuild(l, "vector.bitcast", 1, &win[0], mlirValueGetType(d), 0, NULL),
             elem, false);
  MlirValue head = i32Op(l, "arith.andi", mNonZero, i32Op(l, "arith.xori", realign, yes));
  MlirValue tail = i32Op(l, "arith.andi", mNonZero, i32Op(l, "arith.xori", n.nextR, yes));
  MlirValue next = i32Op(l, "arith.addi", start, vec);
  for (int64_t p = 1, lg = 0; p < l->VEC; p *= 2, lg++) {
    MlirValue pc = ttConstInt(&l->b, l->loc, i32, p), lgc = ttConstInt(&l->b, l->loc, i32, lg);
    /* the head's piece of p: at m rounded up to p, when that has bit p */
    MlirValue up = i32Op(l, "arith.addi", m, ttConstInt(&l->b, l->loc, i32, p - 1));
    MlirValue has = cmpI32(l, 1, i32Op(l, "arith.andi", up, pc), zero);
    storePiece(l, i32Op(l, "arith.andi", head, has), ptr, start, win[0],
               i32Op(l, "arith.shrui", up, lgc), p, true, elem);
    /* the tail's: at m's bits above p, when m has bit p */
    has = cmpI32(l, 1, i32Op(l, "arith.andi", m, pc), zero);
    MlirValue at = i32Op(l, "arith.andi", m, ttConstInt(&l->b, l->loc, i32, ~(2 * p - 1)));
    storePiece(l, i32Op(l, "arith.andi", tail, has), ptr, next, win[1],
               i32Op(l, "arith.shrui", at, lgc), p, false, elem);
  }
  tgYield(l, tgIfBlock(ifAll, 0), (MlirValue){NULL});
  l->b = ttBuilderAtEnd(tgIfBlock(ifAll, 1));
  storeLanes(l, ptr, s, d, elem, false);
  tgYield(l, tgIfBlock(ifAll, 1), (MlirValue){NULL});
  l->b = saved;
}

/* Group d with the lanes the mask has off as -0.0 (bit patterns: adding it changes no
 * element, -0.0 included). */
static MlirValue offAsNegZero(Lower *l, const Lanes *s, MlirValue d, MlirType elem) {
  int64_t eb = ttDtypeBytes(elem), vec = l->VEC;
  MlirType bitsT = mlirIntegerTypeGet(l->ctx, (unsigned)(8 * eb));
  MlirType vbits = mlirVectorTypeGet(1, &vec, bitsT);
  MlirValue v = tgBuild(l, "vector.bitcast", 1, &d, vbits, 0, NULL);
  MlirValue nz = ttConstInt(&l->b, l->loc, bitsT, eb == 4 ? (int32_t)0x80000000 : (int16_t)0x8000);
  for (int64_t i = 0; i < vec; i++)
    v = tgInsert(l, selectOf(l, laneMask(l, s, i), tgExtract(l, v, i), nz), v, i);
  return tgBuild(l, "vector.bitcast", 1, &v, mlirValueGetType(d), 0, NULL);
}

/* Step 1c for an atomic add (split-K's partial tiles) of group `d` (lanes o0 .. o0+VEC-1,
 * o0 of any alignment), each element added exactly once. With m = o0 % VEC:
 *  - m = 0 and the group all on: the group as it is, one vector red;
 *  - else a lane whose group and the previous lane's are all on and consecutive
 *    (`realign`) adds the 16 aligned bytes at o0 - m: the previous lane's last m
 *    elements and its own first VEC - m, a funnel shift of the eight 32-bit words of
 *    both groups (alignedWindows), as a vector red;
 *  - the elements left: a lane's first VEC - m when it does not realign (the head), its
 *    last m when the next lane does not (the tail), as 16-byte reds too, every other
 *    element of the window adding -0.0 (x + -0 is x, -0 included). With the tensor's
 *    `extent` known (tile.extent: --splitk sets it where the output's shape is static),
 *    any window that ends within it takes this form, the group's lanes that are off
 *    adding -0.0 too (a group at the end of a warp, or across the mask's edge: one red,
 *    not VEC); else only where the windows are known to lie in the tensor: the head's
 *    [o0 - m, o0 - m + VEC) of an all-on group, the tail's where the next lane's group is
 *    all on and at least VEC further on;
 *  - what is left (near the tensor's end), one by one under the mask: an f16/bf16 add
 *    as a red of the 32-bit word that holds the element (halfWordRed), but where the
 *    word's other element may lie past the tensor (an even offset whose next lane is off
 *    or in the next group: a lone 16-bit atomic there).
 * Past the shuffles (neighboursOf), all but the as-is red are under one branch. */
static void addRealigned(Lower *l, MlirValue ptr, const Lanes *s, Lowered *mask,
                         MlirValue d, MlirType elem, int64_t extent) {
  MlirType i32 = ttI32(l->ctx), i1 = mlirIntegerTypeGet(l->ctx, 1);
  int64_t eb = ttDtypeBytes(elem), four = 4;
  MlirValue c = ttConstInt(&l->b, l->loc, i32, 0), vec = ttConstInt(&l->b, l->loc, i32, l->VEC);
  MlirValue yes = ttConstInt(&l->b, l->loc, i1, 1);
  Neighbours n = neighboursOf(l, s, mask, d, elem, true);
  MlirValue o0 = n.o0, m = n.m, mNonZero = n.mNonZero, allOn = n.allOn, realign = n.realign;
  MlirValue start = n.start;
  MlirValue asIs = i32Op(l, "arith.andi", i32Op(l, "arith.xori", mNonZero, yes), allOn);
  MlirType dt = mlirValueGetType(d);
  wideAccess(l, asIs, ptr, s, o0, d, elem, true);
  MlirOperation ifNot = tgBuildIf(l, i32Op(l, "arith.xori", asIs, yes), ttNoType());
  TtBuilder saved = l->b;
  l->b = ttBuilderAtEnd(tgIfBlock(ifNot, 0));
  /* the windows of [previous, own, -0.0] (realigned, tail) and of [-0.0, own] (head) */
  MlirValue own = extent > 0 ? offAsNegZero(l, s, d, elem) : d;
  MlirValue ownWords = tgBuild(l, "vector.bitcast", 1, &own, mlirVectorTypeGet(1, &four, i32), 0, NULL);
  MlirValue negZero = ttConstInt(&l->b, l->loc, i32, eb == 4 ? (int32_t)0x80000000 : (int32_t)0x80008000);
  MlirValue cw[12], zw[12], win[2], headWin[2];
  for (int k = 0; k < 12; k++) {
    MlirValue w = k >= 4 && k < 8 ? tgExtract(l, ownWords, k - 4) : negZero;
    cw[k] = k < 4 ? n.w[k] : w;
    zw[k] = w;
  }
  alignedWindows(l, cw, n.q, n.bits, dt, win);
  alignedWindows(l, zw, n.q, n.bits, dt, headWin);
  wideAccess(l, realign, ptr, s, start, win[0], elem, true);
  MlirValue head = i32Op(l, "arith.xori", realign, yes), tail = i32Op(l, "arith.xori", n.nextR, yes);
  MlirValue headWide, tailWide, groupWide = {NULL};
  if (extent > 0) { /* windows that end within the tensor */
    MlirValue end = ttConstInt(&l->b, l->loc, i32, extent);
    MlirValue next = i32Op(l, "arith.addi", start, vec);
    MlirValue fits1 = cmpI32(l, 3, next, end); /* sle */
    MlirValue fits2 = cmpI32(l, 3, i32Op(l, "arith.addi", next, vec), end);
    headWide = i32Op(l, "arith.andi", head, i32Op(l, "arith.andi", mNonZero, fits1));
    tailWide = i32Op(l, "arith.andi", tail, i32Op(l, "arith.andi", mNonZero, fits2));
    groupWide = i32Op(l, "arith.andi", i32Op(l, "arith.xori", mNonZero, yes), fits1);
    wideAccess(l, groupWide, ptr, s, o0, own, elem, true); /* m = 0, not all on */
  } else { /* windows known to lie in the tensor */
    MlirValue wide = i32Op(l, "arith.andi", allOn, mNonZero);
    headWide = i32Op(l, "arith.andi", head, wide);
    tailWide = i32Op(l, "arith.andi", tail, i32Op(l, "arith.andi", wide, i32Op(l, "arith.andi", n.nextOk, n.nextAll)));
    tailWide = i32Op(l, "arith.andi", tailWide,
                     cmpI32(l, 5, n.nextO, i32Op(l, "arith.addi", o0, vec))); /* sge */
  }
  wideAccess(l, headWide, ptr, s, start, headWin[0], elem, true);
  wideAccess(l, tailWide, ptr, s, i32Op(l, "arith.addi", start, vec), win[1], elem, true);
  head = i32Op(l, "arith.andi", head, i32Op(l, "arith.xori", headWide, yes));
  if (!mlirValueIsNull(groupWide))
    head = i32Op(l, "arith.andi", head, i32Op(l, "arith.xori", groupWide, yes));
  tail = i32Op(l, "arith.andi", tail, i32Op(l, "arith.xori", tailWide, yes));
  /* what is left, one by one under the mask */
  MlirOperation ifLeft = tgBuildIf(l, i32Op(l, "arith.ori", head, tail), ttNoType());
  TtBuilder inNot = l->b;
  l->b = ttBuilderAtEnd(tgIfBlock(ifLeft, 0));
  MlirValue firstTail = i32Op(l, "arith.subi", vec, m);
  bool pairs = l->target->vectorRed && (mlirTypeIsAF16(elem) || mlirTypeIsABF16(elem));
  for (int64_t i = 0; i < l->VEC; i++) {
    MlirValue inHead = cmpI32(l, 6, ttConstInt(&l->b, l->loc, i32, i), firstTail); /* ult */
    MlirValue need = i32Op(l, "arith.andi", selectOf(l, inHead, head, tail), laneMask(l, s, i));
    if (pairs) { /* its 32-bit word, unless the word's other element may lie past the
                  * tensor: an even offset whose next lane is off (or past the group) */
      MlirValue off = lane0Plus(l, s->offs, i);
      MlirValue even = cmpI32(l, 0, i32Op(l, "arith.andi", off, ttConstInt(&l->b, l->loc, i32, 1)), c);
      MlirValue nextOff = i == l->VEC - 1 ? yes : i32Op(l, "arith.xori", laneMask(l, s, i + 1), yes);
      MlirValue past = i32Op(l, "arith.andi", even, nextOff);
      halfWordRed(l, i32Op(l, "arith.andi", need, i32Op(l, "arith.xori", past, yes)), ptr, off,
                  even, tgExtract(l, d, i), elem);
      storeLane(l, i32Op(l, "arith.andi", need, past), ptr, s, i, d, elem, true);
      continue;
    }
    storeLane(l, need, ptr, s, i, d, elem, true);
  }
  tgYield(l, tgIfBlock(ifLeft, 0), (MlirValue){NULL});
  tgYield(l, tgIfBlock(ifLeft, 1), (MlirValue){NULL});
  l->b = inNot;
  tgYield(l, tgIfBlock(ifNot, 0), (MlirValue){NULL});
  tgYield(l, tgIfBlock(ifNot, 1), (MlirValue){NULL});
  l->b = saved;
}

/* Step 3 for tile.load (isStore false), tile.store and tile.atomic_add (the fast path:
 * atomicRun's vector reds from sm=90, else one atomic per lane without per-lane mask
 * tests). */
bool tgLowerMemory(Lower *l, MlirOperation op) {
  bool isStore = !ttOpIs(op, "tile.load");
  bool atomic = ttOpIs(op, "tile.atomic_add");
  Lowered *ptr = tgLookup(l, mlirOperationGetOperand(op, 0));
  Lowered *offs = tgLookup(l, mlirOperationGetOperand(op, 1));
  Lowered *data = tgLookup(l, mlirOperationGetOperand(op, isStore ? 2 : 3));
  Lowered *mask = tgLookup(l, mlirOperationGetOperand(op, isStore ? 3 : 2));
  MlirType tileType = mlirValueGetType(mlirOperationGetOperand(op, isStore ? 2 : 3));
  MlirType elem = mlirShapedTypeGetElementType(tileType);
  MlirType vt = tgVecOf(l, elem);
  int64_t bytes = l->VEC * ttDtypeBytes(elem);
  Lowered *res = isStore ? NULL : tgDefine(l, mlirOperationGetResult(op, 0));
  MlirAttribute ext = ttOpAttr(op, "tile.extent"); /* verified: 1 .. 2^31 - 1 */
  int64_t extent = mlirAttributeIsNull(ext) ? -1 : mlirIntegerAttrGetValueInt(ext);
  for (int r = 0; r < data->n; r++) {
    Lanes s = tgLanesOf(l, offs, mask, r);
    MlirValue d = data->parts[r];
    if (!s.contig && isStore && realignable(l, offs, elem, atomic)) { /* step 1c */
      if (atomic)
        addRealigned(l, ptr->parts[0], &s, mask, d, elem, extent);
      else
        storeRealignedPlain(l, ptr->parts[0], &s, mask, d, elem);
      continue;
    }
    if (!isStore && l->oneAddressLoads && offs->axis.constancy >= l->VEC) { /* step 1u */
      res->parts[r] = loadOneAddress(l, ptr->parts[0], &s, mask, d, elem);
      continue;
    }
    if (!s.contig && !atomic) { /* step 1b */
      MlirValue v = accessRuns(l, ptr->parts[0], &s, mask, d, elem, isStore);
      if (!isStore)
        res->parts[r] = v;
      continue;
    }
    if (!s.contig) { /* an atomic add of lanes that do not run: one by one */
      storeLanes(l, ptr->parts[0], &s, d, elem, true);
      continue;
    }
    if (l->selectLoads && !isStore && mask->axis.constancy >= l->VEC) { /* step 1' */
      MlirValue on = tgAllLanesOn(l, &s, mask);
      MlirValue p = tgGep(l, ptr->parts[0], tgExtract(l, s.offs, 0), elem);
      MlirValue at = tgBuild(l, "arith.select", 3, (MlirValue[]){on, p, ptr->parts[0]},
                             mlirValueGetType(p), 0, NULL);
      MlirValue v = tgLoadPtr(l, at, vt, bytes < 16 ? bytes : 16);
      res->parts[r] = tgBuild(l, "arith.select", 3, (MlirValue[]){on, v, d}, vt, 0, NULL);
      continue;
    }
    MlirValue on = tgAllLanesOn(l, &s, mask), early = {NULL};
    if (l->selectLoads && !isStore && !mlirAttributeIsNull(ttOpAttr(op, "tile.early"))) { /* 1'' */
      MlirValue p = tgGep(l, ptr->parts[0], tgExtract(l, s.offs, 0), elem);
      MlirValue at = tgBuild(l, "arith.select", 3, (MlirValue[]){on, p, ptr->parts[0]},
                             mlirValueGetType(p), 0, NULL);
      early = tgLoadPtr(l, at, vt, bytes < 16 ? bytes : 16);
    }
    MlirOperation ifOp = tgBuildIf(l, on, isStore ? ttNoType() : vt);
    TtBuilder saved = l->b;
    l->b = ttBuilderAtEnd(tgIfBlock(ifOp, 0));
    MlirValue p = mlirValueIsNull(early) ? tgGep(l, ptr->parts[0], tgExtract(l, s.offs, 0), elem)
                                         : (MlirValue){NULL};
    MlirNamedAttribute align = tgAlignAttr(l, bytes < 16 ? bytes : 16);
    if (!mlirValueIsNull(early)) {
      tgYield(l, tgIfBlock(ifOp, 0), early);
    } else if (atomic) {
      atomicRun(l, ptr->parts[0], s.offs, d, elem);
      tgYield(l, tgIfBlock(ifOp, 0), (MlirValue){NULL});
    } else if (isStore) {
      MlirValue ops[2] = {d, p};
      tgStore(l, ops[0], ops[1], &align);
      tgYield(l, tgIfBlock(ifOp, 0), (MlirValue){NULL});
    } else {
      tgYield(l, tgIfBlock(ifOp, 0), tgLoadPtr(l, p, vt, bytes < 16 ? bytes : 16));
    }
    l->b = ttBuilderAtEnd(tgIfBlock(ifOp, 1));
    if (isStore) {
      if (mask->axis.constancy < l->VEC)
        storeLanes(l, ptr->parts[0], &s, d, elem, atomic);
      tgYield(l, tgIfBlock(ifOp, 1), (MlirValue){NULL});
    } else {
      MlirValue slow = mask->axis.constancy >= l->VEC ? d : tgLoadLanes(l, ptr->parts[0], &s, d, elem);
      tgYield(l, tgIfBlock(ifOp, 1), slow);
      res->parts[r] = mlirOperationGetResult(ifOp, 0);
    }
    l->b = saved;
  }
  if (res && mlirTypeIsAInteger(elem)) /* step 4 */
    res->axis.constancy = offs->axis.constancy;
  return true;
}

/* tile.arrive, the pattern of cooperative groups' grid sync: the block meets at a barrier
 * (every thread's stores are then ordered before thread 0's next ops at block scope);
 * thread 0 alone fences (fence.acq_rel.gpu: cumulative, it releases the whole block's
 * stores device-wide), adds 1 to the counter (the 32-bit word at element `index` of the
 * pointer's buffer, an atomic add), is last when the old value was count - 1, fences
 * again (acquire: the other programs' released stores are visible to this block from
 * here), puts the counter back to 0 when last, and writes the answer to a shared word;
 * after a second barrier every thread reads it. */
#define ARRIVE_FLAG "__tt_arrive_flag"
bool tgLowerArrive(Lower *l, MlirOperation op) {
  Lowered *p = tgLookup(l, mlirOperationGetOperand(op, 0));
  Lowered *ix = tgLookup(l, mlirOperationGetOperand(op, 1));
  int64_t count = ttOpAttrInt(op, "count", 0);
  if (!p || !ix || count < 2) {
    ttEmitError(op, "convert-tile-to-gpu: tile.arrive needs a lowered pointer and index, "
                    "and a count of at least 2");
    return false;
  }
  MlirType i32 = ttI32(l->ctx), i1 = mlirIntegerTypeGet(l->ctx, 1);
  int32_t none[3] = {0, 0, 0};
  MlirNamedAttribute fence[2] = {
      ttNamedAttr(l->ctx, "ptxCode", mlirStringAttrGet(l->ctx, ttStrRef("fence.acq_rel.gpu;"))),
      ttNamedAttr(l->ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(l->ctx, 3, none)),
  };
  tgBarrier(l);
  tgSharedGlobal(l, ARRIVE_FLAG, 4, 4, false);
  MlirValue flag = tgSharedAddress(l, ARRIVE_FLAG);
  MlirBlock t0 = tgThread0(l, (MlirValue){NULL});
  TtBuilder saved = l->b;
  l->b = (TtBuilder){t0, mlirBlockGetTerminator(t0)};
  tgBuild(l, "nvvm.inline_ptx", 0, NULL, ttNoType(), 2, fence);
  MlirValue word = tgGep(l, p->parts[0], ix->parts[0], i32);
  MlirType i64 = mlirIntegerTypeGet(l->ctx, 64); /* LLVM dialect enums: add 1, monotonic 2 */
  MlirNamedAttribute rmw[2] = {
      ttNamedAttr(l->ctx, "bin_op", mlirIntegerAttrGet(i64, 1)),
      ttNamedAttr(l->ctx, "ordering", mlirIntegerAttrGet(i64, 2)),
  };
  MlirValue old = tgBuild(l, "llvm.atomicrmw", 2, (MlirValue[]){word, tgConstI32(l, 1)}, i32, 2, rmw);
  MlirNamedAttribute eq = ttNamedAttr(l->ctx, "predicate",
                                      mlirIntegerAttrGet(mlirIntegerTypeGet(l->ctx, 64), 0));
  MlirValue last = tgBuild(l, "arith.cmpi", 2, (MlirValue[]){old, tgConstI32(l, count - 1)}, i1, 1, &eq);
  tgBuild(l, "nvvm.inline_ptx", 0, NULL, ttNoType(), 2, fence);
  MlirValue zero = tgConstI32(l, 0);
  /* the counter back to 0, by the last alone (every other arrival is counted by then) */
  MlirOperation ifLast = tgBuildIf(l, last, ttNoType());
  tgYield(l, tgIfBlock(ifLast, 1), (MlirValue){NULL});
  TtBuilder in = l->b;
  l->b = ttBuilderAtEnd(tgIfBlock(ifLast, 0));
  tgBuild(l, "llvm.store", 2, (MlirValue[]){zero, word}, ttNoType(), 0, NULL);
  tgYield(l, tgIfBlock(ifLast, 0), (MlirValue){NULL});
  l->b = in;
  MlirValue bit = tgBuild(l, "arith.extui", 1, &last, i32, 0, NULL);
  tgBuild(l, "llvm.store", 2, (MlirValue[]){bit, flag}, ttNoType(), 0, NULL);
  l->b = saved;
  tgBarrier(l);
  MlirValue got = tgBuild(l, "llvm.load", 1, &flag, i32, 0, NULL);
  MlirNamedAttribute ne = ttNamedAttr(l->ctx, "predicate",
                                      mlirIntegerAttrGet(mlirIntegerTypeGet(l->ctx, 64), 1));
  MlirValue isLast = tgBuild(l, "arith.cmpi", 2, (MlirValue[]){got, tgConstI32(l, 0)}, i1, 1, &ne);
  Lowered *out = tgDefine(l, mlirOperationGetResult(op, 0));
  out->parts[0] = isLast;
  return true;
}
