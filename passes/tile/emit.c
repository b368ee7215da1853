/* emit.c - --tile's elementwise emission: the value of a group at a tile of offsets.
 *
 * Every kernel kind computes its result (an elementwise group's value, a row group's
 * output, a dot group's epilogue) by one recursion over the fused function's prim ops,
 * given the offsets `offs` and the mask of the elements a program computes (Emit, in
 * tile.h). This is step 4 of kernel.c's algorithm, and step 5's load scheduling:
 *  4. Emit the returned value at the offsets `offs` by recursion over its producers,
 *     memoized on (value, offsets) (a hash of the values, with each value's entries
 *     chained: O(1) a lookup):
 *     - a function argument is a `tile.load` of its pointer at the offsets (masked);
 *     - elementwise ops become arith/math ops on tiles, computing f16/bf16 in f32 (the
 *       dtype policy of PyTorch's own kernels); a `convert` to f16/bf16 rounds there.
 *       Float ops carry `fastmath<contract>` (a*b+c may become one fma, as nvcc and
 *       Triton allow); when the kernel's result is stored as f16/bf16 (or the op's own
 *       result is f16/bf16) they also carry `afn`: the value needs only 16-bit accuracy, so
 *       exp, division and tanh may use the GPU's approximate instructions (relative error
 *       ~1e-6, 1e-4 for tanh) instead of libdevice's f32-exact functions (not pow, sin
 *       and cos, whose approximate forms fail on negative bases and large angles);
 *     - an elementwise op whose operands are all uniform (tile.splat of a per-row value,
 *       or a constant) is computed once on scalars and splat; with `afn`, x / uniform s
 *       becomes x * (1 / s): one division per row instead of one per element; 1 + tanh(v)
 *       is computed as 2 / (1 + 2^(-2 log2(e) v)) (onePlusTanhOf);
 *     - broadcast_in_dim maps the offsets to the operand's (divide and remainder by the
 *       result's strides, multiply by the operand's), then recurses;
 *     - data movement (slice, concat, index_select, gather, pad, iota) maps the offsets
 *       to its operands' and emits them there (move.c, tileEmitMove): a load at mapped
 *       offsets, not a kernel;
 *     - transpose maps the offsets too: result index i_d times the operand's stride of
 *       dim perm[d] (transposeOffsets): a row copy (the last dim kept) is a coalesced
 *       load; the permute kernel memoizes its exchanged tile, so this gather is only the
 *       general fallback;
 *     - reshape keeps the offsets (row-major order is unchanged);
 *     - constants become splat arith.constant tiles;
 *     - in a row kernel that holds its whole row, a reduction is computed where first
 *       used (tile.reduce of the masked row) and memoized for the row; argmax/argmin
 *       likewise, as the max (min) then the least column holding it (emitArgReduction).
 *  5b. Move every tile.load (and the index math it needs) ahead of the math
 *     (tileLoadsFirst), so all loads are in flight at once; but a load whose offsets do not
 *     depend on the program id (a row kernel's weight or bias vector, which every program
 *     reads, from L2) stays at its first use: hoisted, its registers would be held across
 *     the row's reductions, and fewer programs would fit an SM.
 */
#include "tile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

MlirType tileComputeType(const Emit *e, MlirType elem) {
  return ttTypeIsHalf(elem) || (ttTypeIsFp8(elem) && !e->rawFp8) ? mlirF32TypeGet(e->ctx) : elem;
}

MlirValue tileRoundTo(Emit *e, MlirValue v, MlirType oelem) {
  if (mlirTypeEqual(ttElementType(mlirValueGetType(v)), oelem))
    return v;
  if (ttTypeIsFp8(oelem) && mlirValueIsAOpResult(v) &&
      ttOpIs(mlirOpResultGetOwner(v), "arith.extf")) {
    MlirValue w = mlirOperationGetOperand(mlirOpResultGetOwner(v), 0);
    if (mlirTypeEqual(ttElementType(mlirValueGetType(w)), oelem))
      return w; /* a convert's truncf-extf pair: already rounded */
  }
  return tileOp1(e, "arith.truncf", v, tileOf(e, oelem));
}

MlirType tileOf(Emit *e, MlirType elem) {
  return mlirRankedTensorTypeGet(1, &e->block, elem, mlirAttributeGetNull());
}

MlirValue tileOp1(Emit *e, const char *name, MlirValue a, MlirType t) {
  return ttBuild(&e->b, name, e->loc, 1, &a, t, 0, NULL);
}

MlirValue tileOp2(Emit *e, const char *name, MlirValue a, MlirValue c, MlirType t) {
  MlirValue ops[2] = {a, c};
  return ttBuild(&e->b, name, e->loc, 2, ops, t, 0, NULL);
}

MlirValue tileSplatI32(Emit *e, int64_t v) {
  return ttConstInt(&e->b, e->loc, tileOf(e, ttI32(e->ctx)), v);
}

MlirValue tileCmpf(Emit *e, int pred, MlirValue a, MlirValue b) {
  MlirNamedAttribute p = ttNamedAttr(
      e->ctx, "predicate", mlirIntegerAttrGet(mlirIntegerTypeGet(e->ctx, 64), pred));
  return ttBuild(&e->b, "arith.cmpf", e->loc, 2, (MlirValue[]){a, b},
                 tileOf(e, mlirIntegerTypeGet(e->ctx, 1)), 1, &p);
}

/* arith.cmpi `pred` of two i32 tiles (an i1 tile of their shape). */
MlirValue tileCmp(Emit *e, int pred, MlirValue a, MlirValue b) {
  MlirValue ops[2] = {a, b};
  MlirNamedAttribute p = ttNamedAttr(
      e->ctx, "predicate", mlirIntegerAttrGet(mlirIntegerTypeGet(e->ctx, 64), pred));
  MlirType t = mlirValueGetType(a);
  int64_t shape[TT_MAX_RANK];
  intptr_t rank = ttTensorShape(t, shape);
  MlirType i1 = mlirRankedTensorTypeGet(rank, shape, mlirIntegerTypeGet(e->ctx, 1),
                                        mlirAttributeGetNull());
  return ttBuild(&e->b, "arith.cmpi", e->loc, 2, ops, i1, 1, &p);
}

MlirValue tileLoadMask(Emit *e, MlirValue offs) {
  if (!mlirValueIsNull(e->loadMask) && mlirValueEqual(offs, e->offs) &&
      mlirValueEqual(e->mask, e->rowMask))
    return e->loadMask;
  return e->mask;
}

MlirValue tileRowLoad(Emit *e, MlirValue ptr, MlirValue offs, MlirValue other) {
  MlirValue m = tileLoadMask(e, offs);
  MlirValue x = ttBuild(&e->b, "tile.load", e->loc, 4, (MlirValue[]){ptr, offs, m, other},
                        mlirValueGetType(other), 0, NULL);
  if (!mlirValueIsNull(e->loadMask) && mlirValueEqual(m, e->loadMask))
    mlirOperationSetAttributeByName(mlirOpResultGetOwner(x), ttStrRef("tile.early"),
                                    mlirUnitAttrGet(e->ctx));
  return x;
}

/* Loads input `idx` (kernel argument idx) at offs, in its compute type: from its slot of
 * shared memory where a staged row's chunk is read at its own offsets (rows.c, 3'; the
 * copy zero-filled the lanes past the row, as the load's `other`). */
static MlirValue emitLoad(Emit *e, int idx, MlirValue offs) {
  MlirValue ptr = mlirBlockGetArgument(e->kernel, idx);
  MlirType elem = ttElementType(mlirValueGetType(e->inputs[idx]));
  MlirType t = tileOf(e, elem);
  MlirValue x;
  if (e->stageBuf && !mlirValueIsNull(e->stageBuf[idx]) && mlirValueEqual(offs, e->offs) &&
      !mlirValueIsNull(e->stageSlot)) {
    x = ttBuild(&e->b, "tile.local_load", e->loc, 2, (MlirValue[]){e->stageBuf[idx], e->stageSlot},
                t, 0, NULL);
  } else {
    x = tileRowLoad(e, ptr, offs, ttConstSplat(&e->b, e->loc, t, 0.0));
  }
  MlirType ce = tileComputeType(e, elem);
  if (!mlirTypeEqual(ce, elem))
    x = tileOp1(e, "arith.extf", x, tileOf(e, ce));
  return x;
}

/* The arith/math op computing a unary or binary prim op on floats. */
static const char *floatOpName(const char *prim) {
  static const char *map[][2] = {
      {"neg", "arith.negf"},   {"abs", "math.absf"},    {"exp", "math.exp"},
      {"exp2", "math.exp2"},   {"log", "math.log"},     {"sqrt", "math.sqrt"},
      {"rsqrt", "math.rsqrt"}, {"tanh", "math.tanh"},   {"erf", "math.erf"},
      {"sin", "math.sin"},     {"cos", "math.cos"},     {"add", "arith.addf"},
      {"sub", "arith.subf"},   {"mul", "arith.mulf"},   {"div", "arith.divf"},
      {"max", "arith.maximumf"}, {"min", "arith.minimumf"}, {"pow", "math.powf"},
  };
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strcmp(map[i][0], prim) == 0)
      return map[i][1];
  return NULL;
}

/* arith.cmpf predicate for a prim.compare direction; -1 when unknown. */
static int cmpfPredicate(const char *dir) {
  static const struct {
    const char *dir;
    int pred;
  } map[] = {{"eq", 1}, {"gt", 2}, {"ge", 3}, {"lt", 4}, {"le", 5}, {"ne", 13}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strcmp(map[i].dir, dir) == 0)
      return map[i].pred;
  return -1;
}

/* True when broadcast_in_dim op maps a dynamic operand dim to a static result dim. */
static bool dynamicIntoStatic(MlirOperation op) {
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  MlirType xt = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirAttribute dims = ttOpAttr(op, "broadcast_dimensions");
  int64_t rs[TT_MAX_RANK], xs[TT_MAX_RANK];
  int64_t rr = ttTensorShape(rt, rs), xr = ttTensorShape(xt, xs);
  for (int64_t i = 0; i < xr && i < mlirDenseArrayGetNumElements(dims); i++) {
    int64_t d = mlirDenseI64ArrayGetElement(dims, i);
    if (xs[i] < 0 && d >= 0 && d < rr && rs[d] >= 0)
      return true;
  }
  return false;
}

/* Offsets into broadcast_in_dim's operand for offsets `offs` into its result. */
static MlirValue broadcastOffsets(Emit *e, MlirOperation op, MlirValue offs) {
  int64_t rs[TT_MAX_RANK], xs[TT_MAX_RANK];
  int64_t rr = ttTensorShape(mlirValueGetType(mlirOperationGetResult(op, 0)), rs);
  int64_t xr = ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 0)), xs);
  MlirAttribute dims = ttOpAttr(op, "broadcast_dimensions");
  int64_t rstride[TT_MAX_RANK], xstride[TT_MAX_RANK];
  rstride[rr - 1 >= 0 ? rr - 1 : 0] = 1;
  for (int64_t d = rr - 2; d >= 0; d--)
    rstride[d] = rstride[d + 1] * rs[d + 1];
  if (xr > 0)
    xstride[xr - 1] = 1;
  for (int64_t d = xr - 2; d >= 0; d--)
    xstride[d] = xstride[d + 1] * xs[d + 1];
  MlirType it = tileOf(e, ttI32(e->ctx));
  MlirValue sum = {NULL}; /* no term: a broadcast scalar, offset 0 */
  for (int64_t i = 0; i < xr; i++) {
    if (xs[i] == 1)
      continue;
    int64_t d = mlirDenseI64ArrayGetElement(dims, i);
    MlirValue c = offs;
    if (e->rowMode && d == rr - 1 && rs[d] == e->rowLen && mlirValueEqual(offs, e->offs)) {
      c = e->cols; /* along the row: the column itself (a weight, a bias) */
      if (xstride[i] != 1)
        c = tileOp2(e, "arith.muli", c, tileSplatI32(e, xstride[i]), it);
      sum = mlirValueIsNull(sum) ? c : tileOp2(e, "arith.addi", sum, c, it);
      continue;
    }
    if (rstride[d] != 1)
      c = tileOp2(e, "arith.divui", c, tileSplatI32(e, rstride[d]), it);
    if (d != 0)
      c = tileOp2(e, "arith.remui", c, tileSplatI32(e, rs[d]), it);
    if (xstride[i] != 1)
      c = tileOp2(e, "arith.muli", c, tileSplatI32(e, xstride[i]), it);
    sum = mlirValueIsNull(sum) ? c : tileOp2(e, "arith.addi", sum, c, it);
  }
  return mlirValueIsNull(sum) ? tileSplatI32(e, 0) : sum;
}

/* Offsets into transpose's operand for offsets `offs` into its result: result index i_d
 * (as in move.c's sliceOffsets) times the operand's stride of dim perm[d]. A transpose that keeps
 * the last dim (a row copy) reads contiguous rows: coalesced; any other is a gather (the
 * permute kernel, permute.c, memoizes its transposed tile instead). */
static MlirValue transposeOffsets(Emit *e, MlirOperation op, MlirValue offs) {
  int64_t rs[TT_MAX_RANK], xs[TT_MAX_RANK], perm[TT_MAX_RANK];
  int64_t r = ttTensorShape(mlirValueGetType(mlirOperationGetResult(op, 0)), rs);
  ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 0)), xs);
  ttPrimPermutation(op, perm);
  int64_t rstride[TT_MAX_RANK], xstride[TT_MAX_RANK];
  for (int64_t d = r - 1; d >= 0; d--) {
    rstride[d] = d == r - 1 ? 1 : rstride[d + 1] * rs[d + 1];
    xstride[d] = d == r - 1 ? 1 : xstride[d + 1] * xs[d + 1];
  }
  MlirType it = tileOf(e, ttI32(e->ctx));
  MlirValue sum = {NULL};
  for (int64_t d = 0; d < r; d++) {
    if (rs[d] == 1)
      continue;
    MlirValue c = offs;
    if (rstride[d] != 1)
      c = tileOp2(e, "arith.divui", c, tileSplatI32(e, rstride[d]), it);
    if (d != 0)
      c = tileOp2(e, "arith.remui", c, tileSplatI32(e, rs[d]), it);
    if (xstride[perm[d]] != 1)
      c = tileOp2(e, "arith.muli", c, tileSplatI32(e, xstride[perm[d]]), it);
    sum = mlirValueIsNull(sum) ? c : tileOp2(e, "arith.addi", sum, c, it);
  }
  return mlirValueIsNull(sum) ? tileSplatI32(e, 0) : sum;
}

Combiner tileCombinerOf(MlirOperation op) {
  char name[16];
  ttPrimShortName(op, name, sizeof name);
  if (strcmp(name, "amax") == 0 || strcmp(name, "argmax") == 0)
    return (Combiner){"max", "arith.maximumf", -INFINITY};
  if (strcmp(name, "amin") == 0 || strcmp(name, "argmin") == 0)
    return (Combiner){"min", "arith.minimumf", INFINITY};
  return (Combiner){"sum", "arith.addf", 0.0};
}

/* x (a tile of type ct) with the lanes outside the mask replaced by c's identity. */
MlirValue tileMaskedToIdentity(Emit *e, MlirValue x, Combiner c, MlirType ct) {
  MlirValue sel[3] = {e->mask, x, ttConstSplat(&e->b, e->loc, ct, c.identity)};
  return ttBuild(&e->b, "arith.select", e->loc, 3, sel, ct, 0, NULL);
}

MlirValue tileReduce(Emit *e, MlirValue x, const char *kind) {
  MlirNamedAttribute attrs[2] = {
      ttNamedAttr(e->ctx, "axis", ttIntAttr(e->ctx, 0, ttI32(e->ctx))),
      ttNamedAttr(e->ctx, "kind", ttStrAttr(e->ctx, kind)),
  };
  MlirType et = mlirShapedTypeGetElementType(mlirValueGetType(x));
  return ttBuild(&e->b, "tile.reduce", e->loc, 1, &x, et, 2, attrs);
}

/* tile.reduce of x to one scalar, splat back to a tile of type ct for its users. */
MlirValue tileReduceToSplat(Emit *e, MlirValue x, Combiner c, MlirType ct) {
  MlirType et = mlirShapedTypeGetElementType(ct);
  MlirValue r = tileReduce(e, x, c.kind);
  if (e->cluster > 1) { /* a row split over a cluster: combine the blocks' parts */
    MlirNamedAttribute cattrs[2] = {
        ttNamedAttr(e->ctx, "kind", ttStrAttr(e->ctx, c.kind)),
        ttNamedAttr(e->ctx, "size", ttIntAttr(e->ctx, e->cluster, ttI32(e->ctx))),
    };
    r = ttBuild(&e->b, "tile.cluster_reduce", e->loc, 1, &r, et, 2, cattrs);
  }
  return tileOp1(e, "tile.splat", r, ct);
}

/* A row reduction in a row kernel that holds its whole row: the reduced value does not
 * depend on where it is used. Its operand is emitted at the row's offsets, the masked-off
 * lanes replaced by the identity of the combiner, and reduced. (A looped row kernel
 * computes its reductions before the output, level by level: see emitLevels.) */
static MlirValue emitRowReduction(Emit *e, MlirOperation op, MlirType ct) {
  MlirValue none = {NULL};
  char name[16];
  ttPrimShortName(op, name, sizeof name);
  if (!e->rowMode || e->looped || !mlirTypeIsAFloat(mlirShapedTypeGetElementType(ct))) {
    ttEmitError(op, "tile: 'prim.%s' is only supported over the last dimension of f32, "
                    "f16 or bf16 rows in a row kernel",
                name);
    e->failed = true;
    return none;
  }
  MlirValue x = tileEmitValue(e, mlirOperationGetOperand(op, 0), e->offs);
  if (e->failed)
    return none;
  Combiner c = tileCombinerOf(op);
  return tileReduceToSplat(e, tileMaskedToIdentity(e, x, c, ct), c, ct);
}

MlirValue tileArgCandidate(Emit *e, MlirValue x, MlirValue m, MlirValue col) {
  MlirType ft = tileOf(e, mlirF32TypeGet(e->ctx)), i1 = tileOf(e, mlirIntegerTypeGet(e->ctx, 1));
  MlirValue eq = tileCmpf(e, CMPF_OEQ, x, m);
  MlirValue hit = tileOp2(e, "arith.ori", eq, tileCmpf(e, CMPF_UNO, x, x), i1);
  if (mlirValueIsNull(col)) { /* the row's own lanes, under its mask */
    hit = tileOp2(e, "arith.andi", hit, e->mask, i1);
    col = tileOp1(e, "arith.uitofp", e->cols, ft);
  }
  MlirValue sel[3] = {hit, col, ttConstSplat(&e->b, e->loc, ft, (double)e->rowLen)};
  return ttBuild(&e->b, "arith.select", e->loc, 3, sel, ft, 0, NULL);
}

/* argmax/argmin over the row (a row kernel holding its whole row): m = the row's max (min;
 * NaN-propagating, so a NaN anywhere makes m NaN), then the least column c whose element
 * is m or NaN: min over the masked row of (x == m || x != x ? c : N), in f32 (exact for
 * rows below 2^24: the on-chip rows are at most 32768). So ties give the first index and a
 * NaN counts as the max (min), as PyTorch's argmax (argmin). The index, converted to the
 * result's integer type, is one value per row. */
static MlirValue emitArgReduction(Emit *e, MlirOperation op, MlirType ct) {
  MlirValue none = {NULL};
  char name[16];
  ttPrimShortName(op, name, sizeof name);
  MlirType xelem = ttElementType(mlirValueGetType(mlirOperationGetOperand(op, 0)));
  if (!e->rowMode || !mlirTypeIsAFloat(xelem) || /* looped: rows.c, step 4a'' */
      !mlirTypeIsAInteger(mlirShapedTypeGetElementType(ct)) || e->looped) {
    ttEmitError(op, "tile: 'prim.%s' is only supported over the last dimension of f32, "
                    "f16 or bf16 rows in a row kernel, into i32 or i64",
                name);
    e->failed = true;
    return none;
  }
  MlirValue x = tileEmitValue(e, mlirOperationGetOperand(op, 0), e->offs);
  if (e->failed)
    return none;
  MlirType xt = mlirValueGetType(x), f32 = mlirF32TypeGet(e->ctx);
  Combiner c = tileCombinerOf(op);
  MlirValue m = tileReduceToSplat(e, tileMaskedToIdentity(e, x, c, xt), c, xt);
  MlirValue cand = tileArgCandidate(e, x, m, (MlirValue){NULL});
  MlirNamedAttribute attrs[2] = {
      ttNamedAttr(e->ctx, "axis", ttIntAttr(e->ctx, 0, ttI32(e->ctx))),
      ttNamedAttr(e->ctx, "kind", ttStrAttr(e->ctx, "min")),
  };
  MlirValue idx = ttBuild(&e->b, "tile.reduce", e->loc, 1, &cand, f32, 2, attrs);
  MlirType it = mlirShapedTypeGetElementType(ct);
  return tileOp1(e, "tile.splat", ttBuild(&e->b, "arith.fptosi", e->loc, 1, &idx, it, 0, NULL),
                 ct);
}

/* True when tile v holds one value in every element: a tile.splat or a splat constant. */
static bool isUniform(MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  MlirAttribute a = ttOpAttr(def, "value");
  return ttOpIs(def, "tile.splat") ||
         (ttOpIs(def, "arith.constant") && mlirAttributeIsADenseElements(a) &&
          mlirDenseElementsAttrIsSplat(a));
}

/* The scalar a uniform tile v holds (a splat constant is made here as a scalar one). */
static MlirValue scalarOf(Emit *e, MlirValue v) {
  MlirOperation def = mlirOpResultGetOwner(v);
  if (ttOpIs(def, "tile.splat"))
    return mlirOperationGetOperand(def, 0);
  MlirAttribute x = mlirDenseElementsAttrGetSplatValue(ttOpAttr(def, "value"));
  MlirNamedAttribute va = ttNamedAttr(e->ctx, "value", x);
  return ttBuild(&e->b, "arith.constant", e->loc, 0, NULL, mlirAttributeGetType(x), 1, &va);
}

/* True when v is computed from reductions and constants only: in a row kernel, one value
 * per row, the same wherever it is used. */
static bool isPerRow(MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  TtPrimKind k = ttPrimKind(def);
  if (k == TT_PRIM_REDUCTION || k == TT_PRIM_ARGREDUCE || k == TT_PRIM_CONSTANT)
    return true;
  if (k != TT_PRIM_UNARY && k != TT_PRIM_BINARY && k != TT_PRIM_CONVERT)
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(def); i++)
    if (!isPerRow(mlirOperationGetOperand(def, i)))
      return false;
  return true;
}

/* True when every use of v ends, through elementwise math, in a rounding to f16, bf16 or
 * fp8 (a convert, or a returned value of such a type), so that v needs no more than their
 * accuracy: x / s quantized to fp8 in a kernel whose s, an f32 result, stays exact (a
 * comparison or a reduction of v needs it exact). The walk is bounded (*budget uses, at
 * most `depth` ops deep: a wide fan-out answers false, it does not blow up). */
#define NARROW_WALK_USES 64
static bool feedsNarrowOnly(MlirValue v, int depth, int *budget) {
  bool any = false;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    if (--*budget < 0)
      return false;
    MlirOperation user = mlirOpOperandGetOwner(u);
    MlirType vt = ttElementType(mlirValueGetType(v));
    TtPrimKind k = ttPrimKind(user);
    if (ttOpIs(user, "func.return")) {
      if (!ttTypeIsHalf(vt) && !ttTypeIsFp8(vt))
        return false;
    } else if (k == TT_PRIM_CONVERT) {
      MlirType rt = ttElementType(mlirValueGetType(mlirOperationGetResult(user, 0)));
      if (!ttTypeIsHalf(rt) && !ttTypeIsFp8(rt) &&
          (depth == 0 || !feedsNarrowOnly(mlirOperationGetResult(user, 0), depth - 1, budget)))
        return false;
    } else if (k == TT_PRIM_UNARY || k == TT_PRIM_BINARY || k == TT_PRIM_BROADCAST ||
               k == TT_PRIM_RESHAPE) {
      if (depth == 0 || !feedsNarrowOnly(mlirOperationGetResult(user, 0), depth - 1, budget))
        return false;
    } else {
      return false;
    }
    any = true;
  }
  return any;
}

/* The operand v of `1 + tanh(v)` (either order) when prim op `op` is that sum, else
 * null: emitOp computes it as 2 / (1 + 2^(-2 log2(e) v)), the same value (2 sigmoid(2 v)),
 * the factor of GELU's tanh form. It keeps its accuracy where tanh(v) nears -1 (GELU of x
 * below about -2, where 1 + tanh(v) cancels: an approximate tanh's error of ~5e-4 there
 * is a ~4% error in the small result, bench/2026-11-28-h200-rows.md run 4), and with
 * `afn` costs an ex2 and a reciprocal (one MUFU op each) and two adds and multiplies,
 * where the tanh costs the lowering's nine instructions and an add. */
static MlirValue onePlusTanhOf(MlirOperation op) {
  char name[16];
  ttPrimShortName(op, name, sizeof name);
  if (strcmp(name, "add") != 0)
    return (MlirValue){NULL};
  for (int i = 0; i < 2; i++) {
    MlirValue c = mlirOperationGetOperand(op, i), t = mlirOperationGetOperand(op, 1 - i);
    double one;
    if (!mlirValueIsAOpResult(c) || !mlirValueIsAOpResult(t))
      continue;
    MlirOperation cdef = mlirOpResultGetOwner(c), tdef = mlirOpResultGetOwner(t);
    char tname[16];
    ttPrimShortName(tdef, tname, sizeof tname);
    if (ttPrimKind(cdef) == TT_PRIM_CONSTANT && ttPrimSplatValue(cdef, &one) && one == 1.0 &&
        ttPrimKind(tdef) == TT_PRIM_UNARY && strcmp(tname, "tanh") == 0)
      return mlirOperationGetOperand(tdef, 0);
  }
  return (MlirValue){NULL};
}

/* Emits prim op `op` (one result) at offsets offs. */
static MlirValue emitOp(Emit *e, MlirOperation op, MlirValue offs) {
  char name[64];
  ttPrimShortName(op, name, sizeof name);
  MlirType rtype = mlirValueGetType(mlirOperationGetResult(op, 0));
  MlirType relem = ttElementType(rtype);
  MlirType ct = tileOf(e, tileComputeType(e, relem));
  TtPrimKind kind = ttPrimKind(op);
  bool isFloat = mlirTypeIsAFloat(relem);
  MlirValue none = {NULL};

  switch (kind) {
  case TT_PRIM_UNARY:
  case TT_PRIM_BINARY: {
    if (!isFloat)
      break;
    MlirValue tanhArg = onePlusTanhOf(op); /* 1 + tanh(v): its v alone is emitted */
    MlirValue first = mlirValueIsNull(tanhArg) ? mlirOperationGetOperand(op, 0) : tanhArg;
    MlirValue ops[2] = {tileEmitValue(e, first, offs), none};
    const char *arith = floatOpName(name);
    intptr_t n = kind == TT_PRIM_UNARY ? 1 : 2;
    if (strcmp(name, "reciprocal") == 0) {
      ops[1] = ops[0];
      ops[0] = ttConstSplat(&e->b, e->loc, ct, 1.0);
      arith = "arith.divf";
      n = 2;
    } else if (n == 2 && mlirValueIsNull(tanhArg)) {
      ops[1] = tileEmitValue(e, mlirOperationGetOperand(op, 1), offs);
    }
    if (e->failed)
      return none;
    /* pow, sin and cos stay exact: the approximate forms are wrong, not just coarse
     * (pow as exp2(y * log2(x)) is NaN for a negative base; sin.approx/cos.approx lose
     * all accuracy past |x| ~ 100 pi, where rotary embeddings' angles lie) */
    int budget = NARROW_WALK_USES;
    bool approx = (e->halfOutput || ttTypeIsHalf(relem) ||
                   feedsNarrowOnly(mlirOperationGetResult(op, 0), 8, &budget)) &&
                  strcmp(name, "pow") != 0 && strcmp(name, "sin") != 0 &&
                  strcmp(name, "cos") != 0;
    MlirNamedAttribute fm = ttFastmath(e->ctx, approx ? "contract,afn" : "contract");
    if (!mlirValueIsNull(tanhArg)) { /* 1 + tanh(v) as 2 / (1 + 2^(-2 log2(e) v)) */
      MlirValue m2[2] = {ops[0], ttConstSplat(&e->b, e->loc, ct, -2.0 * 1.4426950408889634)};
      MlirValue x = ttBuild(&e->b, "arith.mulf", e->loc, 2, m2, ct, 1, &fm);
      MlirValue den[2] = {ttConstSplat(&e->b, e->loc, ct, 1.0),
                          ttBuild(&e->b, "math.exp2", e->loc, 1, &x, ct, 1, &fm)};
      MlirValue q[2] = {ttConstSplat(&e->b, e->loc, ct, 2.0),
                        ttBuild(&e->b, "arith.addf", e->loc, 2, den, ct, 1, &fm)};
      return ttBuild(&e->b, "arith.divf", e->loc, 2, q, ct, 1, &fm);
    }
    /* Uniform operands (one value per row, constants): compute once on scalars. */
    MlirType st = mlirShapedTypeGetElementType(ct);
    if (isUniform(ops[0]) && (n == 1 || isUniform(ops[1]))) {
      MlirValue sc[2] = {scalarOf(e, ops[0]), n == 2 ? scalarOf(e, ops[1]) : none};
      return tileOp1(e, "tile.splat", ttBuild(&e->b, arith, e->loc, n, sc, st, 1, &fm), ct);
    }
    /* x / uniform s, approximate: one reciprocal per row, a multiply per element */
    if (approx && strcmp(arith, "arith.divf") == 0 && isUniform(ops[1])) {
      MlirValue rc[2] = {ttConstSplat(&e->b, e->loc, st, 1.0), scalarOf(e, ops[1])};
      MlirValue recip = ttBuild(&e->b, "arith.divf", e->loc, 2, rc, st, 1, &fm);
      ops[1] = tileOp1(e, "tile.splat", recip, ct);
      arith = "arith.mulf";
    }
    return ttBuild(&e->b, arith, e->loc, n, ops, ct, 1, &fm);
  }
  case TT_PRIM_COMPARE: {
    char dir[16] = "";
    ttOpAttrStr(op, "direction", dir, sizeof dir);
    int pred = cmpfPredicate(dir);
    MlirType lt = ttElementType(mlirValueGetType(mlirOperationGetOperand(op, 0)));
    if (pred < 0) {
      ttEmitError(op, "tile: unknown comparison direction '%s' (eq ne lt le gt ge)", dir);
      e->failed = true;
      return none;
    }
    if (!mlirTypeIsAFloat(lt))
      break;
    MlirValue ops[2] = {tileEmitValue(e, mlirOperationGetOperand(op, 0), offs),
                        tileEmitValue(e, mlirOperationGetOperand(op, 1), offs)};
    if (e->failed)
      return none;
    MlirNamedAttribute attr = ttNamedAttr(
        e->ctx, "predicate", mlirIntegerAttrGet(mlirIntegerTypeGet(e->ctx, 64), pred));
    return ttBuild(&e->b, "arith.cmpf", e->loc, 2, ops, ct, 1, &attr);
  }
  case TT_PRIM_WHERE: {
    MlirValue ops[3];
    for (int i = 0; i < 3; i++)
      ops[i] = tileEmitValue(e, mlirOperationGetOperand(op, i), offs);
    if (e->failed)
      return none;
    return ttBuild(&e->b, "arith.select", e->loc, 3, ops, ct, 0, NULL);
  }
  case TT_PRIM_CONVERT: {
    MlirValue src = mlirOperationGetOperand(op, 0);
    MlirType selem = ttElementType(mlirValueGetType(src));
    /* an integer iota converted to a float: the index, made in f32 */
    bool iota = !mlirTypeIsAFloat(selem) && mlirValueIsAOpResult(src) &&
                ttPrimKind(mlirOpResultGetOwner(src)) == TT_PRIM_IOTA;
    if (!isFloat || (!mlirTypeIsAFloat(selem) && !iota))
      break;
    if (iota)
      selem = mlirF32TypeGet(e->ctx);
    MlirValue x = iota ? tileEmitIota(e, mlirOpResultGetOwner(src), offs, tileOf(e, selem))
                       : tileEmitValue(e, src, offs);
    if (e->failed)
      return none;
    MlirType sct = tileComputeType(e, selem), dct = tileComputeType(e, relem);
    int sw = (int)mlirFloatTypeGetWidth(sct), dw = (int)mlirFloatTypeGetWidth(dct);
    if (sw > dw)
      x = tileOp1(e, "arith.truncf", x, ct);
    else if (sw < dw)
      x = tileOp1(e, "arith.extf", x, ct);
    if (!mlirTypeEqual(dct, relem)) /* round to the narrow type, keep computing in f32 */
      x = tileOp1(e, "arith.extf", tileOp1(e, "arith.truncf", x, tileOf(e, relem)), ct);
    return x;
  }
  case TT_PRIM_REDUCTION:
    return emitRowReduction(e, op, ct);
  case TT_PRIM_ARGREDUCE:
    return emitArgReduction(e, op, ct);
  case TT_PRIM_BROADCAST: {
    MlirValue x = mlirOperationGetOperand(op, 0);
    if (dynamicIntoStatic(op)) {
      ttEmitError(op, "tile: broadcast_in_dim of a dynamic dimension to a static size is not "
                      "supported (whether it broadcasts, size 1, or not is known at run time "
                      "only); give the operand's size, or keep the result's dimension dynamic");
      e->failed = true;
      return none;
    }
    if (e->rowMode && isPerRow(x))
      return tileEmitValue(e, x, none); /* one value per row: no offsets needed */
    return tileEmitValue(e, x, broadcastOffsets(e, op, offs));
  }
  case TT_PRIM_RESHAPE:
    return tileEmitValue(e, mlirOperationGetOperand(op, 0), offs);
  case TT_PRIM_SLICE:
  case TT_PRIM_CONCAT:
  case TT_PRIM_INDEX:
  case TT_PRIM_IOTA:
  case TT_PRIM_PAD:
    return tileEmitMove(e, op, offs);
  case TT_PRIM_TRANSPOSE:
    if (e->rowMode || ttPrimPermutation(op, (int64_t[TT_MAX_RANK]){0}) < 0 ||
        !mlirShapedTypeHasStaticShape(mlirValueGetType(mlirOperationGetOperand(op, 0)))) {
      ttEmitError(op, "tile: 'prim.transpose' is only supported in elementwise and permute "
                      "kernels, of static shapes");
      e->failed = true;
      return none;
    }
    return tileEmitValue(e, mlirOperationGetOperand(op, 0), transposeOffsets(e, op, offs));
  case TT_PRIM_CONSTANT: {
    double v;
    if (!ttPrimSplatValue(op, &v)) {
      ttEmitError(op, "tile: only splat constants can be tiled yet");
      e->failed = true;
      return none;
    }
    return ttConstSplat(&e->b, e->loc, ct, v);
  }
  default: {
    char full[64];
    ttEmitError(op, "tile: '%s' cannot be part of an elementwise kernel",
                ttOpName(op, full, sizeof full));
    e->failed = true;
    return none;
  }
  }
  ttEmitError(op, "tile: 'prim.%s' on %s elements is not supported by the elementwise "
                  "lowering yet",
              name, ttDtypeName(relem));
  e->failed = true;
  return none;
}

void tileMemoPut(Emit *e, MlirValue v, MlirValue offs, MlirValue r) {
  if (e->nmemo == e->capmemo) {
    e->capmemo = e->capmemo ? 2 * e->capmemo : 32;
    e->memo = ttRealloc(e->memo, sizeof(Memo) * (size_t)e->capmemo);
  }
  int prev = ttPtrIndexFind(&e->memoIndex, v.ptr);
  ttPtrIndexPut(&e->memoIndex, v.ptr, e->nmemo);
  e->memo[e->nmemo++] = (Memo){v, offs, r, prev};
}

void tileMemoTruncate(Emit *e, int n) {
  for (; e->nmemo > n; e->nmemo--) { /* the key's chain back to the entry before */
    Memo *m = &e->memo[e->nmemo - 1];
    ttPtrIndexPut(&e->memoIndex, m->key.ptr, m->prev);
  }
}

void tileMemoFree(Emit *e) {
  free(e->memo);
  ttPtrIndexDestroy(&e->memoIndex);
}

/* The first memo entry of v at offs (the chain of v's entries, walked to its start), or
 * -1. */
static int memoFind(const Emit *e, MlirValue v, MlirValue offs) {
  int found = -1;
  for (int i = ttPtrIndexFind(&e->memoIndex, v.ptr); i >= 0; i = e->memo[i].prev)
    if (mlirValueEqual(e->memo[i].offs, offs))
      found = i;
  return found;
}

void tileMemoSet(Emit *e, MlirValue v, MlirValue offs, MlirValue r) {
  int i = memoFind(e, v, offs);
  if (i >= 0)
    e->memo[i].result = r;
  else
    tileMemoPut(e, v, offs, r);
}

MlirValue tileEmitValue(Emit *e, MlirValue v, MlirValue offs) {
  MlirValue none = {NULL};
  if (e->failed)
    return none;
  if (mlirValueIsAOpResult(v) && (ttPrimKind(mlirOpResultGetOwner(v)) == TT_PRIM_REDUCTION ||
                                   ttPrimKind(mlirOpResultGetOwner(v)) == TT_PRIM_ARGREDUCE))
    offs = none; /* one value per row, wherever it is used */
  int memo = memoFind(e, v, offs);
  if (memo >= 0)
    return e->memo[memo].result;
  int input = -1;
  for (int i = 0; i < e->nin; i++)
    if (mlirValueEqual(e->inputs[i], v))
      input = i;
  /* what an op becomes is at its location (a later tool's errors name its line) */
  MlirLocation loc = e->loc;
  if (input < 0)
    e->loc = mlirOperationGetLocation(mlirOpResultGetOwner(v));
  MlirValue r = input >= 0 ? emitLoad(e, input, offs) : emitOp(e, mlirOpResultGetOwner(v), offs);
  e->loc = loc;
  if (e->failed)
    return none;
  tileMemoPut(e, v, offs, r);
  return r;
}

/* Step 5b: moves every tile.load whose offsets depend on the program id (programVaries),
 * with the ops its operands need (its backward slice in the block: an op is in it when a
 * later op of the block in it uses one of its results, found through its uses, O(uses)),
 * to the front of the body, keeping program order within each part. The program's own
 * loads then issue before any math, and the math lowers into one basic block. A load the
 * same for every program (offsets from constants and tile.range alone) stays where it is:
 * it is an L2 hit, and hoisted it would hold its registers across the row's reductions
 * (layer_norm's weight and bias: 110 registers a thread at 8192 columns, 2 programs an SM).
 * Block arguments of `body` count as varying unless it is the kernel's entry block (a
 * loop body's induction variable). */
static bool programVaries(MlirValue v, MlirBlock body, const bool *varies, const TtPtrIndex *index) {
  if (mlirValueIsABlockArgument(v))
    return mlirBlockEqual(mlirBlockArgumentGetOwner(v), body) &&
           !mlirOperationIsNull(mlirBlockGetParentOperation(body)) &&
           !ttOpIs(mlirBlockGetParentOperation(body), "func.func");
  int j = ttPtrIndexFind(index, mlirOpResultGetOwner(v).ptr);
  return j < 0 || varies[j]; /* defined outside the block: assume it varies */
}

void tileLoadsFirst(MlirBlock body) {
  int n = 0, cap = 64;
  MlirOperation *ops = ttAlloc(sizeof(MlirOperation) * (size_t)cap);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (n == cap)
      ops = ttRealloc(ops, sizeof(MlirOperation) * (size_t)(cap *= 2));
    ops[n++] = op;
  }
  bool *inSlice = ttAlloc(sizeof(bool) * (size_t)n), *varies = ttAlloc(sizeof(bool) * (size_t)n);
  TtPtrIndex index = {0}; /* op -> its position: each op's users looked up in O(1) */
  for (int i = 0; i < n; i++) {
    ttPtrIndexPut(&index, ops[i].ptr, i);
    varies[i] = ttOpIs(ops[i], "tile.program_id") || mlirOperationGetNumRegions(ops[i]) > 0;
    for (intptr_t o = 0; o < mlirOperationGetNumOperands(ops[i]) && !varies[i]; o++)
      varies[i] = programVaries(mlirOperationGetOperand(ops[i], o), body, varies, &index);
  }
  for (int i = n - 1; i >= 0; i--) {
    inSlice[i] = ttOpIs(ops[i], "tile.load") && varies[i];
    for (intptr_t r = 0; r < mlirOperationGetNumResults(ops[i]) && !inSlice[i]; r++)
      for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(ops[i], r));
           !mlirOpOperandIsNull(u) && !inSlice[i]; u = mlirOpOperandGetNextUse(u)) {
        int j = ttPtrIndexFind(&index, mlirOpOperandGetOwner(u).ptr); /* an op of the */
        inSlice[i] = j > i && inSlice[j];                               /* slice uses it */
      }
  }
  ttPtrIndexDestroy(&index);
  int anchor = 0;
  while (anchor < n && inSlice[anchor])
    anchor++;
  for (int i = anchor + 1; i < n; i++)
    if (inSlice[i])
      mlirOperationMoveBefore(ops[i], ops[anchor]);
  free(inSlice);
  free(varies);
  free(ops);
}
