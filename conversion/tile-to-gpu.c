/* tile-to-gpu.c - the --convert-tile-to-gpu lowering: tile kernels to gpu.func.
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
 *       vectors, its body lowered the same way.
 *  3. A load or store of group r: when its offsets have contig >= VEC the group is one
 *     vector access, guarded by "all lanes on" - the mask's last lane when the mask is
 *     `x < y` with x contiguous and y constant over the group, its first lane when the mask
 *     is constant over the group, else the and of its lanes. When that guard is false (or
 *     the offsets are not contiguous) each lane is loaded or stored alone under its mask.
 *  4. Erase the tile kernel.
 */
#include "tt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPS 64
/* Threads an SM holds at once (sm_80 and sm_90). A memory-bound kernel needs many loads
 * in flight: each kernel asks ptxas (`nvvm.minctasm`) for registers that let an SM hold
 * this many register groups (threads x REPS), so more REPS need fewer threads. */
#define MAX_THREADS_PER_SM 2048
#define BIG_DIV ((int64_t)1 << 30)

/* What is known of an i32 tile or scalar (see step 2). */
typedef struct {
  int64_t contig, constancy, div;
} Axis;

/* A tile value after lowering. */
typedef struct {
  MlirValue key;
  MlirValue parts[MAX_REPS]; /* scalars: parts[0] */
  Axis axis;
  MlirOperation def; /* the tile op that defined key (null for arguments) */
} Lowered;

typedef struct {
  MlirContext ctx;
  MlirLocation loc;
  TtBuilder b;
  int64_t B, T, VEC, REPS;
  MlirValue tid; /* i32 thread index */
  MlirOperation gpuModule; /* where the kernel goes (and its shared-memory scratch) */
  Lowered **vals; /* each allocated alone: pointers stay valid as the table grows */
  int nvals, capvals;
  bool failed;
} Lower;

static int64_t gcd64(int64_t a, int64_t b) {
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a < 0 ? -a : a;
}

static int64_t maxI(int64_t a, int64_t b) { return a > b ? a : b; }

/* The largest power of two dividing v (BIG_DIV for 0). */
static int64_t pow2Div(int64_t v) {
  if (v == 0)
    return BIG_DIV;
  int64_t d = 1;
  while (!(v & d) && d < BIG_DIV)
    d <<= 1;
  return d;
}

static Lowered *lookup(Lower *l, MlirValue v) {
  for (int i = l->nvals - 1; i >= 0; i--)
    if (mlirValueEqual(l->vals[i]->key, v))
      return l->vals[i];
  return NULL;
}

static Lowered *define(Lower *l, MlirValue key) {
  if (l->nvals == l->capvals) {
    l->capvals = l->capvals ? 2 * l->capvals : 64;
    l->vals = ttRealloc(l->vals, sizeof(Lowered *) * (size_t)l->capvals);
  }
  Lowered *x = ttAlloc(sizeof(Lowered));
  l->vals[l->nvals++] = x;
  x->key = key;
  x->axis = (Axis){1, 1, 1};
  if (mlirValueIsAOpResult(key))
    x->def = mlirOpResultGetOwner(key);
  return x;
}

static bool isTile(MlirValue v) { return mlirTypeIsARankedTensor(mlirValueGetType(v)); }

static MlirType vecOf(Lower *l, MlirType elem) {
  return mlirVectorTypeGet(1, &l->VEC, elem);
}

static MlirValue build(Lower *l, const char *name, intptr_t n, const MlirValue *ops,
                       MlirType t, intptr_t na, const MlirNamedAttribute *attrs) {
  return ttBuild(&l->b, name, l->loc, n, ops, t, na, attrs);
}


static MlirValue extract(Lower *l, MlirValue vec, int64_t lane) {
  MlirNamedAttribute pos = ttNamedAttr(l->ctx, "static_position",
                                       mlirDenseI64ArrayGet(l->ctx, 1, &lane));
  MlirType elem = mlirShapedTypeGetElementType(mlirValueGetType(vec));
  return build(l, "vector.extract", 1, &vec, elem, 1, &pos);
}

static MlirValue insert(Lower *l, MlirValue scalar, MlirValue vec, int64_t lane) {
  MlirNamedAttribute pos = ttNamedAttr(l->ctx, "static_position",
                                       mlirDenseI64ArrayGet(l->ctx, 1, &lane));
  MlirValue ops[2] = {scalar, vec};
  return build(l, "vector.insert", 2, ops, mlirValueGetType(vec), 1, &pos);
}

/* `gpu.<name> x` as an i32. */
static MlirValue gpuIndex(Lower *l, const char *name, int64_t axis) {
  const char *dims[3] = {"#gpu<dim x>", "#gpu<dim y>", "#gpu<dim z>"};
  MlirNamedAttribute d = ttNamedAttr(
      l->ctx, "dimension", mlirAttributeParseGet(l->ctx, ttStrRef(dims[axis % 3])));
  MlirValue idx = build(l, name, 0, NULL, mlirIndexTypeGet(l->ctx), 1, &d);
  return build(l, "arith.index_cast", 1, &idx, ttI32(l->ctx), 0, NULL);
}

/* `ptr + off` elements of type elem, as an llvm.getelementptr. */
static MlirValue gep(Lower *l, MlirValue ptr, MlirValue off, MlirType elem) {
  int32_t dyn = INT32_MIN;
  MlirNamedAttribute attrs[2] = {
      ttNamedAttr(l->ctx, "elem_type", mlirTypeAttrGet(elem)),
      ttNamedAttr(l->ctx, "rawConstantIndices", mlirDenseI32ArrayGet(l->ctx, 1, &dyn)),
  };
  MlirValue ops[2] = {ptr, off};
  return build(l, "llvm.getelementptr", 2, ops, mlirValueGetType(ptr), 2, attrs);
}

static MlirNamedAttribute alignAttr(Lower *l, int64_t bytes) {
  return ttNamedAttr(l->ctx, "alignment",
                     mlirIntegerAttrGet(mlirIntegerTypeGet(l->ctx, 64), bytes));
}

/* Builds `scf.if cond -> (type)` with empty then/else blocks; returns the op, whose
 * blocks the caller fills (each must end in scf.yield). */
static MlirOperation buildIf(Lower *l, MlirValue cond, MlirType result) {
  MlirRegion regions[2];
  for (int i = 0; i < 2; i++) {
    regions[i] = mlirRegionCreate();
    mlirRegionAppendOwnedBlock(regions[i], mlirBlockCreate(0, NULL, NULL));
  }
  bool has = !mlirTypeIsNull(result);
  MlirOperation op =
      ttOpCreate("scf.if", l->loc, 1, &cond, has ? 1 : 0, &result, 0, NULL, 2, regions);
  return ttInsert(&l->b, op);
}

static MlirBlock ifBlock(MlirOperation ifOp, int which) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(ifOp, which));
}

static void yield(Lower *l, MlirBlock blk, MlirValue v) {
  TtBuilder saved = l->b;
  l->b = ttBuilderAtEnd(blk);
  build(l, "scf.yield", mlirValueIsNull(v) ? 0 : 1, &v, ttNoType(), 0, NULL);
  l->b = saved;
}

/* How the slow path of step 3 finds lane i of group r: its offset, and its mask bit. When
 * the offsets are contiguous, lane i's offset is lane 0's plus i; when the mask is
 * `x < y` with x contiguous and y constant over the group, lane i's bit is x0 + i < y0.
 * Computing these from lane 0 inside the slow path (rather than extracting lanes of
 * vectors computed before the branch) keeps the fast path free of per-lane work. */
typedef struct {
  MlirValue offs, mask;
  bool contig;
  MlirValue x, y; /* the mask's `x < y` operands (null when not of that form) */
  int64_t pred;
} Lanes;

static Lanes lanesOf(Lower *l, Lowered *offs, Lowered *mask, int r) {
  Lanes s = {offs->parts[r], mask->parts[r], offs->axis.contig >= l->VEC, {NULL}, {NULL}, 0};
  if (mask->def.ptr && ttOpIs(mask->def, "arith.cmpi")) {
    int64_t pred = ttOpAttrInt(mask->def, "predicate", -1);
    Lowered *x = lookup(l, mlirOperationGetOperand(mask->def, 0));
    Lowered *y = lookup(l, mlirOperationGetOperand(mask->def, 1));
    bool less = pred == 2 || pred == 3 || pred == 6 || pred == 7; /* slt sle ult ule */
    if (less && x && y && x->axis.contig >= l->VEC && y->axis.constancy >= l->VEC) {
      s.x = x->parts[r];
      s.y = y->parts[r];
      s.pred = pred;
    }
  }
  return s;
}

/* lane 0 of vector v, plus i */
static MlirValue lane0Plus(Lower *l, MlirValue v, int64_t i) {
  MlirValue x0 = extract(l, v, 0);
  if (i == 0)
    return x0;
  MlirValue ops[2] = {x0, ttConstInt(&l->b, l->loc, ttI32(l->ctx), i)};
  return build(l, "arith.addi", 2, ops, ttI32(l->ctx), 0, NULL);
}

static MlirValue laneOffset(Lower *l, const Lanes *s, int64_t i) {
  return s->contig ? lane0Plus(l, s->offs, i) : extract(l, s->offs, i);
}

static MlirValue laneMask(Lower *l, const Lanes *s, int64_t i) {
  if (mlirValueIsNull(s->x))
    return extract(l, s->mask, i);
  MlirValue ops[2] = {lane0Plus(l, s->x, i), extract(l, s->y, 0)};
  MlirNamedAttribute pred =
      ttNamedAttr(l->ctx, "predicate", ttIntAttr(l->ctx, s->pred, mlirIntegerTypeGet(l->ctx, 64)));
  return build(l, "arith.cmpi", 2, ops, mlirIntegerTypeGet(l->ctx, 1), 1, &pred);
}

/* Step 3's guard: an i1 that is true when every lane of the mask group is on. */
static MlirValue allLanesOn(Lower *l, const Lanes *s, Lowered *mask) {
  if (mask->axis.constancy >= l->VEC)
    return extract(l, s->mask, 0);
  if (!mlirValueIsNull(s->x))
    return laneMask(l, s, l->VEC - 1);
  MlirNamedAttribute kind =
      ttNamedAttr(l->ctx, "kind", mlirAttributeParseGet(l->ctx, ttStrRef("#vector.kind<and>")));
  return build(l, "vector.reduction", 1, &s->mask, mlirIntegerTypeGet(l->ctx, 1), 1, &kind);
}

/* Loads lane by lane under the mask: the slow path of step 3. */
static MlirValue loadLanes(Lower *l, MlirValue ptr, const Lanes *s, MlirValue other,
                           MlirType elem) {
  MlirValue acc = other;
  for (int64_t i = 0; i < l->VEC; i++) {
    MlirOperation ifOp = buildIf(l, laneMask(l, s, i), elem);
    TtBuilder saved = l->b;
    l->b = ttBuilderAtEnd(ifBlock(ifOp, 0));
    MlirValue p = gep(l, ptr, laneOffset(l, s, i), elem);
    MlirValue v = build(l, "llvm.load", 1, &p, elem, 0, NULL);
    yield(l, ifBlock(ifOp, 0), v);
    l->b = ttBuilderAtEnd(ifBlock(ifOp, 1));
    MlirValue o = extract(l, other, i);
    yield(l, ifBlock(ifOp, 1), o);
    l->b = saved;
    acc = insert(l, mlirOperationGetResult(ifOp, 0), acc, i);
  }
  return acc;
}

/* Stores lane by lane under the mask. */
static void storeLanes(Lower *l, MlirValue ptr, const Lanes *s, MlirValue value,
                       MlirType elem) {
  for (int64_t i = 0; i < l->VEC; i++) {
    MlirOperation ifOp = buildIf(l, laneMask(l, s, i), ttNoType());
    TtBuilder saved = l->b;
    l->b = ttBuilderAtEnd(ifBlock(ifOp, 0));
    MlirValue ops[2] = {extract(l, value, i), gep(l, ptr, laneOffset(l, s, i), elem)};
    build(l, "llvm.store", 2, ops, ttNoType(), 0, NULL);
    yield(l, ifBlock(ifOp, 0), (MlirValue){NULL});
    yield(l, ifBlock(ifOp, 1), (MlirValue){NULL});
    l->b = saved;
  }
}

/* Step 3 for tile.load (isStore false) and tile.store. */
static void lowerMemory(Lower *l, MlirOperation op, bool isStore) {
  Lowered *ptr = lookup(l, mlirOperationGetOperand(op, 0));
  Lowered *offs = lookup(l, mlirOperationGetOperand(op, 1));
  Lowered *data = lookup(l, mlirOperationGetOperand(op, isStore ? 2 : 3));
  Lowered *mask = lookup(l, mlirOperationGetOperand(op, isStore ? 3 : 2));
  MlirType tileType = mlirValueGetType(mlirOperationGetOperand(op, isStore ? 2 : 3));
  MlirType elem = mlirShapedTypeGetElementType(tileType);
  MlirType vt = vecOf(l, elem);
  int64_t bytes = l->VEC * ttDtypeBytes(elem);
  Lowered *res = isStore ? NULL : define(l, mlirOperationGetResult(op, 0));
  for (int r = 0; r < l->REPS; r++) {
    Lanes s = lanesOf(l, offs, mask, r);
    MlirValue d = data->parts[r];
    if (!s.contig) {
      if (isStore)
        storeLanes(l, ptr->parts[0], &s, d, elem);
      else
        res->parts[r] = loadLanes(l, ptr->parts[0], &s, d, elem);
      continue;
    }
    MlirOperation ifOp = buildIf(l, allLanesOn(l, &s, mask), isStore ? ttNoType() : vt);
    TtBuilder saved = l->b;
    l->b = ttBuilderAtEnd(ifBlock(ifOp, 0));
    MlirValue p = gep(l, ptr->parts[0], extract(l, s.offs, 0), elem);
    MlirNamedAttribute align = alignAttr(l, bytes < 16 ? bytes : 16);
    if (isStore) {
      MlirValue ops[2] = {d, p};
      build(l, "llvm.store", 2, ops, ttNoType(), 1, &align);
      yield(l, ifBlock(ifOp, 0), (MlirValue){NULL});
    } else {
      yield(l, ifBlock(ifOp, 0), build(l, "llvm.load", 1, &p, vt, 1, &align));
    }
    l->b = ttBuilderAtEnd(ifBlock(ifOp, 1));
    if (isStore) {
      if (mask->axis.constancy < l->VEC)
        storeLanes(l, ptr->parts[0], &s, d, elem);
      yield(l, ifBlock(ifOp, 1), (MlirValue){NULL});
    } else {
      MlirValue slow = mask->axis.constancy >= l->VEC ? d : loadLanes(l, ptr->parts[0], &s, d, elem);
      yield(l, ifBlock(ifOp, 1), slow);
      res->parts[r] = mlirOperationGetResult(ifOp, 0);
    }
    l->b = saved;
  }
}

/* Axis facts of an elementwise integer op from its operands' (step 2). */
static Axis axisOf(Lower *l, MlirOperation op, const char *name) {
  Axis out = {1, 1, 1};
  intptr_t n = mlirOperationGetNumOperands(op);
  Lowered *a = n > 0 ? lookup(l, mlirOperationGetOperand(op, 0)) : NULL;
  Lowered *b = n > 1 ? lookup(l, mlirOperationGetOperand(op, 1)) : NULL;
  if (!a)
    return out;
  Axis x = a->axis, y = b ? b->axis : (Axis){1, l->B, 1};
  out.constancy = gcd64(x.constancy, y.constancy);
  if (strcmp(name, "arith.addi") == 0) {
    out.contig = maxI(gcd64(gcd64(x.contig, y.constancy), y.div),
                      gcd64(gcd64(y.contig, x.constancy), x.div));
    out.div = gcd64(x.div, y.div);
  } else if (strcmp(name, "arith.muli") == 0) {
    out.div = x.div * y.div < BIG_DIV ? x.div * y.div : BIG_DIV;
  } else if (strcmp(name, "arith.remui") == 0 || strcmp(name, "arith.remsi") == 0) {
    if (y.constancy >= l->B) {
      out.contig = gcd64(x.contig, y.div);
      out.div = gcd64(x.div, y.div);
    }
  } else if (strcmp(name, "arith.divui") == 0 || strcmp(name, "arith.divsi") == 0) {
    if (y.constancy >= l->B)
      out.constancy = maxI(x.constancy, gcd64(x.contig, y.div));
  } else if (strcmp(name, "arith.cmpi") == 0) {
    out.constancy = maxI(out.constancy, gcd64(gcd64(x.contig, y.div), y.constancy));
  }
  return out;
}

/* The NVVM intrinsic `intrin` (f32 -> f32) applied to x: f32, or lane by lane to a vector
 * of f32 (the intrinsics are scalar). */
static MlirValue intrinsic(Lower *l, const char *intrin, MlirValue x) {
  MlirType t = mlirValueGetType(x);
  if (mlirTypeIsAVector(t)) {
    MlirValue acc = x;
    for (int64_t i = 0; i < l->VEC; i++)
      acc = insert(l, intrinsic(l, intrin, extract(l, x, i)), acc, i);
    return acc;
  }
  MlirNamedAttribute attrs[3] = {
      ttNamedAttr(l->ctx, "intrin", ttStrAttr(l->ctx, intrin)),
      ttNamedAttr(l->ctx, "operandSegmentSizes",
                  mlirDenseI32ArrayGet(l->ctx, 2, (const int32_t[]){1, 0})),
      ttNamedAttr(l->ctx, "op_bundle_sizes", mlirDenseI32ArrayGet(l->ctx, 0, NULL)),
  };
  return build(l, "llvm.call_intrinsic", 1, &x, t, 3, attrs);
}

/* tanh(x) for a result that needs only 16-bit accuracy (`math.tanh` with `afn`):
 *   a = |x|;  t = a < 0.01 ? a : 1 - 2 * rcp(ex2(2 log2(e) a) + 1);  copysign(t, x)
 * with MUFU's ex2.approx.ftz and rcp.approx.ftz (their inputs are >= 0 and >= 2, so no
 * denormal is ever flushed). Relative error below 1e-4 everywhere (3.3e-5 from tanh(a) ~ a
 * at a = 0.01, a few f32 ulps of 1 elsewhere), exact saturation to +-1, NaN propagated;
 * 9 instructions against libdevice's ~20. */
static MlirValue fastTanh(Lower *l, MlirValue x, MlirType t, MlirType boolType) {
  MlirNamedAttribute fm = ttFastmath(l->ctx, "contract");
  MlirValue one = ttConstSplat(&l->b, l->loc, t, 1.0);
  MlirValue a = build(l, "math.absf", 1, &x, t, 0, NULL);
  MlirValue ops[2] = {a, ttConstSplat(&l->b, l->loc, t, 2.0 * 1.4426950408889634)};
  MlirValue ex = intrinsic(l, "llvm.nvvm.ex2.approx.ftz.f32",
                           build(l, "arith.mulf", 2, ops, t, 1, &fm));
  MlirValue d = build(l, "arith.addf", 2, (MlirValue[]){ex, one}, t, 1, &fm);
  MlirValue r = intrinsic(l, "llvm.nvvm.rcp.approx.ftz.f", d);
  MlirValue m2 = build(l, "arith.mulf", 2,
                       (MlirValue[]){r, ttConstSplat(&l->b, l->loc, t, -2.0)}, t, 1, &fm);
  MlirValue big = build(l, "arith.addf", 2, (MlirValue[]){m2, one}, t, 1, &fm);
  MlirNamedAttribute olt =
      ttNamedAttr(l->ctx, "predicate", ttIntAttr(l->ctx, 4, mlirIntegerTypeGet(l->ctx, 64)));
  MlirValue small = build(l, "arith.cmpf", 2,
                          (MlirValue[]){a, ttConstSplat(&l->b, l->loc, t, 0.01)}, boolType, 1,
                          &olt);
  MlirValue v = build(l, "arith.select", 3, (MlirValue[]){small, a, big}, t, 0, NULL);
  return build(l, "math.copysign", 2, (MlirValue[]){v, x}, t, 0, NULL);
}

/* Step 2 for an arith/math op (on tiles: once per group; on scalars: once). */
static bool lowerGeneric(Lower *l, MlirOperation op) {
  char name[64];
  ttOpName(op, name, sizeof name);
  intptr_t nops = mlirOperationGetNumOperands(op);
  if (mlirOperationGetNumResults(op) != 1 || mlirOperationGetNumRegions(op) != 0 ||
      nops > 8) {
    ttEmitError(op, "convert-tile-to-gpu: cannot lower '%s' in a tile kernel", name);
    return false;
  }
  MlirValue res = mlirOperationGetResult(op, 0);
  MlirType rt = mlirValueGetType(res);
  bool tile = isTile(res);
  intptr_t nattrs = mlirOperationGetNumAttributes(op);
  if (nattrs > 16) {
    ttEmitError(op, "convert-tile-to-gpu: '%s' has %d attributes; at most 16 are supported",
                name, (int)nattrs);
    return false;
  }
  MlirNamedAttribute attrs[16];
  for (intptr_t i = 0; i < nattrs; i++)
    attrs[i] = mlirOperationGetAttribute(op, i);

  Lowered *out = define(l, res);
  if (ttOpIs(op, "arith.constant")) {
    MlirAttribute v = ttOpAttr(op, "value");
    if (tile) {
      if (!mlirDenseElementsAttrIsSplat(v)) {
        ttEmitError(op, "convert-tile-to-gpu: only splat tile constants are supported");
        return false;
      }
      MlirAttribute s = mlirDenseElementsAttrGetSplatValue(v);
      MlirType vt = vecOf(l, mlirShapedTypeGetElementType(rt));
      MlirNamedAttribute va = ttNamedAttr(l->ctx, "value", mlirDenseElementsAttrSplatGet(vt, s));
      MlirValue c = build(l, "arith.constant", 0, NULL, vt, 1, &va);
      for (int r = 0; r < l->REPS; r++)
        out->parts[r] = c;
      out->axis = (Axis){1, l->B, mlirAttributeIsAInteger(s) ? pow2Div(mlirIntegerAttrGetValueInt(s)) : 1};
    } else {
      out->parts[0] = mlirOperationGetResult(ttInsert(&l->b, mlirOperationClone(op)), 0);
      if (mlirAttributeIsAInteger(v))
        out->axis.div = pow2Div(mlirIntegerAttrGetValueInt(v));
    }
    return true;
  }
  int reps = tile ? (int)l->REPS : 1;
  MlirType t = tile ? vecOf(l, mlirShapedTypeGetElementType(rt)) : rt;
  for (int r = 0; r < reps; r++) {
    MlirValue ops[8];
    for (intptr_t k = 0; k < nops; k++) {
      Lowered *x = lookup(l, mlirOperationGetOperand(op, k));
      if (!x) {
        ttEmitError(op, "convert-tile-to-gpu: operand %d of '%s' is not lowered", (int)k,
                    name);
        return false;
      }
      ops[k] = x->parts[tile ? r : 0];
    }
    if (ttOpIs(op, "math.tanh") && ttOpHasFastmath(op, "afn") &&
        mlirTypeIsAF32(tile ? mlirShapedTypeGetElementType(t) : t)) {
      MlirType i1 = mlirIntegerTypeGet(l->ctx, 1);
      out->parts[r] = fastTanh(l, ops[0], t, tile ? vecOf(l, i1) : i1);
    } else {
      out->parts[r] = build(l, name, nops, ops, t, nattrs, attrs);
    }
  }
  out->axis = axisOf(l, op, name);
  return true;
}

/* The programs per SM a kernel asks for (see MAX_THREADS_PER_SM), within the hardware's
 * limit of 32. */
static int64_t ctasPerSm(const Lower *l) {
  int64_t n = MAX_THREADS_PER_SM / (l->T * l->REPS);
  return n < 1 ? 1 : n > 32 ? 32 : n;
}

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
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(l->gpuModule, 0));
  bool have = false;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op) && !have;
       op = mlirOperationGetNextInBlock(op)) {
    char name[64] = "";
    have = ttOpAttrStr(op, "sym_name", name, sizeof name) && strcmp(name, SCRATCH_NAME) == 0;
  }
  if (!have) {
    MlirNamedAttribute attrs[5] = {
        ttNamedAttr(l->ctx, "sym_name", ttStrAttr(l->ctx, SCRATCH_NAME)),
        ttNamedAttr(l->ctx, "global_type",
                    mlirTypeAttrGet(mlirTypeParseGet(l->ctx, ttStrRef("!llvm.array<32 x f32>")))),
        ttNamedAttr(l->ctx, "linkage",
                    mlirAttributeParseGet(l->ctx, ttStrRef("#llvm.linkage<internal>"))),
        ttNamedAttr(l->ctx, "addr_space", ttIntAttr(l->ctx, 3, ttI32(l->ctx))),
        alignAttr(l, 16),
    };
    MlirRegion init = mlirRegionCreate();
    MlirOperation g = ttOpCreate("llvm.mlir.global", l->loc, 0, NULL, 0, NULL, 5, attrs, 1, &init);
    mlirBlockInsertOwnedOperation(body, 0, g);
  }
  MlirNamedAttribute ref = ttNamedAttr(
      l->ctx, "global_name", mlirFlatSymbolRefAttrGet(l->ctx, ttStrRef(SCRATCH_NAME)));
  return build(l, "llvm.mlir.addressof", 0, NULL,
               mlirTypeParseGet(l->ctx, ttStrRef("!llvm.ptr<3>")), 1, &ref);
}

/* Step 2 for tile.reduce of a 1-D tile to a scalar: combine the thread's own elements
 * (its REPS vectors, then the lanes), then across the warp with butterfly shuffles, then
 * (more than one warp) across warps: lane 0 of each warp writes its value to shared
 * memory, and after a barrier every thread combines all of them, so every thread ends
 * with the result. A barrier before the write keeps an earlier reduction's readers safe. */
static bool lowerReduce(Lower *l, MlirOperation op) {
  char kind[16] = "";
  const char *arith, *vkind;
  ttOpAttrStr(op, "kind", kind, sizeof kind);
  MlirValue res = mlirOperationGetResult(op, 0);
  MlirType t = mlirValueGetType(res);
  Lowered *x = lookup(l, mlirOperationGetOperand(op, 0));
  if (!reduceKind(kind, &arith, &vkind) || !mlirTypeIsAF32(t) || !x) {
    ttEmitError(op, "convert-tile-to-gpu: tile.reduce of kind '%s' to a scalar of this type "
                    "is not supported (sum, max, min to f32)",
                kind);
    return false;
  }
  MlirValue acc = x->parts[0];
  for (int r = 1; r < l->REPS; r++)
    acc = build(l, arith, 2, (MlirValue[]){acc, x->parts[r]}, mlirValueGetType(acc), 0, NULL);
  MlirNamedAttribute vk = ttNamedAttr(l->ctx, "kind", mlirAttributeParseGet(l->ctx, ttStrRef(vkind)));
  MlirValue v = build(l, "vector.reduction", 1, &acc, t, 1, &vk);
  MlirType i32 = ttI32(l->ctx);
  MlirValue width = ttConstInt(&l->b, l->loc, i32, 32);
  MlirNamedAttribute xorMode =
      ttNamedAttr(l->ctx, "mode", mlirAttributeParseGet(l->ctx, ttStrRef("#gpu<shuffle_mode xor>")));
  for (int off = 16; off >= 1; off /= 2) {
    MlirValue ops[3] = {v, ttConstInt(&l->b, l->loc, i32, off), width};
    MlirType rts[2] = {t, mlirIntegerTypeGet(l->ctx, 1)};
    MlirOperation sh = ttInsert(&l->b, ttOpCreate("gpu.shuffle", l->loc, 3, ops, 2, rts, 1,
                                                  &xorMode, 0, NULL));
    v = build(l, arith, 2, (MlirValue[]){v, mlirOperationGetResult(sh, 0)}, t, 0, NULL);
  }
  int64_t warps = l->T / 32;
  if (warps > 1) {
    MlirValue base = scratch(l);
    MlirValue warp = build(l, "arith.divui", 2, (MlirValue[]){l->tid, width}, i32, 0, NULL);
    MlirValue lane = build(l, "arith.remui", 2, (MlirValue[]){l->tid, width}, i32, 0, NULL);
    MlirNamedAttribute eq = ttNamedAttr(l->ctx, "predicate",
                                        ttIntAttr(l->ctx, 0, mlirIntegerTypeGet(l->ctx, 64)));
    MlirValue first = build(l, "arith.cmpi", 2,
                            (MlirValue[]){lane, ttConstInt(&l->b, l->loc, i32, 0)},
                            mlirIntegerTypeGet(l->ctx, 1), 1, &eq);
    build(l, "gpu.barrier", 0, NULL, ttNoType(), 0, NULL);
    MlirOperation ifOp = buildIf(l, first, ttNoType());
    TtBuilder saved = l->b;
    l->b = ttBuilderAtEnd(ifBlock(ifOp, 0));
    build(l, "llvm.store", 2, (MlirValue[]){v, gep(l, base, warp, t)}, ttNoType(), 0, NULL);
    yield(l, ifBlock(ifOp, 0), (MlirValue){NULL});
    yield(l, ifBlock(ifOp, 1), (MlirValue){NULL});
    l->b = saved;
    build(l, "gpu.barrier", 0, NULL, ttNoType(), 0, NULL);
    for (int64_t w = 0; w < warps; w++) {
      MlirValue p = gep(l, base, ttConstInt(&l->b, l->loc, i32, w), t);
      MlirValue y = build(l, "llvm.load", 1, &p, t, 0, NULL);
      v = w == 0 ? y : build(l, arith, 2, (MlirValue[]){v, y}, t, 0, NULL);
    }
  }
  Lowered *out = define(l, res);
  out->parts[0] = v;
  return true;
}

static bool lowerOp(Lower *l, MlirOperation op);

/* The lowered parts of values vals[0..n) in order (REPS per tile, one per scalar) into
 * out (room for n * MAX_REPS); returns how many, or -1 when one is not lowered. */
static intptr_t flatten(Lower *l, intptr_t n, const MlirValue *vals, MlirValue *out) {
  intptr_t k = 0;
  for (intptr_t i = 0; i < n; i++) {
    Lowered *x = lookup(l, vals[i]);
    if (!x)
      return -1;
    for (int r = 0; r < (isTile(vals[i]) ? l->REPS : 1); r++)
      out[k++] = x->parts[r];
  }
  return k;
}

/* Binds values keys[0..n) to consecutive lowered values parts (REPS per tile). */
static void bind(Lower *l, intptr_t n, const MlirValue *keys, const MlirValue *parts) {
  intptr_t k = 0;
  for (intptr_t i = 0; i < n; i++) {
    Lowered *x = define(l, keys[i]);
    for (int r = 0; r < (isTile(keys[i]) ? l->REPS : 1); r++)
      x->parts[r] = parts[k++];
  }
}

/* Step 2 for scf.for (a loop over a row's chunks): the same loop, each tile it carries
 * becoming REPS carried vectors, its body lowered op by op into the new body. The
 * induction variable's divisibility is that of its start and step. */
static bool lowerFor(Lower *l, MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op) - 3, ninits = 0;
  MlirValue *vals = ttAlloc(sizeof(MlirValue) * (size_t)(n + 3));
  MlirValue *flat = ttAlloc(sizeof(MlirValue) * (size_t)(n * MAX_REPS + 3));
  for (intptr_t i = 0; i < n + 3; i++)
    vals[i] = mlirOperationGetOperand(op, i);
  bool ok = flatten(l, 3, vals, flat) == 3 && (ninits = flatten(l, n, vals + 3, flat + 3)) >= 0;
  if (!ok) {
    ttEmitError(op, "convert-tile-to-gpu: an operand of scf.for is not lowered");
    free(vals);
    free(flat);
    return false;
  }
  MlirOperation loop = ttBuildFor(&l->b, l->loc, flat[0], flat[1], flat[2], ninits, flat + 3);
  MlirBlock tbody = ttForBody(op), gbody = ttForBody(loop);
  Lowered *iv = define(l, mlirBlockGetArgument(tbody, 0));
  iv->parts[0] = mlirBlockGetArgument(gbody, 0);
  iv->axis.div = gcd64(lookup(l, vals[0])->axis.div, lookup(l, vals[2])->axis.div);
  for (intptr_t i = 0; i < n; i++)
    vals[i] = mlirBlockGetArgument(tbody, i + 1);
  for (intptr_t i = 0; i < ninits; i++)
    flat[i] = mlirBlockGetArgument(gbody, i + 1);
  bind(l, n, vals, flat);
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
    bind(l, n, vals, flat);
  free(vals);
  free(flat);
  return ok;
}

/* Step 2 for one op of the kernel body. */
static bool lowerOp(Lower *l, MlirOperation op) {
  if (ttOpIs(op, "tile.program_id") || ttOpIs(op, "tile.num_programs")) {
    int64_t axis = ttOpAttrInt(op, "axis", 0);
    Lowered *x = define(l, mlirOperationGetResult(op, 0));
    x->parts[0] = gpuIndex(l, ttOpIs(op, "tile.program_id") ? "gpu.block_id" : "gpu.grid_dim",
                           axis);
    return true;
  }
  if (ttOpIs(op, "tile.range")) {
    int64_t start = ttOpAttrInt(op, "start", 0);
    Lowered *x = define(l, mlirOperationGetResult(op, 0));
    MlirType vt = vecOf(l, ttI32(l->ctx));
    MlirValue base = build(l, "vector.broadcast", 1, &l->tid, vt, 0, NULL);
    MlirValue vecs = ttConstInt(&l->b, l->loc, vt, l->VEC);
    MlirValue ops[2] = {base, vecs};
    base = build(l, "arith.muli", 2, ops, vt, 0, NULL);
    for (int r = 0; r < l->REPS; r++) {
      MlirAttribute lanes[64];
      for (int64_t j = 0; j < l->VEC; j++)
        lanes[j] = mlirIntegerAttrGet(ttI32(l->ctx), start + r * l->VEC * l->T + j);
      MlirNamedAttribute va =
          ttNamedAttr(l->ctx, "value", mlirDenseElementsAttrGet(vt, l->VEC, lanes));
      MlirValue c = build(l, "arith.constant", 0, NULL, vt, 1, &va);
      MlirValue sum[2] = {base, c};
      x->parts[r] = build(l, "arith.addi", 2, sum, vt, 0, NULL);
    }
    int64_t len = ttOpAttrInt(op, "end", 0) - start;
    x->axis = (Axis){gcd64(len, pow2Div(start)), 1, pow2Div(start)};
    return true;
  }
  if (ttOpIs(op, "tile.splat")) {
    Lowered *s = lookup(l, mlirOperationGetOperand(op, 0));
    Lowered *x = define(l, mlirOperationGetResult(op, 0));
    MlirType elem = mlirShapedTypeGetElementType(mlirValueGetType(mlirOperationGetResult(op, 0)));
    MlirValue v = build(l, "vector.broadcast", 1, &s->parts[0], vecOf(l, elem), 0, NULL);
    for (int r = 0; r < l->REPS; r++)
      x->parts[r] = v;
    x->axis = (Axis){1, l->B, s->axis.div};
    return true;
  }
  if (ttOpIs(op, "tile.reduce"))
    return lowerReduce(l, op);
  if (ttOpIs(op, "scf.for"))
    return lowerFor(l, op);
  if (ttOpIs(op, "tile.load") || ttOpIs(op, "tile.store")) {
    lowerMemory(l, op, ttOpIs(op, "tile.store"));
    return true;
  }
  if (ttOpIs(op, "func.return")) {
    build(l, "gpu.return", 0, NULL, ttNoType(), 0, NULL);
    return true;
  }
  if (ttOpHasPrefix(op, "arith.") || ttOpHasPrefix(op, "math."))
    return lowerGeneric(l, op);
  char name[64];
  ttEmitError(op, "convert-tile-to-gpu: cannot lower '%s' yet", ttOpName(op, name, sizeof name));
  return false;
}

/* What scanKernel finds. */
typedef struct {
  int64_t minBytes, tileSize;
  bool failed;
} Scan;

static bool scanOp(MlirOperation op, void *userData) {
  Scan *sc = userData;
  intptr_t n = mlirOperationGetNumResults(op);
  for (intptr_t i = 0; i < n + mlirOperationGetNumOperands(op); i++) {
    MlirValue v = i < n ? mlirOperationGetResult(op, i) : mlirOperationGetOperand(op, i - n);
    MlirType t = mlirValueGetType(v);
    if (!mlirTypeIsARankedTensor(t))
      continue;
    int64_t shape[8];
    if (ttTensorShape(t, shape) != 1) {
      ttEmitError(op, "convert-tile-to-gpu: only 1-D tiles are supported yet");
      sc->failed = true;
      return false;
    }
    if (sc->tileSize && sc->tileSize != shape[0]) {
      ttEmitError(op, "convert-tile-to-gpu: tiles of sizes %lld and %lld in one kernel",
                  (long long)sc->tileSize, (long long)shape[0]);
      sc->failed = true;
      return false;
    }
    sc->tileSize = shape[0];
  }
  /* the data of a load (its result) or store (operand 2), not offsets or masks */
  MlirValue data = ttOpIs(op, "tile.load")    ? mlirOperationGetResult(op, 0)
                   : ttOpIs(op, "tile.store") ? mlirOperationGetOperand(op, 2)
                                              : (MlirValue){NULL};
  int bytes = mlirValueIsNull(data) ? 0 : ttDtypeBytes(mlirValueGetType(data));
  if (bytes > 0 && bytes < sc->minBytes)
    sc->minBytes = bytes;
  return true;
}

/* The narrowest element (bytes) loaded or stored, and the tile size, over the kernel and
 * the loops in it; false on a tile that is not 1-D or whose size differs from the others. */
static bool scanKernel(MlirOperation func, int64_t *minBytes, int64_t *tileSize) {
  Scan sc = {16, 0, false};
  ttWalk(func, scanOp, &sc);
  *minBytes = sc.minBytes;
  *tileSize = sc.tileSize;
  return !sc.failed;
}

static MlirOperation gpuModule(MlirModule module) {
  MlirOperation gm = ttModuleLookup(module, "tt_kernels");
  if (!mlirOperationIsNull(gm))
    return gm;
  MlirContext ctx = mlirModuleGetContext(module);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, mlirBlockCreate(0, NULL, NULL));
  MlirNamedAttribute name = ttNamedAttr(ctx, "sym_name", ttStrAttr(ctx, "tt_kernels"));
  gm = ttOpCreate("gpu.module", mlirLocationUnknownGet(ctx), 0, NULL, 0, NULL, 1, &name, 1,
                  &region);
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(module), gm);
  mlirOperationSetAttributeByName(mlirModuleGetOperation(module),
                                  ttStrRef("gpu.container_module"), mlirUnitAttrGet(ctx));
  return gm;
}

/* Steps 1-3 for one kernel. */
static bool lowerKernel(MlirModule module, MlirOperation func) {
  MlirContext ctx = mlirOperationGetContext(func);
  Lower l = {0};
  l.ctx = ctx;
  l.loc = mlirOperationGetLocation(func);
  int64_t minBytes, B, warps = ttOpAttrInt(func, "tile.num_warps", 4);
  MlirRegion fr = mlirOperationGetRegion(func, 0);
  if (mlirBlockIsNull(mlirRegionGetFirstBlock(fr)) ||
      !mlirBlockIsNull(mlirBlockGetNextInRegion(mlirRegionGetFirstBlock(fr)))) {
    ttEmitError(func, "convert-tile-to-gpu: a tile kernel must have a body of one block");
    return false;
  }
  if (warps < 1 || warps > 32) {
    ttEmitError(func, "convert-tile-to-gpu: tile.num_warps = %lld is out of range (1 to 32)",
                (long long)warps);
    return false;
  }
  if (!scanKernel(func, &minBytes, &B))
    return false;
  l.T = 32 * warps;
  l.B = B ? B : l.T;
  l.VEC = 16 / minBytes;
  if (l.VEC * l.T > l.B)
    l.VEC = l.B / l.T;
  if (l.VEC < 1 || l.B % (l.VEC * l.T) != 0 || l.B / (l.VEC * l.T) > MAX_REPS) {
    ttEmitError(func, "convert-tile-to-gpu: tile size %lld does not fit %lld threads "
                      "(it must be a multiple of 32 * num_warps, with at most %d runs of "
                      "16 bytes per thread)",
                (long long)l.B, (long long)l.T, MAX_REPS);
    return false;
  }
  l.REPS = l.B / (l.VEC * l.T);

  /* Step 1: the gpu.func. */
  MlirBlock tbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  intptr_t nargs = mlirBlockGetNumArguments(tbody);
  MlirType *types = ttAlloc(sizeof(MlirType) * (size_t)(nargs ? nargs : 1));
  MlirLocation *locs = ttAlloc(sizeof(MlirLocation) * (size_t)(nargs ? nargs : 1));
  MlirType gptr = mlirTypeParseGet(ctx, ttStrRef("!llvm.ptr<1>"));
  for (intptr_t i = 0; i < nargs; i++) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(tbody, i));
    types[i] = mlirTypeIsAInteger(t) || mlirTypeIsAFloat(t) ? t : gptr;
    locs[i] = l.loc;
  }
  MlirRegion region = mlirRegionCreate();
  MlirBlock body = mlirBlockCreate(nargs, types, locs);
  mlirRegionAppendOwnedBlock(region, body);
  MlirAttribute symName = ttOpAttr(func, "sym_name");
  int32_t bs[3] = {(int32_t)l.T, 1, 1};
  MlirNamedAttribute attrs[5] = {
      ttNamedAttr(ctx, "sym_name", symName),
      ttNamedAttr(ctx, "function_type",
                  mlirTypeAttrGet(mlirFunctionTypeGet(ctx, nargs, types, 0, NULL))),
      ttNamedAttr(ctx, "gpu.kernel", mlirUnitAttrGet(ctx)),
      ttNamedAttr(ctx, "known_block_size", mlirDenseI32ArrayGet(ctx, 3, bs)),
      ttNamedAttr(ctx, "nvvm.minctasm", ttIntAttr(ctx, ctasPerSm(&l), ttI32(ctx))),
  };
  MlirOperation gfunc = ttOpCreate("gpu.func", l.loc, 0, NULL, 0, NULL, 5, attrs, 1, &region);
  l.gpuModule = gpuModule(module);
  mlirBlockAppendOwnedOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(l.gpuModule, 0)),
                                gfunc);
  for (intptr_t i = 0; i < nargs; i++) {
    Lowered *x = define(&l, mlirBlockGetArgument(tbody, i));
    x->parts[0] = mlirBlockGetArgument(body, i);
  }
  free(types);
  free(locs);

  /* Step 2. */
  l.b = ttBuilderAtEnd(body);
  l.tid = gpuIndex(&l, "gpu.thread_id", 0);
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(tbody); ok && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    ok = lowerOp(&l, op);
  for (int i = 0; i < l.nvals; i++)
    free(l.vals[i]);
  free(l.vals);
  if (!ok)
    mlirOperationDestroy(gfunc);
  return ok;
}

bool ttConvertTileToGpu(MlirModule module, const TtPassOptions *opts) {
  (void)opts;
  MlirBlock body = mlirModuleGetBody(module);
  MlirOperation op = mlirBlockGetFirstOperation(body);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (ttOpIs(op, "func.func") && !mlirAttributeIsNull(ttOpAttr(op, "tile.kernel"))) {
      if (!lowerKernel(module, op))
        return false;
      mlirOperationDestroy(op); /* step 4 */
    }
    op = next;
  }
  return true;
}
