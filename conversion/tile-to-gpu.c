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
 *     tile.atomic_add is a store that adds: on the fast path from sm=90 vector reds of 16
 *     bytes (atomicRun), else one atomic per lane.
 *  4. Erase the tile kernel.
 * Dot kernels add steps stated at their sections below: 5, tile.dot on tensor cores
 * (mma.sync; 5w, warpgroup MMA for mma=wgmma); 6, shared-memory rings and cp.async; 7,
 * TMA copies and mbarriers (the hopper ops of --pipeline stage-in=tma).
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
  int n;                     /* parts used */
  Axis axis;
  MlirOperation def; /* the tile op that defined key (null for arguments) */
  /* tile.dot's layouts (step 5): an accumulator held as mma.sync fragments (parts are
   * vector<4xf32>, one per 16x8 fragment, see MmaLayout) of an mmaM x mmaN tile; or a
   * transposed view (tile.trans) of a tile held in the flat layout of its operand. */
  bool mma, trans;
  bool wg; /* mma in wgmma's layout (step 5w) */
  int64_t mmaM, mmaN;
  /* Shared memory (step 6): a tile.local_alloc ring (sbuf, its row pitch ld and slot size
   * in elements), or a tile held there (tile.local_load; parts[0] is the i32 element
   * offset of its first row in sbuf). */
  bool shared;
  bool swz; /* a ring (or a slot of one) that TMA fills: 5w's swizzled layout, unpadded */
  MlirValue sbuf;
  int64_t ld, slotElems;
} Lowered;

typedef struct {
  MlirContext ctx;
  MlirLocation loc;
  TtBuilder b;
  int64_t T, VEC, REPS; /* REPS: the most any tile of the kernel has */
  MlirValue tid; /* i32 thread index */
  MlirOperation gpuModule; /* where the kernel goes (and its shared-memory scratch) */
  Lowered **vals; /* each allocated alone: pointers stay valid as the table grows */
  int nvals, capvals;
  char smemName[160];  /* the kernel's shared-memory buffer (tile.dot), made at the end */
  int64_t smemBytes;
  /* tile.local_alloc rings sit in that buffer below ringTop; scratch goes above them
   * while they live, from 0 once they are drained for good (step 6) */
  int64_t ringTop;
  bool ringsDead;
  bool wgmma;      /* mma=wgmma: tile.dot on warpgroup MMA where the tile fits (5w) */
  int64_t sm;      /* the target's compute capability (option sm): vector reds from 90 */
  bool smemAlign;  /* the buffer holds swizzled wgmma operands: align it to 1024 bytes */
  bool dynamic;    /* the buffer is dynamic shared memory (TMA rings: past 48 KiB) */
  bool pdl;        /* the kernel has a hopper.griddep_wait: its launch may be early */
  MlirValue base;  /* with dynamic: the buffer's start, rounded up to 1024 bytes */
  int nbars;       /* mbarrier groups made so far (each a shared global) */
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

static bool isTile(MlirValue v) { return mlirTypeIsARankedTensor(mlirValueGetType(v)); }

/* Parts of value v in the flat layout: numel / (VEC * T) for a tile, 1 for a scalar. */
static int repsOf(Lower *l, MlirValue v) {
  return isTile(v) ? (int)(ttTensorNumel(mlirValueGetType(v)) / (l->VEC * l->T)) : 1;
}

static Lowered *define(Lower *l, MlirValue key) {
  if (l->nvals == l->capvals) {
    l->capvals = l->capvals ? 2 * l->capvals : 64;
    l->vals = ttRealloc(l->vals, sizeof(Lowered *) * (size_t)l->capvals);
  }
  Lowered *x = ttAlloc(sizeof(Lowered));
  l->vals[l->nvals++] = x;
  x->key = key;
  x->n = repsOf(l, key);
  x->axis = (Axis){1, 1, 1};
  if (mlirValueIsAOpResult(key))
    x->def = mlirOpResultGetOwner(key);
  return x;
}

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
static MlirNamedAttribute alignAttr(Lower *l, int64_t bytes);

/* What the llvm dialect holds a value of type t as: t, with fp8 elements (which LLVM has
 * no type for) as i8 - the type arith-to-llvm gives them too. */
static MlirType llvmStorage(Lower *l, MlirType t) {
  if (!ttTypeIsFp8(t))
    return t;
  MlirType i8 = mlirIntegerTypeGet(l->ctx, 8);
  return mlirTypeIsAVector(t) ? vecOf(l, i8) : i8;
}

/* llvm.load of a `t` (alignment `align` bytes, 0: natural); fp8 loads its storage type
 * and casts back. */
static MlirValue load(Lower *l, MlirValue p, MlirType t, int64_t align) {
  MlirType st = llvmStorage(l, t);
  MlirNamedAttribute a = alignAttr(l, align);
  MlirValue v = build(l, "llvm.load", 1, &p, st, align ? 1 : 0, &a);
  return mlirTypeEqual(st, t) ? v : build(l, "arith.bitcast", 1, &v, t, 0, NULL);
}

static MlirValue gep(Lower *l, MlirValue ptr, MlirValue off, MlirType elem) {
  int32_t dyn = INT32_MIN;
  MlirNamedAttribute attrs[2] = {
      ttNamedAttr(l->ctx, "elem_type", mlirTypeAttrGet(llvmStorage(l, elem))),
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
    yield(l, ifBlock(ifOp, 0), load(l, p, elem, 0));
    l->b = ttBuilderAtEnd(ifBlock(ifOp, 1));
    MlirValue o = extract(l, other, i);
    yield(l, ifBlock(ifOp, 1), o);
    l->b = saved;
    acc = insert(l, mlirOperationGetResult(ifOp, 0), acc, i);
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
  build(l, "llvm.atomicrmw", 2, (MlirValue[]){p, x}, mlirValueGetType(x), 2, attrs);
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
  if (l->sm < 90 || !kind || chunk % 4) {
    for (int64_t i = 0; i < l->VEC; i++)
      atomicAdd(l, gep(l, p, lane0Plus(l, offs, i), elem), extract(l, run, i));
    return;
  }
  int64_t words = chunk / 4, all = bytes / 4;
  MlirValue packed = run; /* the run as 32-bit words */
  if (!mlirTypeIsAF32(elem))
    packed = build(l, "vector.bitcast", 1, &run, mlirVectorTypeGet(1, &all, ttI32(l->ctx)), 0, NULL);
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
    MlirValue ops[5] = {gep(l, p, lane0Plus(l, offs, w * 4 / eb), elem)};
    for (int64_t i = 0; i < words; i++)
      ops[1 + i] = extract(l, packed, w + i);
    build(l, "nvvm.inline_ptx", words + 1, ops, ttNoType(), 2, attrs);
  }
}

/* Stores (or atomically adds) lane by lane under the mask. */
static void storeLanes(Lower *l, MlirValue ptr, const Lanes *s, MlirValue value,
                       MlirType elem, bool atomic) {
  for (int64_t i = 0; i < l->VEC; i++) {
    MlirOperation ifOp = buildIf(l, laneMask(l, s, i), ttNoType());
    TtBuilder saved = l->b;
    l->b = ttBuilderAtEnd(ifBlock(ifOp, 0));
    MlirValue ops[2] = {extract(l, value, i), gep(l, ptr, laneOffset(l, s, i), elem)};
    if (atomic)
      atomicAdd(l, ops[1], ops[0]);
    else
      build(l, "llvm.store", 2, ops, ttNoType(), 0, NULL);
    yield(l, ifBlock(ifOp, 0), (MlirValue){NULL});
    yield(l, ifBlock(ifOp, 1), (MlirValue){NULL});
    l->b = saved;
  }
}

/* Step 3 for tile.load (isStore false), tile.store and tile.atomic_add (the fast path:
 * atomicRun's vector reds from sm=90, else one atomic per lane without per-lane mask
 * tests). */
static void lowerMemory(Lower *l, MlirOperation op, bool isStore) {
  bool atomic = ttOpIs(op, "tile.atomic_add");
  Lowered *ptr = lookup(l, mlirOperationGetOperand(op, 0));
  Lowered *offs = lookup(l, mlirOperationGetOperand(op, 1));
  Lowered *data = lookup(l, mlirOperationGetOperand(op, isStore ? 2 : 3));
  Lowered *mask = lookup(l, mlirOperationGetOperand(op, isStore ? 3 : 2));
  MlirType tileType = mlirValueGetType(mlirOperationGetOperand(op, isStore ? 2 : 3));
  MlirType elem = mlirShapedTypeGetElementType(tileType);
  MlirType vt = vecOf(l, elem);
  int64_t bytes = l->VEC * ttDtypeBytes(elem);
  Lowered *res = isStore ? NULL : define(l, mlirOperationGetResult(op, 0));
  for (int r = 0; r < data->n; r++) {
    Lanes s = lanesOf(l, offs, mask, r);
    MlirValue d = data->parts[r];
    if (!s.contig) {
      if (isStore)
        storeLanes(l, ptr->parts[0], &s, d, elem, atomic);
      else
        res->parts[r] = loadLanes(l, ptr->parts[0], &s, d, elem);
      continue;
    }
    MlirOperation ifOp = buildIf(l, allLanesOn(l, &s, mask), isStore ? ttNoType() : vt);
    TtBuilder saved = l->b;
    l->b = ttBuilderAtEnd(ifBlock(ifOp, 0));
    MlirValue p = gep(l, ptr->parts[0], extract(l, s.offs, 0), elem);
    MlirNamedAttribute align = alignAttr(l, bytes < 16 ? bytes : 16);
    if (atomic) {
      atomicRun(l, ptr->parts[0], s.offs, d, elem);
      yield(l, ifBlock(ifOp, 0), (MlirValue){NULL});
    } else if (isStore) {
      MlirValue ops[2] = {d, p};
      build(l, "llvm.store", 2, ops, ttNoType(), 1, &align);
      yield(l, ifBlock(ifOp, 0), (MlirValue){NULL});
    } else {
      yield(l, ifBlock(ifOp, 0), load(l, p, vt, bytes < 16 ? bytes : 16));
    }
    l->b = ttBuilderAtEnd(ifBlock(ifOp, 1));
    if (isStore) {
      if (mask->axis.constancy < l->VEC)
        storeLanes(l, ptr->parts[0], &s, d, elem, atomic);
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
  Axis x = a->axis, y = b ? b->axis : (Axis){1, BIG_DIV, 1};
  out.constancy = gcd64(x.constancy, y.constancy);
  if (strcmp(name, "arith.addi") == 0) {
    out.contig = maxI(gcd64(gcd64(x.contig, y.constancy), y.div),
                      gcd64(gcd64(y.contig, x.constancy), x.div));
    out.div = gcd64(x.div, y.div);
  } else if (strcmp(name, "arith.muli") == 0) {
    out.div = x.div * y.div < BIG_DIV ? x.div * y.div : BIG_DIV;
  } else if (strcmp(name, "arith.remui") == 0 || strcmp(name, "arith.remsi") == 0) {
    if (y.constancy >= BIG_DIV) {
      out.contig = gcd64(x.contig, y.div);
      out.div = gcd64(x.div, y.div);
    }
  } else if (strcmp(name, "arith.divui") == 0 || strcmp(name, "arith.divsi") == 0) {
    if (y.constancy >= BIG_DIV)
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
      for (int r = 0; r < out->n; r++)
        out->parts[r] = c;
      out->axis = (Axis){1, BIG_DIV, mlirAttributeIsAInteger(s) ? pow2Div(mlirIntegerAttrGetValueInt(s)) : 1};
    } else {
      out->parts[0] = mlirOperationGetResult(ttInsert(&l->b, mlirOperationClone(op)), 0);
      if (mlirAttributeIsAInteger(v))
        out->axis.div = pow2Div(mlirIntegerAttrGetValueInt(v));
    }
    return true;
  }
  int reps = out->n;
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
      /* a scalar operand (e.g. arith.select's i1 condition) has one part for every rep */
      ops[k] = x->parts[tile && isTile(mlirOperationGetOperand(op, k)) ? r : 0];
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

/* Makes `llvm.mlir.global internal @name : !llvm.array<bytes x i8>` in shared memory
 * (address space 3, `align`-byte aligned) in the gpu.module, unless it exists; external
 * with 0 bytes: the kernel's dynamic shared memory. */
static void sharedGlobal(Lower *l, const char *name, int64_t bytes, int64_t align,
                         bool external) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(l->gpuModule, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    char have[160] = "";
    if (ttOpAttrStr(op, "sym_name", have, sizeof have) && strcmp(have, name) == 0)
      return;
  }
  char type[64];
  snprintf(type, sizeof type, "!llvm.array<%lld x i8>", (long long)bytes);
  MlirNamedAttribute attrs[5] = {
      ttNamedAttr(l->ctx, "sym_name", ttStrAttr(l->ctx, name)),
      ttNamedAttr(l->ctx, "global_type", mlirTypeAttrGet(mlirTypeParseGet(l->ctx, ttStrRef(type)))),
      ttNamedAttr(l->ctx, "linkage", mlirAttributeParseGet(l->ctx, ttStrRef(
                                         external ? "#llvm.linkage<external>" : "#llvm.linkage<internal>"))),
      ttNamedAttr(l->ctx, "addr_space", ttIntAttr(l->ctx, 3, ttI32(l->ctx))),
      alignAttr(l, align),
  };
  MlirRegion init = mlirRegionCreate();
  MlirOperation g = ttOpCreate("llvm.mlir.global", l->loc, 0, NULL, 0, NULL, 5, attrs, 1, &init);
  mlirBlockInsertOwnedOperation(body, 0, g);
}

/* The address of shared-memory global `name`. */
static MlirValue sharedAddress(Lower *l, const char *name) {
  MlirNamedAttribute ref =
      ttNamedAttr(l->ctx, "global_name", mlirFlatSymbolRefAttrGet(l->ctx, ttStrRef(name)));
  return build(l, "llvm.mlir.addressof", 0, NULL,
               mlirTypeParseGet(l->ctx, ttStrRef("!llvm.ptr<3>")), 1, &ref);
}

/* A pointer to the kernels' shared-memory scratch: one f32 per warp (at most 32), a
 * global in the gpu.module, made once. */
#define SCRATCH_NAME "__tt_reduce_scratch"
static MlirValue scratch(Lower *l) {
  sharedGlobal(l, SCRATCH_NAME, 32 * 4, 16, false);
  return sharedAddress(l, SCRATCH_NAME);
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
  for (int r = 1; r < x->n; r++)
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

/* Step 5: tile.dot on tensor cores ------------------------------------------------------
 * C (M x N, f32) += A (M x K) @ B (K x N), f16 or bf16, with mma.sync.m16n8k16 (sm_80+):
 *  a. The operands arrive in the flat layout (each thread holds runs of VEC elements of
 *     the row-major tile). Each thread stores its runs to shared memory, A as [M][K + 8]
 *     and B as [N][K + 8] (a tile.trans of an [N, K] load: K contiguous, what mma's "col"
 *     B operand wants) or [K][N + 8]. The 8-element pad shifts each row by 16 bytes, so
 *     the 8 row addresses of an ldmatrix fall in 8 different 4-bank groups: no bank
 *     conflicts (and the 16-byte stores of a warp's runs cover distinct banks too).
 *  b. Warps split the C tile WM x WN (MmaLayout); each warp owns MT x NT fragments of
 *     16 x 8, held as its accumulator: four f32 per thread per fragment (thread lane
 *     holds rows lane/4 and lane/4 + 8, columns 2 (lane % 4) and + 1). Per 16 of K: one
 *     ldmatrix.x4 per 16-row A fragment, one ldmatrix.x4 (.trans for a [K][N] B) per two
 *     8-column B fragments, then MT x NT mma.sync.
 *  c. The accumulator stays in fragments across the K loop (scf.for carries MT x NT
 *     vector<4xf32>); a zero tile.splat/constant start is made as fragments directly.
 *     The first use that is not a dot moves it to the flat layout through shared memory
 *     ([M][N + 4] f32). Barriers guard each reuse of the buffer. */

typedef struct {
  int64_t wm, wn, mt, nt;
} MmaLayout;

/* Warps over an m x n accumulator: split M while the warp tile is taller than wide. */
static MmaLayout mmaLayout(Lower *l, int64_t m, int64_t n) {
  int64_t warps = l->T / 32, wm = 1;
  while (wm * 2 <= warps && m / (wm * 2) >= 16 && m / wm > n / (warps / wm))
    wm *= 2;
  MmaLayout y = {wm, warps / wm, m / wm / 16, n / (warps / wm) / 8};
  return y;
}

static MlirValue ci(Lower *l, int64_t v) { return ttConstInt(&l->b, l->loc, ttI32(l->ctx), v); }

/* i32 scalar `a name b` (b a constant). */
static MlirValue arc(Lower *l, const char *name, MlirValue a, int64_t b) {
  return build(l, name, 2, (MlirValue[]){a, ci(l, b)}, ttI32(l->ctx), 0, NULL);
}

static MlirValue ar(Lower *l, const char *name, MlirValue a, MlirValue b) {
  return build(l, name, 2, (MlirValue[]){a, b}, ttI32(l->ctx), 0, NULL);
}

/* The start of the kernel's shared-memory buffer (dynamic: computed at the kernel's entry). */
static MlirValue smemBase(Lower *l) {
  return l->dynamic ? l->base : sharedAddress(l, l->smemName);
}

/* A pointer to `bytes` of scratch in the kernel's shared-memory buffer (step 5), past the
 * live rings of step 6, `align`-byte aligned within the buffer. */
static MlirValue smem(Lower *l, int64_t bytes, int64_t align) {
  int64_t at = l->ringsDead ? 0 : (l->ringTop + align - 1) / align * align;
  if (at + bytes > l->smemBytes)
    l->smemBytes = at + bytes;
  MlirValue base = smemBase(l);
  return at ? gep(l, base, ci(l, at), mlirIntegerTypeGet(l->ctx, 8)) : base;
}

static void barrier(Lower *l) { build(l, "gpu.barrier", 0, NULL, ttNoType(), 0, NULL); }

/* The row and column of the first element of thread run r in a flat tile of `cols`
 * columns: e = (r * T + tid) * VEC, row = e / cols, col = e % cols. */
static void runAt(Lower *l, int r, int64_t cols, MlirValue *row, MlirValue *col) {
  MlirValue e = arc(l, "arith.addi", arc(l, "arith.muli", l->tid, l->VEC), r * l->T * l->VEC);
  *row = arc(l, "arith.divui", e, cols);
  *col = arc(l, "arith.remui", e, cols);
}

/* Lanes at..at+1 of vector v as a 2-lane vector of type t. */
static MlirValue slice2(Lower *l, MlirValue v, int64_t at, MlirType t) {
  MlirType i64 = mlirIntegerTypeGet(l->ctx, 64);
  MlirAttribute offset = mlirIntegerAttrGet(i64, at), size = mlirIntegerAttrGet(i64, 2),
                stride = mlirIntegerAttrGet(i64, 1);
  MlirNamedAttribute attrs[3] = {
      ttNamedAttr(l->ctx, "offsets", mlirArrayAttrGet(l->ctx, 1, &offset)),
      ttNamedAttr(l->ctx, "sizes", mlirArrayAttrGet(l->ctx, 1, &size)),
      ttNamedAttr(l->ctx, "strides", mlirArrayAttrGet(l->ctx, 1, &stride)),
  };
  return build(l, "vector.extract_strided_slice", 1, &v, t, 3, attrs);
}

/* A run of VEC fp8 elements widened to VEC f16, exactly (every E4M3 and E5M2 value is an
 * f16): cvt.rn.f16x2.{e4m3,e5m2}x2 (sm_89+) on each pair. */
static MlirValue widenFp8(Lower *l, MlirValue run, MlirType fp8) {
  MlirType i8 = mlirIntegerTypeGet(l->ctx, 8), f16 = mlirF16TypeGet(l->ctx);
  int64_t two = 2;
  MlirType pairI8 = mlirVectorTypeGet(1, &two, i8), pairF16 = mlirVectorTypeGet(1, &two, f16);
  MlirValue bytes = build(l, "arith.bitcast", 1, &run, vecOf(l, i8), 0, NULL);
  MlirValue out = build(l, "llvm.mlir.poison", 0, NULL, vecOf(l, f16), 0, NULL);
  MlirNamedAttribute kind = ttNamedAttr(l->ctx, "srcType", mlirTypeAttrGet(fp8));
  for (int64_t i = 0; i < l->VEC; i += 2) {
    MlirValue pair = slice2(l, bytes, i, pairI8);
    MlirValue h = build(l, "nvvm.convert.f8x2.to.f16x2", 1, &pair, pairF16, 1, &kind);
    out = insert(l, extract(l, h, 0), out, i);
    out = insert(l, extract(l, h, 1), out, i + 1);
  }
  return out;
}

/* Step 5a: stores flat tile x ([rows][cols] of elem) to shared memory at element `base`
 * (fp8 widened to f16: the buffer then holds f16): with row pitch `ld`, or when swizzled
 * in 5w's 128-byte swizzled layout of 64-column blocks of `ld` rows each. */
static void stageTile(Lower *l, MlirValue buf, Lowered *x, int64_t cols, int64_t base,
                      int64_t ld, bool swizzled, MlirType elem) {
  bool fp8 = ttTypeIsFp8(elem);
  MlirType stored = fp8 ? mlirF16TypeGet(l->ctx) : elem;
  for (int r = 0; r < x->n; r++) {
    MlirValue row, col;
    runAt(l, r, cols, &row, &col);
    MlirValue off;
    if (swizzled) { /* (col / 64) ld 64 + row 64 + ((col % 64 / 8) ^ (row % 8)) 8 */
      MlirValue c8 = arc(l, "arith.andi", arc(l, "arith.shrui", col, 3), 7);
      MlirValue chunk = ar(l, "arith.xori", c8, arc(l, "arith.andi", row, 7));
      off = ar(l, "arith.addi", arc(l, "arith.muli", arc(l, "arith.shrui", col, 6), ld * 64),
               ar(l, "arith.addi", arc(l, "arith.muli", row, 64), arc(l, "arith.muli", chunk, 8)));
    } else
      off = ar(l, "arith.addi", arc(l, "arith.muli", row, ld), col);
    MlirValue p = gep(l, buf, arc(l, "arith.addi", off, base), stored);
    MlirValue v = fp8 ? widenFp8(l, x->parts[r], elem) : x->parts[r];
    MlirNamedAttribute align = alignAttr(l, 16);
    build(l, "llvm.store", 2, (MlirValue[]){v, p}, ttNoType(), 1, &align);
  }
}

static MlirValue extractValue(Lower *l, MlirValue agg, int64_t i, MlirType t) {
  MlirNamedAttribute pos = ttNamedAttr(l->ctx, "position", mlirDenseI64ArrayGet(l->ctx, 1, &i));
  return build(l, "llvm.extractvalue", 1, &agg, t, 1, &pos);
}

/* ldmatrix of `num` 8x8 b16 matrices from shared memory at element `off` (f16/bf16) of
 * buf, transposed when trans; the num i32 registers go to out. */
static void ldmatrix(Lower *l, MlirValue buf, MlirValue off, int num, bool trans, MlirValue *out) {
  MlirType i32 = ttI32(l->ctx);
  MlirValue p = gep(l, buf, off, mlirF16TypeGet(l->ctx));
  char st[64];
  snprintf(st, sizeof st, "!llvm.struct<(%s)>", num == 4 ? "i32, i32, i32, i32" : "i32, i32");
  MlirNamedAttribute attrs[4] = {
      ttNamedAttr(l->ctx, "num", ttIntAttr(l->ctx, num, i32)),
      ttNamedAttr(l->ctx, "layout", mlirAttributeParseGet(l->ctx, ttStrRef(
                                        trans ? "#nvvm.mma_layout<col>" : "#nvvm.mma_layout<row>"))),
      ttNamedAttr(l->ctx, "shape",
                  mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.ld_st_matrix_shape<m = 8, n = 8>"))),
      ttNamedAttr(l->ctx, "eltType",
                  mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.ld_st_matrix_elt_type<b16>"))),
  };
  MlirValue s = build(l, "nvvm.ldmatrix", 1, &p, mlirTypeParseGet(l->ctx, ttStrRef(st)), 4, attrs);
  for (int i = 0; i < num; i++)
    out[i] = extractValue(l, s, i, i32);
}

/* One mma.sync.m16n8k16 (f32 accumulator): c[0..4) += a[0..4) @ b[0..2). */
static void mma(Lower *l, bool bf16, const MlirValue *a, const MlirValue *b, MlirValue *c) {
  MlirType f32 = mlirF32TypeGet(l->ctx);
  MlirValue ops[10];
  MlirType h2 = mlirTypeParseGet(l->ctx, ttStrRef("vector<2xf16>"));
  for (int i = 0; i < 6; i++) {
    MlirValue x = i < 4 ? a[i] : b[i - 4];
    ops[i] = bf16 ? x : build(l, "llvm.bitcast", 1, &x, h2, 0, NULL);
  }
  for (int i = 0; i < 4; i++)
    ops[6 + i] = c[i];
  const char *ty = bf16 ? "#nvvm.mma_type<bf16>" : "#nvvm.mma_type<f16>";
  MlirNamedAttribute attrs[6] = {
      ttNamedAttr(l->ctx, "layoutA", mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.mma_layout<row>"))),
      ttNamedAttr(l->ctx, "layoutB", mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.mma_layout<col>"))),
      ttNamedAttr(l->ctx, "shape",
                  mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.shape<m = 16, n = 8, k = 16>"))),
      ttNamedAttr(l->ctx, "multiplicandAPtxType", mlirAttributeParseGet(l->ctx, ttStrRef(ty))),
      ttNamedAttr(l->ctx, "multiplicandBPtxType", mlirAttributeParseGet(l->ctx, ttStrRef(ty))),
      ttNamedAttr(l->ctx, "operandSegmentSizes",
                  mlirDenseI32ArrayGet(l->ctx, 3, (const int32_t[]){4, 2, 4})),
  };
  MlirValue r = build(l, "nvvm.mma.sync", 10, ops,
                      mlirTypeParseGet(l->ctx, ttStrRef("!llvm.struct<(f32, f32, f32, f32)>")),
                      6, attrs);
  for (int i = 0; i < 4; i++)
    c[i] = extractValue(l, r, i, f32);
}

static MlirType vec4f32(Lower *l) {
  int64_t four = 4;
  return mlirVectorTypeGet(1, &four, mlirF32TypeGet(l->ctx));
}

/* The vector<4xf32> parts of an M x N wgmma accumulator per thread (5w c). */
static int64_t wgParts(const Lower *l, int64_t m, int64_t n) {
  int64_t warps = l->T / 32;
  return ttWgmmaDirect(m, n, warps) ? n / 8 : n / (warps / 4) / 64 * (m / 8);
}

/* Step 5c: accumulator `key` in fragments; a flat one must be a splat constant (the K
 * loop's start), made as fragments directly. Errors are reported at `at`. */
static Lowered *toMma(Lower *l, MlirOperation at, MlirValue key, int64_t m, int64_t n,
                      bool wg) {
  Lowered *x = lookup(l, key);
  if (x && x->mma && x->wg == wg)
    return x;
  if (x && x->mma) {
    ttEmitError(at, "convert-tile-to-gpu: a tile.dot accumulator comes from a dot of the "
                    "other tensor-core layout (mma.sync and wgmma do not mix)");
    return NULL;
  }
  MlirAttribute v = x && x->def.ptr && ttOpIs(x->def, "arith.constant") ? ttOpAttr(x->def, "value")
                                                                        : mlirAttributeGetNull();
  if (mlirAttributeIsNull(v) || !mlirAttributeIsADenseElements(v) ||
      !mlirDenseElementsAttrIsSplat(v)) {
    ttEmitError(at, "convert-tile-to-gpu: a tile.dot accumulator must start from a splat "
                    "constant or another tile.dot");
    return NULL;
  }
  MlirNamedAttribute va = ttNamedAttr(
      l->ctx, "value",
      mlirDenseElementsAttrSplatGet(vec4f32(l), mlirDenseElementsAttrGetSplatValue(v)));
  MlirValue c = build(l, "arith.constant", 0, NULL, vec4f32(l), 1, &va);
  MmaLayout y = mmaLayout(l, m, n);
  Lowered *out = define(l, key);
  out->mma = true;
  out->wg = wg;
  out->mmaM = m;
  out->mmaN = n;
  out->n = (int)(wg ? wgParts(l, m, n) : y.mt * y.nt);
  for (int i = 0; i < out->n; i++)
    out->parts[i] = c;
  return out;
}

/* The lane-dependent indices of a warp: its warp coordinates and lane. */
typedef struct {
  MlirValue lane, wmI, wnI;
} WarpPos;

static WarpPos warpPos(Lower *l, MmaLayout y) {
  MlirValue warp = arc(l, "arith.divui", l->tid, 32);
  WarpPos w = {arc(l, "arith.remui", l->tid, 32), arc(l, "arith.divui", warp, y.wn),
               arc(l, "arith.remui", warp, y.wn)};
  return w;
}

/* Tile `key` ([rows][cols] of elem at element `base` of buf, row pitch ld) read from
 * shared memory into the flat layout. */
static Lowered *readFlat(Lower *l, MlirValue key, MlirValue buf, MlirValue base, int64_t rows,
                         int64_t cols, int64_t ld, MlirType elem) {
  Lowered *out = define(l, key);
  out->n = (int)(rows * cols / (l->VEC * l->T));
  MlirType vt = vecOf(l, elem);
  for (int r = 0; r < out->n; r++) {
    MlirValue row, col;
    runAt(l, r, cols, &row, &col);
    MlirValue off = ar(l, "arith.addi", arc(l, "arith.muli", row, ld), col);
    MlirValue p = gep(l, buf, ar(l, "arith.addi", base, off), elem);
    MlirNamedAttribute align = alignAttr(l, 16);
    out->parts[r] = build(l, "llvm.load", 1, &p, vt, 1, &align);
  }
  return out;
}

/* Step 5w: tile.dot on warpgroup MMA (mma=wgmma, sm_90a) --------------------------------
 * C (M x N, f32) += A (M x K) @ B (K x N) is computed transposed ("swap AB": C^T = B^T A^T)
 * so that N takes wgmma's 64-row side and M, often 1-16 at decode, its narrow side:
 * wgmma.m64nMk16 with B^T as wgmma's A and A as wgmma's B (both read from shared memory
 * through 64-bit matrix descriptors; fp8 operands in registers are widened to f16 in 5a,
 * fp8 TMA slots run wgmma.m64nMk32 e4m3/e5m2 in place, each dot a fresh sum added to the
 * f32 accumulator afterwards).
 *  a. The operands go through registers into shared memory (the buffer aligned to 1024
 *     bytes) in the 128-byte swizzled layout: a tile with K contiguous (A [M][K], and B^T
 *     when B is a tile.trans of an [N][K] load) as K/64 blocks of [rows][64] (128-byte
 *     rows), the 16-byte chunk c of row r at chunk c ^ (r % 8) of its row; B [K][N] as N/64
 *     blocks of [K][64], chunk c of row k at c ^ (k % 8), read by wgmma transposed. The 8
 *     threads that store one row's chunks hit all 32 banks. A generic-to-async proxy fence
 *     and a barrier make the stores visible to wgmma.
 *  b. Warpgroup g (warps 4g..4g+3) of G owns C columns [g N/G, (g+1) N/G): MB = N/G/64
 *     blocks of 64. Per 16 of K it issues one wgmma per block; descriptors hold the start
 *     address / 16, the 8-row group stride (1024 bytes), the 64-column block stride (B
 *     [K][N]) and swizzle mode 128B; a K step moves the start by 32 bytes in a K-major
 *     block (the hardware swizzles the address it forms) and by 16 rows (2048 bytes) in a
 *     [K][64] block. wgmma.fence before the first, commit and wait for all after the last
 *     - unless a hopper.wgmma_wait follows the tile.dot (--pipeline wgmma-in-flight) and
 *     both operands are TMA slots, when that op says how many groups stay in flight (not
 *     for fp8 slots, whose promotion reads the sum: see below).
 *  c. The accumulator: per block b and 8-row chunk c of M a vector<4xf32>, the registers
 *     4c..4c+3 of wgmma's D: lane (g = lane / 4, t = lane % 4) of warp w in the group holds
 *     C[8c + 2t + {0, 1}][col] at col = 64 (MB g + b) + 16 w + g, then at col + 8.
 *  d. The direct form (ttWgmmaDirect: N not a multiple of 64 per warpgroup, M 64 per
 *     warpgroup, B^T K-major; e.g. 64x80 tiles, which spread N = 10240 over 128 programs
 *     where 128 columns make 80): C = A B as it stands, wgmma.m64nNk with A as wgmma's A
 *     (warpgroup g from row 64 g: 8 row groups of 1024 bytes further) and B^T as its B, one
 *     wgmma per K step. Its D is part c = 0 .. N/8 - 1: lane (g, t) of warp w holds
 *     C[r][8c + 2t + {0, 1}] and C[r + 8][...] at r = 64 g' + 16 w + g (g' the group) -
 *     mma.sync's fragment order, per 16-row warp slice. */

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

/* True when ring (a tile.local_alloc result) is filled by hopper.tma_load (step 7). */
static bool tmaRing(MlirValue ring) {
  for (MlirOpOperand u = mlirValueGetFirstUse(ring); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (ttOpIs(mlirOpOperandGetOwner(u), "hopper.tma_load"))
      return true;
  return false;
}

/* True when tile.dot `dot` goes to 5w: mma=wgmma, each operand in registers (16-byte
 * runs) or a slot of a TMA ring (read in place; cp.async slots of step 6 are not), and
 * the shape ttWgmmaFits takes (whole warpgroups, N a multiple of 64 per warpgroup, M of 8
 * up to 256; or 5w d's direct form), K of 64. */
static bool wgmmaFits(Lower *l, MlirOperation dot) {
  int64_t as[TT_MAX_RANK], bs[TT_MAX_RANK];
  if (!l->wgmma || ttTensorShape(mlirValueGetType(mlirOperationGetOperand(dot, 0)), as) != 2 ||
      ttTensorShape(mlirValueGetType(mlirOperationGetOperand(dot, 1)), bs) != 2)
    return false;
  int slots = 0;
  for (int i = 0; i < 2; i++) { /* slots of TMA rings, or registers in 16-byte runs */
    MlirOperation def = producer(mlirOperationGetOperand(dot, i));
    bool slot = !mlirOperationIsNull(def) && ttOpIs(def, "tile.local_load");
    if (slot ? !tmaRing(mlirOperationGetOperand(def, 0)) : l->VEC != 8)
      return false;
    slots += slot;
  }
  /* fp8 in TMA slots: native fp8 wgmma, both slots K-major (B a tile.trans), K of 128 */
  bool fp8 = ttTypeIsFp8(ttElementType(mlirValueGetType(mlirOperationGetOperand(dot, 0))));
  bool bTrans = ttTransposedView(mlirOperationGetOperand(dot, 1)); /* (= its `trans`) */
  if (fp8 && slots && (slots != 2 || !bTrans))
    return false;
  int64_t m = as[0], k = as[1], n = bs[1], warps = l->T / 32;
  return ttWgmmaFits(m, n, k, warps, fp8 && slots, bTrans) && wgParts(l, m, n) <= MAX_REPS;
}

static MlirValue ci64(Lower *l, int64_t v) {
  return ttConstInt(&l->b, l->loc, mlirIntegerTypeGet(l->ctx, 64), v);
}

/* i64 scalar `a name b` (b a constant). */
static MlirValue arc64(Lower *l, const char *name, MlirValue a, int64_t b) {
  return build(l, name, 2, (MlirValue[]){a, ci64(l, b)}, mlirIntegerTypeGet(l->ctx, 64), 0, NULL);
}

/* The descriptor (5w b) of shared memory at buf with the given group and block strides. */
static MlirValue wgmmaDesc(Lower *l, MlirValue buf, int64_t sbo, int64_t lbo) {
  MlirType i64 = mlirIntegerTypeGet(l->ctx, 64);
  MlirValue addr = build(l, "llvm.ptrtoint", 1, &buf, i64, 0, NULL);
  MlirValue start = arc64(l, "arith.shrui", arc64(l, "arith.andi", addr, 0x3FFFF), 4);
  int64_t fixed = ((lbo >> 4) << 16) | ((sbo >> 4) << 32) | ((int64_t)1 << 62);
  return arc64(l, "arith.ori", start, fixed);
}

/* The #nvvm.wgmma_type of an operand element (f16 for widened fp8 in 5a's f16 staging). */
static const char *wgmmaType(MlirType elem, bool native) {
  if (mlirTypeIsABF16(elem))
    return "#nvvm.wgmma_type<bf16>";
  if (native && mlirTypeIsAFloat8E4M3FN(elem))
    return "#nvvm.wgmma_type<e4m3>";
  if (native && mlirTypeIsAFloat8E5M2(elem))
    return "#nvvm.wgmma_type<e5m2>";
  return "#nvvm.wgmma_type<f16>";
}

/* One wgmma.m64nMkK: D (acc, or 0 when `fresh`) += wgmma's A (descriptor da, our B^T, of
 * element ta) times its B (db, our A, of tb); K = 32 bytes of either. */
static MlirValue wgmmaOp(Lower *l, MlirValue acc, MlirValue da, MlirValue db, int64_t m,
                         bool aKMajor, const char *ta, const char *tb, int64_t kk, bool fresh) {
  char shape[64];
  snprintf(shape, sizeof shape, "#nvvm.shape<m = 64, n = %lld, k = %lld>", (long long)m,
           (long long)kk);
  MlirAttribute one = mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.wgmma_scale_in<one>"));
  MlirNamedAttribute attrs[9] = {
      ttNamedAttr(l->ctx, "layoutA", mlirAttributeParseGet(l->ctx, ttStrRef(
                                         aKMajor ? "#nvvm.mma_layout<row>" : "#nvvm.mma_layout<col>"))),
      ttNamedAttr(l->ctx, "layoutB", mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.mma_layout<col>"))),
      ttNamedAttr(l->ctx, "scaleA", one),
      ttNamedAttr(l->ctx, "scaleB", one),
      ttNamedAttr(l->ctx, "scaleD", mlirAttributeParseGet(l->ctx, ttStrRef(
                                        fresh ? "#nvvm.wgmma_scale_out<zero>" : "#nvvm.wgmma_scale_out<one>"))),
      ttNamedAttr(l->ctx, "shape", mlirAttributeParseGet(l->ctx, ttStrRef(shape))),
      ttNamedAttr(l->ctx, "typeA", mlirAttributeParseGet(l->ctx, ttStrRef(ta))),
      ttNamedAttr(l->ctx, "typeB", mlirAttributeParseGet(l->ctx, ttStrRef(tb))),
      ttNamedAttr(l->ctx, "typeD", mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.wgmma_type<f32>"))),
  };
  return build(l, "nvvm.wgmma.mma_async", 3, (MlirValue[]){acc, da, db}, mlirValueGetType(acc),
               9, attrs);
}

/* The warpgroup's index and, within it, warp w and lane (5w c). */
static void wgPos(Lower *l, MlirValue *group, MlirValue *warp, MlirValue *lane) {
  *group = arc(l, "arith.divui", l->tid, 128);
  *warp = arc(l, "arith.remui", arc(l, "arith.divui", l->tid, 32), 4);
  *lane = arc(l, "arith.remui", l->tid, 32);
}

/* 5c for 5w's swapped form: accumulator x (C^T in wgmma's D layout) stored to buf as
 * [M][ld] f32. (The direct form's D has mma.sync's fragment layout: toFlat stores it.) */
static void wgmmaToShared(Lower *l, Lowered *x, MlirValue buf, int64_t ld) {
  int64_t m = x->mmaM, mb = x->mmaN / (l->T / 128) / 64;
  MlirValue group, warp, lane;
  wgPos(l, &group, &warp, &lane);
  MlirType f32 = mlirF32TypeGet(l->ctx);
  MlirValue col0 = ar(l, "arith.addi", arc(l, "arith.muli", group, mb * 64),
                      ar(l, "arith.addi", arc(l, "arith.muli", warp, 16), arc(l, "arith.divui", lane, 4)));
  MlirValue row0 = arc(l, "arith.muli", arc(l, "arith.remui", lane, 4), 2);
  barrier(l);
  for (int64_t b = 0; b < mb; b++)
    for (int64_t c = 0; c < m / 8; c++)
      for (int j = 0; j < 4; j++) {
        MlirValue row = arc(l, "arith.addi", row0, 8 * c + (j & 1));
        MlirValue col = arc(l, "arith.addi", col0, 64 * b + 8 * (j >> 1));
        MlirValue p = gep(l, buf, ar(l, "arith.addi", arc(l, "arith.muli", row, ld), col), f32);
        MlirValue v = extract(l, x->parts[b * (m / 8) + c], j);
        build(l, "llvm.store", 2, (MlirValue[]){v, p}, ttNoType(), 0, NULL);
      }
  barrier(l);
}

/* wgmma.wait_group: at most `pending` of this warpgroup's committed groups in flight. */
static void wgmmaWaitGroup(Lower *l, int64_t pending) {
  MlirNamedAttribute group =
      ttNamedAttr(l->ctx, "group", ttIntAttr(l->ctx, pending, mlirIntegerTypeGet(l->ctx, 64)));
  build(l, "nvvm.wgmma.wait.group.sync.aligned", 0, NULL, ttNoType(), 1, &group);
}

/* Step 5w for tile.dot (wgmmaFits holds; operand checks are done). */
static bool lowerWgmma(Lower *l, MlirOperation op, Lowered *a, Lowered *b, MlirType aElem,
                       MlirType bElem) {
  int64_t as[TT_MAX_RANK], bs[TT_MAX_RANK];
  ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 0)), as);
  ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 1)), bs);
  int64_t m = as[0], k = as[1], n = bs[1];
  /* the direct form (5w d): one wgmma of n columns per K step, 64 rows per warpgroup;
   * else mb blocks of 64 columns per warpgroup */
  bool direct = ttWgmmaDirect(m, n, l->T / 32);
  int64_t mb = direct ? 1 : n / (l->T / 128) / 64;
  int64_t regs = direct ? n / 2 : m / 2; /* f32 registers of one wgmma's D */
  Lowered *c = toMma(l, op, mlirOperationGetOperand(op, 2), m, n, true);
  if (!c)
    return false;
  bool bT = b->trans; /* B held as [N][K]: B^T is K-major (always, direct: wgmmaFits) */
  /* 5a: operands in registers are staged; TMA slots (step 7) are read in place */
  MlirType i8 = mlirIntegerTypeGet(l->ctx, 8);
  int64_t aStaged = a->shared ? 0 : m * k, bStaged = b->shared ? 0 : n * k;
  MlirValue buf = {NULL};
  if (aStaged + bStaged) {
    l->smemAlign = true;
    buf = smem(l, (aStaged + bStaged) * 2, 1024);
    barrier(l);
    if (aStaged)
      stageTile(l, buf, a, k, 0, m, true, aElem);
    if (bStaged)
      stageTile(l, buf, b, bT ? k : n, aStaged, bT ? n : k, true, bElem);
    MlirNamedAttribute fence[2] = {
        ttNamedAttr(l->ctx, "kind", mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.proxy_kind<async.shared>"))),
        ttNamedAttr(l->ctx, "space", mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.shared_space<cta>"))),
    };
    build(l, "nvvm.fence.proxy", 0, NULL, ttNoType(), 2, fence);
    barrier(l);
  }
  /* fp8 slots (both K-major: wgmmaFits) run fp8 wgmma: eb-byte elements, kb of them to a
   * 128-byte row, K steps of 32 bytes. Its accumulation inside the tensor cores keeps
   * fewer than f32's bits, so each tile.dot starts a fresh sum (scale-d 0) that is added
   * to the f32 accumulator in registers afterwards ("promotion", as DeepGEMM and cuBLAS
   * without fast accumulation do): without it 16 x 8192 x 8192 e4m3 had rel_l2 1.9e-3. */
  bool native = ttTypeIsFp8(aElem) && a->shared;
  int64_t eb = native ? 1 : 2, kb = 128 / eb, kk = 32 / eb;
  const char *ta = wgmmaType(bElem, native), *tb = wgmmaType(aElem, native);
  MlirValue aPtr = a->shared ? gep(l, a->sbuf, arc(l, "arith.muli", a->parts[0], eb), i8) : buf;
  /* a staged B sits bBase bytes into the buffer (kept in the descriptors' constants) */
  MlirValue bPtr = b->shared ? gep(l, b->sbuf, arc(l, "arith.muli", b->parts[0], eb), i8) : buf;
  int64_t bBase = b->shared ? 0 : aStaged * 2;

  /* 5b: descriptors in units of 16 bytes from the buffer's start */
  MlirValue group, warp, lane;
  wgPos(l, &group, &warp, &lane);
  MlirType i64 = mlirIntegerTypeGet(l->ctx, 64);
  MlirValue g64 = build(l, "arith.extui", 1, &group, i64, 0, NULL);
  MlirValue descB = wgmmaDesc(l, aPtr, 1024, 0); /* A as wgmma's B (direct: its A) */
  MlirValue descA = wgmmaDesc(l, bPtr, 1024, bT ? 0 : k * 128); /* B^T as wgmma's A (B) */
  int64_t blockBytes = bT ? 64 * 128 : k * 128;
  /* warpgroup g's part: its blocks of N (direct: its 64 rows of A, 8 row groups) */
  MlirValue gOff = arc64(l, "arith.muli", g64, (direct ? 8 * 1024 : mb * blockBytes) / 16);
  if (direct)
    descB = build(l, "arith.addi", 2, (MlirValue[]){gOff, descB}, i64, 0, NULL);
  else
    descA = build(l, "arith.addi", 2, (MlirValue[]){gOff, descA}, i64, 0, NULL);
  char st[4096] = "!llvm.struct<(";
  for (int64_t i = 0; i < regs; i++)
    strcat(st, i ? ", f32" : "f32");
  strcat(st, ")>");
  MlirType accT = mlirTypeParseGet(l->ctx, ttStrRef(st));
  MlirType f32 = mlirF32TypeGet(l->ctx);
  MlirValue acc[MAX_REPS];
  for (int64_t bi = 0; bi < mb; bi++) {
    acc[bi] = build(l, "llvm.mlir.poison", 0, NULL, accT, 0, NULL);
    for (int64_t i = 0; i < regs && !native; i++) { /* (native: a fresh sum, see below) */
      MlirNamedAttribute pos = ttNamedAttr(l->ctx, "position", mlirDenseI64ArrayGet(l->ctx, 1, &i));
      MlirValue e = extract(l, c->parts[bi * (regs / 4) + i / 4], i % 4);
      acc[bi] = build(l, "llvm.insertvalue", 2, (MlirValue[]){acc[bi], e}, accT, 1, &pos);
    }
  }
  build(l, "nvvm.wgmma.fence.aligned", 0, NULL, ttNoType(), 0, NULL);
  for (int64_t ks = 0; ks < k; ks += kk) {
    MlirValue db = arc64(l, "arith.addi", descB, ((ks / kb) * m * 128 + (ks % kb) * eb) / 16);
    for (int64_t bi = 0; bi < mb; bi++) {
      int64_t off = bT ? bBase + (ks / kb) * n * 128 + bi * blockBytes + (ks % kb) * eb
                       : bBase + bi * blockBytes + ks * 128;
      MlirValue da = arc64(l, "arith.addi", descA, off / 16);
      acc[bi] = direct ? wgmmaOp(l, acc[bi], db, da, n, true, tb, ta, kk, native && ks == 0)
                       : wgmmaOp(l, acc[bi], da, db, m, bT, ta, tb, kk, native && ks == 0);
    }
  }
  build(l, "nvvm.wgmma.commit.group.sync.aligned", 0, NULL, ttNoType(), 0, NULL);
  MlirOperation next = mlirOperationGetNextInBlock(op); /* (staging buf is reused: wait) */
  if (native || aStaged + bStaged || mlirOperationIsNull(next) ||
      !ttOpIs(next, "hopper.wgmma_wait"))
    wgmmaWaitGroup(l, 0);
  Lowered *out = define(l, mlirOperationGetResult(op, 0));
  out->mma = out->wg = true;
  out->mmaM = m;
  out->mmaN = n;
  out->n = c->n;
  for (int64_t bi = 0; bi < mb; bi++)
    for (int64_t ch = 0; ch < regs / 4; ch++) {
      MlirValue e[4];
      for (int j = 0; j < 4; j++)
        e[j] = extractValue(l, acc[bi], 4 * ch + j, f32);
      MlirValue v = build(l, "vector.from_elements", 4, e, vec4f32(l), 0, NULL);
      if (native) /* promoted: this dot's fp8 sum into the f32 accumulator */
        v = build(l, "arith.addf", 2, (MlirValue[]){c->parts[bi * (regs / 4) + ch], v}, vec4f32(l), 0, NULL);
      out->parts[bi * (regs / 4) + ch] = v;
    }
  return true;
}

/* Step 5c: accumulator x (in fragments) in the flat layout, through shared memory. */
static Lowered *toFlat(Lower *l, Lowered *x) {
  int64_t m = x->mmaM, n = x->mmaN, ld = n + 4;
  MlirType f32 = mlirF32TypeGet(l->ctx);
  MlirValue buf = smem(l, m * ld * 4, 16);
  int64_t warps = l->T / 32;
  bool direct = x->wg && ttWgmmaDirect(m, n, warps);
  if (x->wg && !direct) {
    wgmmaToShared(l, x, buf, ld);
    return readFlat(l, x->key, buf, ci(l, 0), m, n, ld, f32);
  }
  /* mma.sync's fragments; the direct form (5w d) has the same with every warp along M:
   * part c of warp w holds rows 16 w + lane / 4 (+ 8), columns 8 c + 2 (lane % 4) (+ 1) */
  MmaLayout y = direct ? (MmaLayout){warps, 1, 1, n / 8} : mmaLayout(l, m, n);
  WarpPos w = warpPos(l, y);
  MlirValue g = arc(l, "arith.divui", w.lane, 4), t2 = arc(l, "arith.muli", arc(l, "arith.remui", w.lane, 4), 2);
  MlirValue row0 = ar(l, "arith.addi", arc(l, "arith.muli", w.wmI, m / y.wm), g);
  MlirValue col0 = ar(l, "arith.addi", arc(l, "arith.muli", w.wnI, n / y.wn), t2);
  barrier(l);
  int64_t two = 2;
  MlirType v2 = mlirVectorTypeGet(1, &two, f32);
  for (int64_t mt = 0; mt < y.mt; mt++)
    for (int64_t nt = 0; nt < y.nt; nt++)
      for (int half = 0; half < 2; half++) { /* c0 c1 at row g, c2 c3 at row g + 8 */
        MlirValue pair = slice2(l, x->parts[mt * y.nt + nt], 2 * half, v2);
        MlirValue row = arc(l, "arith.addi", row0, mt * 16 + 8 * half);
        MlirValue col = arc(l, "arith.addi", col0, nt * 8);
        MlirValue p = gep(l, buf, ar(l, "arith.addi", arc(l, "arith.muli", row, ld), col), f32);
        MlirNamedAttribute align = alignAttr(l, 8);
        build(l, "llvm.store", 2, (MlirValue[]){pair, p}, ttNoType(), 1, &align);
      }
  barrier(l);
  return readFlat(l, x->key, buf, ci(l, 0), m, n, ld, f32);
}

/* Step 5 for tile.dot. */
static bool lowerDot(Lower *l, MlirOperation op) {
  MlirValue av = mlirOperationGetOperand(op, 0), bv = mlirOperationGetOperand(op, 1);
  Lowered *a = lookup(l, av), *b = lookup(l, bv);
  int64_t as[TT_MAX_RANK], bs[TT_MAX_RANK], cs[TT_MAX_RANK];
  MlirType aElem = ttElementType(mlirValueGetType(av)), bElem = ttElementType(mlirValueGetType(bv));
  bool fp8 = ttTypeIsFp8(aElem) && ttTypeIsFp8(bElem); /* widened to f16 in 5a, or
                                                          * TMA slots on fp8 wgmma */
  bool bf16 = mlirTypeIsABF16(aElem) && mlirTypeIsABF16(bElem);
  bool f16 = mlirTypeIsAF16(aElem) && mlirTypeIsAF16(bElem);
  if (!a || !b || a->mma || a->trans || b->mma ||
      (fp8 && (a->shared || b->shared) && !wgmmaFits(l, op)) ||
      ttTensorShape(mlirValueGetType(av), as) != 2 || ttTensorShape(mlirValueGetType(bv), bs) != 2 ||
      ttTensorShape(mlirValueGetType(mlirOperationGetResult(op, 0)), cs) != 2 ||
      !(fp8 || bf16 || f16) ||
      as[1] != bs[0] || cs[0] != as[0] || cs[1] != bs[1] ||
      !mlirTypeIsAF32(ttElementType(mlirValueGetType(mlirOperationGetResult(op, 0))))) {
    ttEmitError(op, "convert-tile-to-gpu: tile.dot needs 2-D operands MxK and KxN, both f16, "
                    "both bf16 or both fp8 (E4M3FN or E5M2; in registers, or K-major TMA "
                    "slots for wgmma), and an f32 MxN accumulator");
    return false;
  }
  int64_t m = as[0], k = as[1], n = bs[1];
  if (wgmmaFits(l, op))
    return lowerWgmma(l, op, a, b, aElem, bElem);
  if (a->swz || b->swz) {
    ttEmitError(op, "convert-tile-to-gpu: a tile.dot reading TMA slots (128-byte swizzled) "
                    "runs only on wgmma: mma=wgmma (sm_90a) and a tile that fits it (whole "
                    "warpgroups, N a multiple of 64 per warpgroup and M of 8 up to 256, or M "
                    "64 per warpgroup, N of 8 up to 256 and B read transposed from [N, K]; K "
                    "of 64)");
    return false;
  }
  MmaLayout y = mmaLayout(l, m, n);
  if (m % (16 * y.wm) || n % (8 * y.wn) || k % 16 || y.mt > 16 || y.mt * y.nt > MAX_REPS ||
      l->VEC != 8) {
    ttEmitError(op, "convert-tile-to-gpu: a %lldx%lldx%lld tile.dot does not fit %lld warps "
                    "of 16x8 mma fragments (at most 16 rows and %d fragments per warp, "
                    "operands in 16-byte runs)",
                (long long)m, (long long)n, (long long)k, (long long)(l->T / 32), MAX_REPS);
    return false;
  }
  Lowered *c = toMma(l, op, mlirOperationGetOperand(op, 2), m, n, false);
  if (!c)
    return false;
  bool bT = b->trans; /* B held as [N][K] */
  /* 5a: where each operand is in shared memory: in place (step 6) or staged */
  MlirValue abuf = a->sbuf, bbuf = b->sbuf, abase = a->parts[0], bbase = b->parts[0];
  int64_t lda = a->shared ? a->ld : k + 8, ldb = b->shared ? b->ld : bT ? k + 8 : n + 8;
  if (!a->shared || !b->shared) {
    int64_t aElems = a->shared ? 0 : m * lda, bElems = b->shared ? 0 : (bT ? n : k) * ldb;
    MlirValue buf = smem(l, (aElems + bElems) * 2, 16);
    barrier(l);
    if (!a->shared) {
      stageTile(l, buf, a, k, 0, lda, false, aElem);
      abuf = buf;
      abase = ci(l, 0);
    }
    if (!b->shared) {
      stageTile(l, buf, b, bT ? k : n, aElems, ldb, false, bElem);
      bbuf = buf;
      bbase = ci(l, aElems);
    }
    barrier(l);
  }

  /* 5b: the warp's fragments, 16 of K at a time. */
  WarpPos w = warpPos(l, y);
  MlirValue l16 = arc(l, "arith.remui", w.lane, 16), h16 = arc(l, "arith.muli", arc(l, "arith.divui", w.lane, 16), 8);
  MlirValue l8 = arc(l, "arith.remui", w.lane, 8);
  MlirValue h8 = arc(l, "arith.muli", arc(l, "arith.remui", arc(l, "arith.divui", w.lane, 8), 2), 8);
  MlirValue rowA = ar(l, "arith.addi", arc(l, "arith.muli", w.wmI, m / y.wm), l16);
  MlirValue colB = arc(l, "arith.muli", w.wnI, n / y.wn);
  MlirValue acc[MAX_REPS][4];
  for (int i = 0; i < c->n; i++)
    for (int j = 0; j < 4; j++)
      acc[i][j] = extract(l, c->parts[i], j);
  for (int64_t ks = 0; ks < k; ks += 16) {
    MlirValue af[16][4], bf[MAX_REPS][2];
    for (int64_t mt = 0; mt < y.mt; mt++) { /* A: rows lane % 16, K half lane / 16 */
      MlirValue off = ar(l, "arith.addi", arc(l, "arith.muli", arc(l, "arith.addi", rowA, mt * 16), lda),
                         arc(l, "arith.addi", h16, ks));
      ldmatrix(l, abuf, ar(l, "arith.addi", off, abase), 4, false, af[mt]);
    }
    for (int64_t nt = 0; nt < y.nt; nt += 2) {
      bool pair = nt + 1 < y.nt;
      MlirValue regs[4];
      /* B [N][K]: matrix j of the x4 covers columns nt*8 + 8 (j / 2), K half j % 2;
       * B [K][N] (.trans): rows K, the same matrices. */
      MlirValue nIdx = ar(l, "arith.addi", arc(l, "arith.addi", colB, nt * 8), pair ? h16 : ci(l, 0));
      MlirValue off;
      if (bT)
        off = ar(l, "arith.addi", arc(l, "arith.muli", ar(l, "arith.addi", nIdx, l8), ldb),
                 arc(l, "arith.addi", h8, ks));
      else
        off = ar(l, "arith.addi", arc(l, "arith.muli", arc(l, "arith.addi", ar(l, "arith.addi", l8, h8), ks), ldb),
                 nIdx);
      ldmatrix(l, bbuf, ar(l, "arith.addi", off, bbase), pair ? 4 : 2, !bT, regs);
      bf[nt][0] = regs[0];
      bf[nt][1] = regs[1];
      if (pair) {
        bf[nt + 1][0] = regs[2];
        bf[nt + 1][1] = regs[3];
      }
    }
    for (int64_t mt = 0; mt < y.mt; mt++)
      for (int64_t nt = 0; nt < y.nt; nt++)
        mma(l, bf16, af[mt], bf[nt], acc[mt * y.nt + nt]);
  }
  Lowered *out = define(l, mlirOperationGetResult(op, 0));
  out->mma = true;
  out->mmaM = m;
  out->mmaN = n;
  out->n = c->n;
  for (int i = 0; i < c->n; i++)
    out->parts[i] = build(l, "vector.from_elements", 4, acc[i], vec4f32(l), 0, NULL);
  return true;
}

/* Step 6: shared-memory rings and asynchronous copies (--pipeline stage-in=shared) -------
 * A tile.local_alloc memref<S x R x C x T, 3> is a part of the kernel's shared-memory
 * buffer: S slots of R rows of C elements, each row padded by 16 bytes as in 5a
 * (ttSmemTileBytes), so a slot feeds ldmatrix without bank conflicts. tile.async_copy
 * sends run r of its flat tile (first element e) to row e / C, column e % C of the slot:
 * one cp.async (sm_80+; .cg, not kept in L1, for 16 bytes) when the run's offsets are
 * contiguous and aligned - with a mask constant over the run the copy's source size is
 * its size or 0 (zero fill), else it runs under step 3's guard - and otherwise the lanes
 * are loaded one by one under the mask and stored to the slot. tile.async_commit and
 * tile.async_wait are cp.async.commit_group and cp.async.wait_group + a barrier.
 * tile.local_load makes a tile held in shared memory: tile.dot reads it in place (no 5a
 * staging); any other use reads it into the flat layout. fp8 tiles are not staged this
 * way (--pipeline keeps them in registers: they widen to f16 before ldmatrix). */

static bool lowerLocalAlloc(Lower *l, MlirOperation op) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  int eb = ttDtypeBytes(t);
  if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t) || mlirShapedTypeGetRank(t) != 3 ||
      !eb || 16 % eb || (mlirShapedTypeGetDimSize(t, 2) * eb) % 16) {
    ttEmitError(op, "convert-tile-to-gpu: tile.local_alloc needs a static memref<S x R x C x "
                    "T, 3> whose rows are a multiple of 16 bytes");
    return false;
  }
  int64_t rows = mlirShapedTypeGetDimSize(t, 1), cols = mlirShapedTypeGetDimSize(t, 2);
  bool swz = false; /* filled by hopper.tma_load: 5w's layout, 1024-byte aligned slots */
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    swz = swz || ttOpIs(mlirOpOperandGetOwner(u), "hopper.tma_load");
  if (swz && (eb > 2 || (cols * eb) % 128 || rows % 8)) {
    ttEmitError(op, "convert-tile-to-gpu: a ring that hopper.tma_load fills needs 1- or "
                    "2-byte elements, a multiple of 8 rows and rows of a multiple of 128 "
                    "bytes");
    return false;
  }
  int64_t align = swz ? 1024 : 16;
  int64_t at = (l->smemBytes + align - 1) / align * align; /* past everything used so far */
  int64_t slot = swz ? rows * cols * eb : ttSmemTileBytes(rows, cols, eb);
  l->ringTop = l->smemBytes = at + mlirShapedTypeGetDimSize(t, 0) * slot;
  l->ringsDead = false;
  l->smemAlign = l->smemAlign || swz;
  Lowered *x = define(l, mlirOperationGetResult(op, 0));
  x->sbuf = gep(l, smemBase(l), ci(l, at), mlirIntegerTypeGet(l->ctx, 8));
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
  build(l, "nvvm.cp.async.shared.global", mlirValueIsNull(size) ? 2 : 3,
        (MlirValue[]){dst, src, size}, ttNoType(), 2, attrs);
}

static bool lowerAsyncCopy(Lower *l, MlirOperation op) {
  Lowered *ptr = lookup(l, mlirOperationGetOperand(op, 0));
  Lowered *offs = lookup(l, mlirOperationGetOperand(op, 1));
  Lowered *mask = lookup(l, mlirOperationGetOperand(op, 2));
  Lowered *ring = lookup(l, mlirOperationGetOperand(op, 3));
  Lowered *slot = lookup(l, mlirOperationGetOperand(op, 4));
  MlirType rt = mlirValueGetType(mlirOperationGetOperand(op, 3));
  MlirType elem = ttElementType(rt);
  int64_t bytes = l->VEC * ttDtypeBytes(elem);
  if (!ptr || !offs || !mask || !ring || !slot || mlirValueIsNull(ring->sbuf) ||
      (bytes != 4 && bytes != 8 && bytes != 16)) {
    ttEmitError(op, "convert-tile-to-gpu: tile.async_copy needs a tile.local_alloc buffer "
                    "and runs of 4, 8 or 16 bytes");
    return false;
  }
  MlirType vt = vecOf(l, elem);
  MlirAttribute z = mlirTypeIsAFloat(elem) ? mlirFloatAttrDoubleGet(l->ctx, elem, 0.0)
                                           : mlirIntegerAttrGet(elem, 0);
  MlirNamedAttribute zattr = ttNamedAttr(l->ctx, "value", mlirDenseElementsAttrSplatGet(vt, z));
  MlirValue zero = build(l, "arith.constant", 0, NULL, vt, 1, &zattr);
  MlirValue base = arc(l, "arith.muli", slot->parts[0], ring->slotElems);
  int64_t cols = mlirShapedTypeGetDimSize(rt, 2);
  for (int r = 0; r < offs->n; r++) {
    MlirValue row, col;
    runAt(l, r, cols, &row, &col);
    MlirValue off = ar(l, "arith.addi", arc(l, "arith.muli", row, ring->ld), col);
    MlirValue dst = gep(l, ring->sbuf, ar(l, "arith.addi", base, off), elem);
    Lanes s = lanesOf(l, offs, mask, r);
    MlirNamedAttribute align = alignAttr(l, bytes);
    if (s.contig && mask->axis.constancy >= l->VEC) {
      MlirValue src = gep(l, ptr->parts[0], extract(l, s.offs, 0), elem);
      MlirValue size = build(l, "arith.select", 3,
                             (MlirValue[]){extract(l, s.mask, 0), ci(l, bytes), ci(l, 0)},
                             ttI32(l->ctx), 0, NULL);
      cpAsync(l, dst, src, bytes, size);
      continue;
    }
    MlirOperation ifOp = s.contig ? buildIf(l, allLanesOn(l, &s, mask), ttNoType())
                                  : (MlirOperation){NULL};
    TtBuilder saved = l->b;
    if (ifOp.ptr) {
      l->b = ttBuilderAtEnd(ifBlock(ifOp, 0));
      cpAsync(l, dst, gep(l, ptr->parts[0], extract(l, s.offs, 0), elem), bytes,
              (MlirValue){NULL});
      yield(l, ifBlock(ifOp, 0), (MlirValue){NULL});
      l->b = ttBuilderAtEnd(ifBlock(ifOp, 1));
    }
    MlirValue v = loadLanes(l, ptr->parts[0], &s, zero, elem);
    build(l, "llvm.store", 2, (MlirValue[]){v, dst}, ttNoType(), 1, &align);
    if (ifOp.ptr)
      yield(l, ifBlock(ifOp, 1), (MlirValue){NULL});
    l->b = saved;
  }
  return true;
}

static bool lowerLocalLoad(Lower *l, MlirOperation op) {
  Lowered *ring = lookup(l, mlirOperationGetOperand(op, 0));
  Lowered *slot = lookup(l, mlirOperationGetOperand(op, 1));
  MlirValue res = mlirOperationGetResult(op, 0);
  int64_t shape[TT_MAX_RANK];
  MlirType rt = mlirValueGetType(mlirOperationGetOperand(op, 0));
  if (!ring || !slot || mlirValueIsNull(ring->sbuf) || ttTensorShape(mlirValueGetType(res), shape) != 2 ||
      shape[0] != mlirShapedTypeGetDimSize(rt, 1) || shape[1] != mlirShapedTypeGetDimSize(rt, 2) ||
      !mlirTypeEqual(ttElementType(rt), ttElementType(mlirValueGetType(res)))) {
    ttEmitError(op, "convert-tile-to-gpu: tile.local_load needs a tile.local_alloc buffer "
                    "and gives one R x C slot of it");
    return false;
  }
  Lowered *x = define(l, res);
  x->def = op;
  x->shared = true;
  x->swz = ring->swz;
  x->sbuf = ring->sbuf;
  x->ld = ring->ld;
  x->parts[0] = arc(l, "arith.muli", slot->parts[0], ring->slotElems);
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
 * of the kernel after which no op touches a ring ends the rings' life: later scratch may
 * reuse their bytes (the wait's barrier orders every thread's last read before it; a
 * wgmma still reading a TMA slot is waited for before it: --pipeline puts its
 * hopper.wgmma_wait first). */
static bool lowerAsyncSync(Lower *l, MlirOperation op) {
  if (ttOpIs(op, "tile.async_commit")) {
    build(l, "nvvm.cp.async.commit.group", 0, NULL, ttNoType(), 0, NULL);
    return true;
  }
  int64_t pending = ttOpAttrInt(op, "pending", 0);
  MlirNamedAttribute n = ttNamedAttr(l->ctx, "n", ttIntAttr(l->ctx, pending, ttI32(l->ctx)));
  build(l, "nvvm.cp.async.wait.group", 0, NULL, ttNoType(), 1, &n);
  barrier(l);
  MlirOperation parent = mlirBlockGetParentOperation(mlirOperationGetBlock(op));
  if (pending == 0 && ttOpIs(parent, "func.func") && !ringsUsedAfter(op))
    l->ringsDead = true;
  return true;
}


/* Step 7: TMA and mbarriers (hopper dialect; --pipeline stage-in=tma) -------------------
 * hopper.mbarrier_alloc is a shared global of `count` 8-byte mbarriers that thread 0
 * initializes to one arrival each, then fence.mbarrier_init and a barrier. hopper.tma_load
 * is, in thread 0 when its predicate holds: mbarrier.arrive.expect_tx of the tile's bytes
 * on mbarrier `slot`, then per 64 columns one cp.async.bulk.tensor.2d of an R x 64 box
 * at (column, row) = (offsets[0] % D1 + 64 j, offsets[0] / D1) into the slot (the tensor
 * map swizzles it by 128 bytes, the layout 5w reads). offsets[0] is lane 0 of thread 0's
 * first run. hopper.mbarrier_wait is mbarrier.try_wait.parity in every thread. The
 * buffer of a kernel with TMA rings is dynamic shared memory (its size goes to the launch
 * metadata through `tt.dynamic_shared`), its start rounded up to 1024 bytes. */

static MlirValue barrierAt(Lower *l, MlirValue bars, MlirValue slot) {
  return gep(l, bars, slot, mlirIntegerTypeGet(l->ctx, 64));
}

/* An scf.if on "thread 0 and cond (may be null)"; returns its then-block (ending in its
 * scf.yield), for the ops that only that thread runs. */
static MlirBlock thread0(Lower *l, MlirValue cond) {
  MlirNamedAttribute eq = ttNamedAttr(l->ctx, "predicate",
                                      mlirIntegerAttrGet(mlirIntegerTypeGet(l->ctx, 64), 0));
  MlirValue is0 = build(l, "arith.cmpi", 2, (MlirValue[]){l->tid, ci(l, 0)},
                        mlirIntegerTypeGet(l->ctx, 1), 1, &eq);
  if (!mlirValueIsNull(cond))
    is0 = build(l, "arith.andi", 2, (MlirValue[]){is0, cond}, mlirIntegerTypeGet(l->ctx, 1), 0, NULL);
  MlirOperation ifOp = buildIf(l, is0, ttNoType());
  yield(l, ifBlock(ifOp, 0), (MlirValue){NULL});
  yield(l, ifBlock(ifOp, 1), (MlirValue){NULL});
  return ifBlock(ifOp, 0); /* build before its terminator */
}

static bool lowerMbarrierAlloc(Lower *l, MlirOperation op) {
  int64_t count = ttOpAttrInt(op, "count", 0);
  if (count < 1 || count > 64) {
    ttEmitError(op, "convert-tile-to-gpu: hopper.mbarrier_alloc needs a count of 1 to 64");
    return false;
  }
  char name[200];
  snprintf(name, sizeof name, "%s_mbar%d", l->smemName, l->nbars++);
  sharedGlobal(l, name, count * 8, 8, false);
  MlirValue bars = sharedAddress(l, name);
  TtBuilder outer = l->b;
  MlirBlock then = thread0(l, (MlirValue){NULL});
  l->b = (TtBuilder){then, mlirBlockGetTerminator(then)};
  for (int64_t i = 0; i < count; i++)
    build(l, "nvvm.mbarrier.init", 2, (MlirValue[]){barrierAt(l, bars, ci(l, i)), ci(l, 1)},
          ttNoType(), 0, NULL);
  build(l, "nvvm.fence.mbarrier.init", 0, NULL, ttNoType(), 0, NULL);
  l->b = outer;
  barrier(l);
  define(l, mlirOperationGetResult(op, 0))->parts[0] = bars;
  return true;
}

static bool lowerTmaLoad(Lower *l, MlirOperation op) {
  Lowered *desc = lookup(l, mlirOperationGetOperand(op, 0));
  Lowered *ring = lookup(l, mlirOperationGetOperand(op, 1));
  Lowered *slot = lookup(l, mlirOperationGetOperand(op, 2));
  Lowered *bars = lookup(l, mlirOperationGetOperand(op, 3));
  Lowered *offs = lookup(l, mlirOperationGetOperand(op, 4));
  Lowered *pred = lookup(l, mlirOperationGetOperand(op, 5));
  MlirAttribute dims = ttOpAttr(op, "dims");
  MlirType rt = mlirValueGetType(mlirOperationGetOperand(op, 1));
  if (!desc || !ring || !ring->swz || !slot || !bars || !offs || !pred ||
      !mlirAttributeIsADenseI64Array(dims) || mlirDenseArrayGetNumElements(dims) != 2) {
    ttEmitError(op, "convert-tile-to-gpu: hopper.tma_load needs a descriptor, a ring of "
                    "tile.local_alloc, a slot, mbarriers of hopper.mbarrier_alloc, offsets, "
                    "a predicate and dims = [D0, D1]");
    return false;
  }
  int64_t rows = mlirShapedTypeGetDimSize(rt, 1), cols = mlirShapedTypeGetDimSize(rt, 2);
  int64_t d1 = mlirDenseI64ArrayGetElement(dims, 1), eb = ttDtypeBytes(rt), bc = 128 / eb;
  MlirValue first = extract(l, offs->parts[0], 0);
  TtBuilder outer = l->b;
  MlirBlock then = thread0(l, pred->parts[0]);
  l->b = (TtBuilder){then, mlirBlockGetTerminator(then)};
  MlirValue bar = barrierAt(l, bars->parts[0], slot->parts[0]);
  build(l, "nvvm.mbarrier.arrive.expect_tx", 2, (MlirValue[]){bar, ci(l, rows * cols * eb)},
        mlirIntegerTypeGet(l->ctx, 64), 0, NULL);
  MlirValue row = arc(l, "arith.divui", first, d1), col = arc(l, "arith.remui", first, d1);
  MlirValue dst0 = gep(l, ring->sbuf, arc(l, "arith.muli", slot->parts[0], rows * cols * eb),
                       mlirIntegerTypeGet(l->ctx, 8));
  MlirNamedAttribute attrs[3] = {
      ttNamedAttr(l->ctx, "isCTAOnly", mlirBoolAttrGet(l->ctx, 0)), /* ::cluster dst: sm_90 */
      ttNamedAttr(l->ctx, "mode", mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.tma_load_mode<tile>"))),
      ttNamedAttr(l->ctx, "operandSegmentSizes",
                  mlirDenseI32ArrayGet(l->ctx, 8, (const int32_t[]){1, 1, 2, 1, 0, 0, 0, 0})),
  };
  for (int64_t j = 0; j < cols / bc; j++) { /* boxes of 128 bytes a row */
    MlirValue dst = j ? gep(l, dst0, ci(l, j * rows * 128), mlirIntegerTypeGet(l->ctx, 8)) : dst0;
    MlirValue c = j ? arc(l, "arith.addi", col, bc * j) : col;
    /* this block's shared memory as a shared::cluster address (a cluster of one) */
    dst = build(l, "llvm.addrspacecast", 1, &dst, mlirTypeParseGet(l->ctx, ttStrRef("!llvm.ptr<7>")),
                0, NULL);
    build(l, "nvvm.cp.async.bulk.tensor.shared.cluster.global", 5,
          (MlirValue[]){dst, desc->parts[0], c, row, bar}, ttNoType(), 3, attrs);
  }
  l->b = outer;
  return true;
}

static bool lowerMbarrierWait(Lower *l, MlirOperation op) {
  Lowered *bars = lookup(l, mlirOperationGetOperand(op, 0));
  Lowered *slot = lookup(l, mlirOperationGetOperand(op, 1));
  Lowered *phase = lookup(l, mlirOperationGetOperand(op, 2));
  if (!bars || !slot || !phase) {
    ttEmitError(op, "convert-tile-to-gpu: an operand of hopper.mbarrier_wait is not lowered");
    return false;
  }
  build(l, "nvvm.mbarrier.try_wait.parity", 3,
        (MlirValue[]){barrierAt(l, bars->parts[0], slot->parts[0]), phase->parts[0],
                      ci(l, 10000000)},
        ttNoType(), 0, NULL);
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
    Lowered *x = define(l, keys[i]);
    x->n = like[i]->n;
    x->mma = like[i]->mma;
    x->wg = like[i]->wg;
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
      ok = ok && toMma(l, op, vals[i], cs[0], cs[1], wgmmaFits(l, dot)); /* step 5c */
    if (i >= 3)
      like[i - 3] = lookup(l, vals[i]);
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
  Lowered *iv = define(l, mlirBlockGetArgument(tbody, 0));
  iv->parts[0] = mlirBlockGetArgument(gbody, 0);
  iv->axis.div = gcd64(lookup(l, vals[0])->axis.div, lookup(l, vals[2])->axis.div);
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

/* Step 2 for tensor.expand_shape/collapse_shape (the flat layout is row-major, so the
 * parts stay) and tile.trans (a transposed view, for tile.dot). */
static bool lowerView(Lower *l, MlirOperation op) {
  Lowered *x = lookup(l, mlirOperationGetOperand(op, 0));
  if (!x) {
    ttEmitError(op, "convert-tile-to-gpu: the operand is not lowered");
    return false;
  }
  Lowered *y = define(l, mlirOperationGetResult(op, 0));
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
 * transposing view also take shared tiles in place). */
static bool flatOperands(Lower *l, MlirOperation op) {
  bool dotLike = ttOpIs(op, "tile.dot") || ttOpIs(op, "tile.trans");
  bool view = dotLike || ttOpIs(op, "tensor.expand_shape") ||
              ttOpIs(op, "tensor.collapse_shape") || ttOpIs(op, "scf.for");
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    Lowered *x = lookup(l, v);
    if (x && x->shared && x->swz && !dotLike) {
      ttEmitError(op, "convert-tile-to-gpu: a TMA slot (128-byte swizzled) can only feed "
                      "tile.dot");
      return false;
    }
    if (x && x->shared && !dotLike) {
      int64_t shape[TT_MAX_RANK];
      ttTensorShape(mlirValueGetType(v), shape);
      readFlat(l, v, x->sbuf, x->parts[0], shape[0], shape[1], x->ld,
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
      toFlat(l, x);
  }
  return true;
}

/* Step 2 for one op of the kernel body. */
static bool lowerOp(Lower *l, MlirOperation op) {
  if (!flatOperands(l, op))
    return false;
  if (ttOpIs(op, "tile.dot"))
    return lowerDot(l, op);
  if (ttOpIs(op, "tile.local_alloc"))
    return lowerLocalAlloc(l, op);
  if (ttOpIs(op, "tile.local_load"))
    return lowerLocalLoad(l, op);
  if (ttOpIs(op, "tile.async_copy"))
    return lowerAsyncCopy(l, op);
  if (ttOpIs(op, "tile.async_commit") || ttOpIs(op, "tile.async_wait"))
    return lowerAsyncSync(l, op);
  if (ttOpIs(op, "tile.barrier")) {
    barrier(l);
    return true;
  }
  if (ttOpIs(op, "hopper.mbarrier_alloc"))
    return lowerMbarrierAlloc(l, op);
  if (ttOpIs(op, "hopper.tma_load"))
    return lowerTmaLoad(l, op);
  if (ttOpIs(op, "hopper.mbarrier_wait"))
    return lowerMbarrierWait(l, op);
  if (ttOpIs(op, "hopper.wgmma_wait")) { /* (5w) */
    int64_t pending = ttOpAttrInt(op, "pending", -1);
    if (!l->wgmma)
      ttEmitError(op, "convert-tile-to-gpu: hopper.wgmma_wait needs mma=wgmma (sm_90a)");
    else if (pending < 0)
      ttEmitError(op, "convert-tile-to-gpu: hopper.wgmma_wait needs pending >= 0");
    else
      wgmmaWaitGroup(l, pending);
    return l->wgmma && pending >= 0;
  }
  if (ttOpIs(op, "hopper.griddep_wait") || ttOpIs(op, "hopper.griddep_launch_dependents")) {
    bool wait = ttOpIs(op, "hopper.griddep_wait");
    l->pdl = l->pdl || wait;
    MlirNamedAttribute kind = ttNamedAttr(
        l->ctx, "kind",
        mlirAttributeParseGet(l->ctx, ttStrRef(wait ? "#nvvm<grid_dep_action wait>"
                                                    : "#nvvm<grid_dep_action launch_dependents>")));
    build(l, "nvvm.griddepcontrol", 0, NULL, ttNoType(), 1, &kind);
    return true;
  }
  if (ttOpIs(op, "tensor.expand_shape") || ttOpIs(op, "tensor.collapse_shape") ||
      ttOpIs(op, "tile.trans"))
    return lowerView(l, op);
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
    for (int r = 0; r < x->n; r++) {
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
    for (int r = 0; r < x->n; r++)
      x->parts[r] = v;
    x->axis = (Axis){1, BIG_DIV, s->axis.div};
    return true;
  }
  if (ttOpIs(op, "tile.reduce"))
    return lowerReduce(l, op);
  if (ttOpIs(op, "scf.for"))
    return lowerFor(l, op);
  if (ttOpIs(op, "tile.load") || ttOpIs(op, "tile.store") || ttOpIs(op, "tile.atomic_add")) {
    lowerMemory(l, op, !ttOpIs(op, "tile.load"));
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
  int64_t minBytes, minNumel, maxNumel;
  int64_t dotBytes; /* the most shared memory a tile.dot's staging may need */
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
  sc->dot |= ttOpIs(op, "tile.dot");
  sc->tma |= ttOpIs(op, "hopper.tma_load");
  return true;
}

/* The narrowest element (bytes) loaded, stored or atomically added, and the smallest and
 * largest tile (elements), over the kernel and the loops in it; false on a tile of rank
 * above 2. */
static bool scanKernel(MlirOperation func, Scan *sc) {
  *sc = (Scan){16, 0, 0, 0, false, false, false};
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
static bool lowerKernel(MlirModule module, MlirOperation func, const TtPassOptions *opts) {
  MlirContext ctx = mlirOperationGetContext(func);
  Lower l = {0};
  l.wgmma = opts->v[0] == 1;
  l.sm = opts->v[1];
  l.ctx = ctx;
  l.loc = mlirOperationGetLocation(func);
  int64_t warps = ttOpAttrInt(func, "tile.num_warps", 4);
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
  int32_t bs[3] = {(int32_t)l.T, 1, 1};
  MlirNamedAttribute attrs[6] = {
      ttNamedAttr(ctx, "sym_name", symName),
      ttNamedAttr(ctx, "function_type",
                  mlirTypeAttrGet(mlirFunctionTypeGet(ctx, nargs, types, 0, NULL))),
      ttNamedAttr(ctx, "gpu.kernel", mlirUnitAttrGet(ctx)),
      ttNamedAttr(ctx, "known_block_size", mlirDenseI32ArrayGet(ctx, 3, bs)),
      ttNamedAttr(ctx, "nvvm.minctasm", ttIntAttr(ctx, ctasPerSm(&l), ttI32(ctx))),
      /* the llvm.func's (gpu-to-ptx moves them there: a gpu.func cannot carry them) */
      ttNamedAttr(ctx, "tt.llvm_arg_attrs", mlirArrayAttrGet(ctx, nargs, argAttrs)),
  };
  MlirOperation gfunc = ttOpCreate("gpu.func", l.loc, 0, NULL, 0, NULL, 6, attrs, 1, &region);
  l.gpuModule = gpuModule(module);
  mlirBlockAppendOwnedOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(l.gpuModule, 0)),
                                gfunc);
  for (intptr_t i = 0; i < nargs; i++) {
    Lowered *x = define(&l, mlirBlockGetArgument(tbody, i));
    x->parts[0] = mlirBlockGetArgument(body, i);
  }
  free(types);
  free(locs);
  free(argAttrs);

  /* Step 2. */
  l.b = ttBuilderAtEnd(body);
  l.tid = gpuIndex(&l, "gpu.thread_id", 0);
  l.dynamic = sc.tma || sc.dotBytes > TT_SMEM_LIMIT; /* past the static 48 KiB */
  for (intptr_t i = 0; i < nargs; i++) /* thread 0 fetches the tensor maps early */
    if (mlirTypeEqual(mlirValueGetType(mlirBlockGetArgument(tbody, i)), tmaDesc)) {
      TtBuilder outer = l.b;
      MlirBlock then = thread0(&l, (MlirValue){NULL});
      l.b = (TtBuilder){then, mlirBlockGetTerminator(then)};
      build(&l, "nvvm.prefetch", 1, (MlirValue[]){mlirBlockGetArgument(body, i)}, ttNoType(), 2,
            (MlirNamedAttribute[]){ttNamedAttr(ctx, "tensormap", mlirUnitAttrGet(ctx)),
                                    ttNamedAttr(ctx, "in_param_space", mlirUnitAttrGet(ctx))});
      l.b = outer;
    }
  if (l.dynamic) { /* the dynamic buffer's start, rounded up to 1024 bytes */
    MlirValue p = sharedAddress(&l, l.smemName);
    MlirValue a = build(&l, "llvm.ptrtoint", 1, &p, ttI32(ctx), 0, NULL);
    a = arc(&l, "arith.andi", arc(&l, "arith.addi", a, 1023), ~(int64_t)1023);
    l.base = build(&l, "llvm.inttoptr", 1, &a, mlirTypeParseGet(ctx, ttStrRef("!llvm.ptr<3>")), 0, NULL);
  }
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(tbody); ok && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    ok = lowerOp(&l, op);
  if (ok && l.dynamic) { /* TMA rings or large dot tiles: dynamic, its size (and the
                          * alignment slack) to the metadata */
    sharedGlobal(&l, l.smemName, 0, 1024, true);
    mlirOperationSetAttributeByName(gfunc, ttStrRef("tt.dynamic_shared"),
                                    ttIntAttr(ctx, l.smemBytes + 1024, ttI32(ctx)));
  } else if (ok && l.smemBytes) /* step 5's buffer, now that its size is known */
    sharedGlobal(&l, l.smemName, l.smemBytes, l.smemAlign ? 1024 : 16, false);
  if (ok && l.pdl) /* for the metadata: a `pdl` launch */
    mlirOperationSetAttributeByName(gfunc, ttStrRef("tt.pdl"), mlirUnitAttrGet(ctx));
  for (int i = 0; i < l.nvals; i++)
    free(l.vals[i]);
  free(l.vals);
  if (!ok)
    mlirOperationDestroy(gfunc);
  return ok;
}

bool ttConvertTileToGpu(MlirModule module, const TtPassOptions *opts) {
  MlirBlock body = mlirModuleGetBody(module);
  MlirOperation op = mlirBlockGetFirstOperation(body);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (ttOpIs(op, "func.func") && !mlirAttributeIsNull(ttOpAttr(op, "tile.kernel"))) {
      if (!lowerKernel(module, op, opts))
        return false;
      mlirOperationDestroy(op); /* step 4 */
    }
    op = next;
  }
  return true;
}
