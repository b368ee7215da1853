/* tile.c - the --tile pass: give each fused function a tile kernel.
 *
 * An elementwise group computes one value per element of its output; the kernel treats
 * the output as a flat array of n elements and gives each program `block-size` of them.
 *
 * Algorithm, for each function with `prim.fusion = "elementwise"` (made by --fuse):
 *  1. Check the group: one output, static shapes, dtypes the lowering knows (f32, f16,
 *     bf16 values; i1 for comparisons).
 *  2. Create `func.func @<name>_kernel` with attribute `tile.kernel`: one `!tile.ptr<T>`
 *     per argument of the fused function,
 *     one per output, then `%n: i32`, the number of output elements.
 *  3. Emit the index space: `offs = pid * block + range(0, block)`, `mask = offs < n`.
 *  4. Emit the returned value at the offsets `offs` by recursion over its producers,
 *     memoized on (value, offsets):
 *     - a function argument is a `tile.load` of its pointer at the offsets (masked);
 *     - elementwise ops become arith/math ops on tiles, computing f16/bf16 in f32 (the
 *       dtype policy of PyTorch's own kernels); a `convert` to f16/bf16 rounds there.
 *       Float ops carry `fastmath<contract>` (a*b+c may become one fma, as nvcc and
 *       Triton allow); when the kernel's result is stored as f16/bf16 (or the op's own
 *       result is f16/bf16) they also carry `afn`: the value needs only 16-bit accuracy, so
 *       exp, division and tanh may use the GPU's approximate instructions (relative error
 *       ~1e-6, 1e-4 for tanh) instead of libdevice's f32-exact functions;
 *     - an elementwise op whose operands are all uniform (tile.splat of a per-row value,
 *       or a constant) is computed once on scalars and splat; with `afn`, x / uniform s
 *       becomes x * (1 / s): one division per row instead of one per element;
 *     - broadcast_in_dim maps the offsets to the operand's (divide and remainder by the
 *       result's strides, multiply by the operand's), then recurses;
 *     - reshape keeps the offsets (row-major order is unchanged);
 *     - constants become splat arith.constant tiles.
 *  5. Store the result (rounded to the output dtype) with the mask; then move every load
 *     (and the index math it needs) ahead of the math, so all loads are in flight at once.
 *  Row groups (`prim.fusion = "row"`) use the same recursion over a row space: program p
 *  computes rows p*R .. p*R+R-1, offsets row*N + column. When the block covers the row,
 *  reductions are computed where first used (tile.reduce of the masked row); when the row
 *  is longer than the block (the looped form), emitLevels first computes every reduction
 *  in scf.for loops over the row's chunks, one loop per level of dependent reductions
 *  (siblings share a loop), then one more loop computes and stores the output.
 *  6. Mark the fused function with `tile.launch = {kernel = @<name>_kernel, grid = [...],
 *     args = [...]}`: a call of it runs the kernel over cdiv(numel(%r0), block) programs
 *     with the pointers of the call's operands and result and then numel(%r0). The fused
 *     function stays: its prim ops say what the kernel computes (tt-translate hands them to
 *     the reference interpreter).
 */
#include "tt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CMPI_EQ = 0, CMPI_SLT = 2 };

typedef struct {
  MlirValue key, offs, result;
} Memo;

typedef struct {
  MlirContext ctx;
  MlirLocation loc;
  TtBuilder b;
  int64_t block;
  MlirValue offs, mask;
  MlirValue cols;    /* row kernels: the column of each element of offs (offs % N) */
  int64_t rowLen;    /* row kernels: N */
  bool rowMode;      /* a row kernel: offs/mask cover one row of the program's rows */
  bool looped;       /* a looped row kernel: offs/mask cover one chunk of the row */
  int loopMemo;      /* memo entries made before the current chunk loop */
  bool halfOutput;   /* the result is stored as f16/bf16: math may be `afn` */
  MlirBlock kernel;  /* the kernel's entry block: its arguments are the pointers */
  MlirValue *inputs; /* the fusion's inputs (values from outside), in argument order */
  int nin;
  Memo *memo;
  int nmemo, capmemo;
  bool failed;
} Emit;

/* The compute type of a dtype: f16 and bf16 compute in f32. */
static MlirType computeType(MlirContext ctx, MlirType elem) {
  return ttTypeIsHalf(elem) ? mlirF32TypeGet(ctx) : elem;
}

static MlirType tileOf(Emit *e, MlirType elem) {
  return mlirRankedTensorTypeGet(1, &e->block, elem, mlirAttributeGetNull());
}

static MlirValue op1(Emit *e, const char *name, MlirValue a, MlirType t) {
  return ttBuild(&e->b, name, e->loc, 1, &a, t, 0, NULL);
}

static MlirValue op2(Emit *e, const char *name, MlirValue a, MlirValue c, MlirType t) {
  MlirValue ops[2] = {a, c};
  return ttBuild(&e->b, name, e->loc, 2, ops, t, 0, NULL);
}

static MlirValue splatI32(Emit *e, int64_t v) {
  return ttConstInt(&e->b, e->loc, tileOf(e, ttI32(e->ctx)), v);
}

/* arith.cmpi `pred` of two i32 tiles (an i1 tile of their shape). */
static MlirValue cmpTile(Emit *e, int pred, MlirValue a, MlirValue b) {
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

static MlirValue emitValue(Emit *e, MlirValue v, MlirValue offs);

/* Loads input `idx` (kernel argument idx) at offs, in its compute type. */
static MlirValue emitLoad(Emit *e, int idx, MlirValue offs) {
  MlirValue ptr = mlirBlockGetArgument(e->kernel, idx);
  MlirType elem = ttElementType(mlirValueGetType(e->inputs[idx]));
  MlirType t = tileOf(e, elem);
  MlirValue other = ttConstSplat(&e->b, e->loc, t, 0.0);
  MlirValue ops[4] = {ptr, offs, e->mask, other};
  MlirValue x = ttBuild(&e->b, "tile.load", e->loc, 4, ops, t, 0, NULL);
  if (ttTypeIsHalf(elem))
    x = op1(e, "arith.extf", x, tileOf(e, mlirF32TypeGet(e->ctx)));
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
        c = op2(e, "arith.muli", c, splatI32(e, xstride[i]), it);
      sum = mlirValueIsNull(sum) ? c : op2(e, "arith.addi", sum, c, it);
      continue;
    }
    if (rstride[d] != 1)
      c = op2(e, "arith.divui", c, splatI32(e, rstride[d]), it);
    if (d != 0)
      c = op2(e, "arith.remui", c, splatI32(e, rs[d]), it);
    if (xstride[i] != 1)
      c = op2(e, "arith.muli", c, splatI32(e, xstride[i]), it);
    sum = mlirValueIsNull(sum) ? c : op2(e, "arith.addi", sum, c, it);
  }
  return mlirValueIsNull(sum) ? splatI32(e, 0) : sum;
}

/* How a prim reduction combines: the tile.reduce kind, the arith op joining two partial
 * results, and the identity (the value of masked-off lanes). */
typedef struct {
  const char *kind, *combine;
  double identity;
} Combiner;

static Combiner combinerOf(MlirOperation op) {
  char name[16];
  ttPrimShortName(op, name, sizeof name);
  if (strcmp(name, "amax") == 0)
    return (Combiner){"max", "arith.maximumf", -INFINITY};
  if (strcmp(name, "amin") == 0)
    return (Combiner){"min", "arith.minimumf", INFINITY};
  return (Combiner){"sum", "arith.addf", 0.0};
}

/* x (a tile of type ct) with the lanes outside the mask replaced by c's identity. */
static MlirValue maskedToIdentity(Emit *e, MlirValue x, Combiner c, MlirType ct) {
  MlirValue sel[3] = {e->mask, x, ttConstSplat(&e->b, e->loc, ct, c.identity)};
  return ttBuild(&e->b, "arith.select", e->loc, 3, sel, ct, 0, NULL);
}

/* tile.reduce of x to one scalar, splat back to a tile of type ct for its users. */
static MlirValue reduceToSplat(Emit *e, MlirValue x, Combiner c, MlirType ct) {
  MlirNamedAttribute attrs[2] = {
      ttNamedAttr(e->ctx, "axis", ttIntAttr(e->ctx, 0, ttI32(e->ctx))),
      ttNamedAttr(e->ctx, "kind", ttStrAttr(e->ctx, c.kind)),
  };
  MlirValue r = ttBuild(&e->b, "tile.reduce", e->loc, 1, &x, mlirShapedTypeGetElementType(ct),
                        2, attrs);
  return op1(e, "tile.splat", r, ct);
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
  MlirValue x = emitValue(e, mlirOperationGetOperand(op, 0), e->offs);
  if (e->failed)
    return none;
  Combiner c = combinerOf(op);
  return reduceToSplat(e, maskedToIdentity(e, x, c, ct), c, ct);
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
  if (k == TT_PRIM_REDUCTION || k == TT_PRIM_CONSTANT)
    return true;
  if (k != TT_PRIM_UNARY && k != TT_PRIM_BINARY && k != TT_PRIM_CONVERT)
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(def); i++)
    if (!isPerRow(mlirOperationGetOperand(def, i)))
      return false;
  return true;
}

/* Emits prim op `op` (one result) at offsets offs. */
static MlirValue emitOp(Emit *e, MlirOperation op, MlirValue offs) {
  char name[64];
  ttPrimShortName(op, name, sizeof name);
  MlirType rtype = mlirValueGetType(mlirOperationGetResult(op, 0));
  MlirType relem = ttElementType(rtype);
  MlirType ct = tileOf(e, computeType(e->ctx, relem));
  TtPrimKind kind = ttPrimKind(op);
  bool isFloat = mlirTypeIsAFloat(relem);
  MlirValue none = {NULL};

  switch (kind) {
  case TT_PRIM_UNARY:
  case TT_PRIM_BINARY: {
    if (!isFloat)
      break;
    MlirValue ops[2] = {emitValue(e, mlirOperationGetOperand(op, 0), offs), none};
    const char *arith = floatOpName(name);
    intptr_t n = kind == TT_PRIM_UNARY ? 1 : 2;
    if (strcmp(name, "reciprocal") == 0) {
      ops[1] = ops[0];
      ops[0] = ttConstSplat(&e->b, e->loc, ct, 1.0);
      arith = "arith.divf";
      n = 2;
    } else if (n == 2) {
      ops[1] = emitValue(e, mlirOperationGetOperand(op, 1), offs);
    }
    if (e->failed)
      return none;
    bool approx = e->halfOutput || ttTypeIsHalf(relem);
    MlirNamedAttribute fm = ttFastmath(e->ctx, approx ? "contract,afn" : "contract");
    /* Uniform operands (one value per row, constants): compute once on scalars. */
    MlirType st = mlirShapedTypeGetElementType(ct);
    if (isUniform(ops[0]) && (n == 1 || isUniform(ops[1]))) {
      MlirValue sc[2] = {scalarOf(e, ops[0]), n == 2 ? scalarOf(e, ops[1]) : none};
      return op1(e, "tile.splat", ttBuild(&e->b, arith, e->loc, n, sc, st, 1, &fm), ct);
    }
    /* x / uniform s, approximate: one reciprocal per row, a multiply per element */
    if (approx && strcmp(arith, "arith.divf") == 0 && isUniform(ops[1])) {
      MlirValue rc[2] = {ttConstSplat(&e->b, e->loc, st, 1.0), scalarOf(e, ops[1])};
      ops[1] = op1(e, "tile.splat", ttBuild(&e->b, "arith.divf", e->loc, 2, rc, st, 1, &fm), ct);
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
    MlirValue ops[2] = {emitValue(e, mlirOperationGetOperand(op, 0), offs),
                        emitValue(e, mlirOperationGetOperand(op, 1), offs)};
    if (e->failed)
      return none;
    MlirNamedAttribute attr = ttNamedAttr(
        e->ctx, "predicate", mlirIntegerAttrGet(mlirIntegerTypeGet(e->ctx, 64), pred));
    return ttBuild(&e->b, "arith.cmpf", e->loc, 2, ops, ct, 1, &attr);
  }
  case TT_PRIM_WHERE: {
    MlirValue ops[3];
    for (int i = 0; i < 3; i++)
      ops[i] = emitValue(e, mlirOperationGetOperand(op, i), offs);
    if (e->failed)
      return none;
    return ttBuild(&e->b, "arith.select", e->loc, 3, ops, ct, 0, NULL);
  }
  case TT_PRIM_CONVERT: {
    MlirType selem = ttElementType(mlirValueGetType(mlirOperationGetOperand(op, 0)));
    if (!isFloat || !mlirTypeIsAFloat(selem))
      break;
    MlirValue x = emitValue(e, mlirOperationGetOperand(op, 0), offs);
    if (e->failed)
      return none;
    MlirType sct = computeType(e->ctx, selem), dct = computeType(e->ctx, relem);
    int sw = (int)mlirFloatTypeGetWidth(sct), dw = (int)mlirFloatTypeGetWidth(dct);
    if (sw > dw)
      x = op1(e, "arith.truncf", x, ct);
    else if (sw < dw)
      x = op1(e, "arith.extf", x, ct);
    if (ttTypeIsHalf(relem)) /* round to the narrow type, keep computing in f32 */
      x = op1(e, "arith.extf", op1(e, "arith.truncf", x, tileOf(e, relem)), ct);
    return x;
  }
  case TT_PRIM_REDUCTION:
    return emitRowReduction(e, op, ct);
  case TT_PRIM_BROADCAST: {
    MlirValue x = mlirOperationGetOperand(op, 0);
    if (e->rowMode && isPerRow(x))
      return emitValue(e, x, none); /* one value per row: no offsets needed */
    return emitValue(e, x, broadcastOffsets(e, op, offs));
  }
  case TT_PRIM_RESHAPE:
    return emitValue(e, mlirOperationGetOperand(op, 0), offs);
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

static void memoPut(Emit *e, MlirValue v, MlirValue offs, MlirValue r) {
  if (e->nmemo == e->capmemo) {
    e->capmemo = e->capmemo ? 2 * e->capmemo : 32;
    e->memo = ttRealloc(e->memo, sizeof(Memo) * (size_t)e->capmemo);
  }
  e->memo[e->nmemo++] = (Memo){v, offs, r};
}

static MlirValue emitValue(Emit *e, MlirValue v, MlirValue offs) {
  MlirValue none = {NULL};
  if (e->failed)
    return none;
  if (mlirValueIsAOpResult(v) && ttPrimKind(mlirOpResultGetOwner(v)) == TT_PRIM_REDUCTION)
    offs = none; /* one value per row, wherever it is used */
  for (int i = 0; i < e->nmemo; i++)
    if (mlirValueEqual(e->memo[i].key, v) && mlirValueEqual(e->memo[i].offs, offs))
      return e->memo[i].result;
  int input = -1;
  for (int i = 0; i < e->nin; i++)
    if (mlirValueEqual(e->inputs[i], v))
      input = i;
  MlirValue r = input >= 0 ? emitLoad(e, input, offs) : emitOp(e, mlirOpResultGetOwner(v), offs);
  if (e->failed)
    return none;
  memoPut(e, v, offs, r);
  return r;
}

/* Step 5b: moves every tile.load, with the ops its operands need (its backward slice in
 * the block), to the front of the body, keeping program order within each part. All loads
 * then issue before any math, and the math lowers into one basic block. */
static void loadsFirst(MlirBlock body) {
  int n = 0, cap = 64;
  MlirOperation *ops = ttAlloc(sizeof(MlirOperation) * (size_t)cap);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (n == cap)
      ops = ttRealloc(ops, sizeof(MlirOperation) * (size_t)(cap *= 2));
    ops[n++] = op;
  }
  bool *inSlice = ttAlloc(sizeof(bool) * (size_t)n);
  for (int i = n - 1; i >= 0; i--) {
    inSlice[i] = ttOpIs(ops[i], "tile.load");
    for (int j = i + 1; j < n && !inSlice[i]; j++) /* used by an op of the slice? */
      for (intptr_t k = 0; inSlice[j] && k < mlirOperationGetNumOperands(ops[j]); k++) {
        MlirValue x = mlirOperationGetOperand(ops[j], k);
        inSlice[i] |= mlirValueIsAOpResult(x) &&
                      mlirOperationEqual(mlirOpResultGetOwner(x), ops[i]);
      }
  }
  int anchor = 0;
  while (anchor < n && inSlice[anchor])
    anchor++;
  for (int i = anchor + 1; i < n; i++)
    if (inSlice[i])
      mlirOperationMoveBefore(ops[i], ops[anchor]);
  free(inSlice);
  free(ops);
}

/* Step 1 for any value: a static ranked tensor the i32 index math can address. */
static bool checkShape(MlirOperation at, MlirType t, const char *what) {
  int64_t shape[TT_MAX_RANK];
  int64_t r = ttTensorShape(t, shape);
  if (r < 0) {
    ttEmitError(at, "tile: %s must be a ranked tensor", what);
    return false;
  }
  if (r > TT_MAX_RANK) {
    ttEmitError(at, "tile: %s has rank %lld; at most %d is supported", what, (long long)r,
                TT_MAX_RANK);
    return false;
  }
  for (int64_t i = 0; i < r; i++)
    if (shape[i] < 0) {
      ttEmitError(at, "tile: dynamic dimensions are not supported yet (%s)", what);
      return false;
    }
  if (ttTensorNumel(t) >= ((int64_t)1 << 31)) {
    ttEmitError(at, "tile: %s has 2^31 or more elements (kernels index in i32)", what);
    return false;
  }
  return true;
}

/* Step 1 for an input or the result: a dtype the kernel can load or store, and a shape. */
static bool checkDtype(MlirOperation at, MlirType t, const char *what) {
  const char *d = ttDtypeName(t);
  if (strcmp(d, "f32") && strcmp(d, "f16") && strcmp(d, "bf16")) {
    ttEmitError(at, "tile: %s of dtype %s is not supported by the elementwise lowering "
                    "(f32, f16, bf16)",
                what, d);
    return false;
  }
  return checkShape(at, t, what);
}

/* Step 1 for the values inside: shapes the index math can handle. */
static bool checkBody(MlirBlock body) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
      if (!checkShape(op, mlirValueGetType(mlirOperationGetResult(op, i)), "a value"))
        return false;
  return true;
}

static MlirType ptrType(MlirContext ctx, MlirType elem) {
  TtStr s = {0};
  ttStrAppend(&s, "!tile.ptr<", 10);
  mlirTypePrint(elem, ttStrCallback, &s);
  ttStrAppend(&s, ">", 1);
  MlirType t = mlirTypeParseGet(ctx, ttStrRef(s.data));
  ttStrDestroy(&s);
  return t;
}

/* Default row geometry, from sweeps on H100 (scripts/tune-rows.sh, bf16, us):
 * - a row on chip up to MAX_ROW elements, about 16 elements per thread below 8192, 32 from
 *   8192 and 64 at 32768 (fewer warps to combine: softmax 8192x8192 93.6 with 8 warps;
 *   4096x32768 191.7 on chip with 16 warps vs 218.6 looped);
 * - unless the registers would not hold it: elements per thread x row-length inputs above
 *   MAX_LIVE (layer_norm at 4096x32768 spills on chip: 355 us; looped 206);
 * - a loop steps over half the row's power of two, at most LOOP_BLOCK, with LOOP_WARPS:
 *   big programs keep few rows in flight, so each row stays in L2 between its passes
 *   (layer_norm 2048x65536: 205 us with 1024 threads over 32768 columns, 380 with 256
 *   threads over 4096). */
#define MAX_ROW 32768
#define MAX_LIVE 128
#define LOOP_BLOCK 32768
#define LOOP_WARPS 32

/* How a fused function is split into programs. */
typedef struct {
  bool row;            /* a row kernel: one row per program */
  bool looped;         /* a row kernel whose row is longer than its block: loops over it */
  int64_t block;       /* tile size (elements) */
  int64_t warps;       /* warps per program */
  int64_t rowLen, rows; /* row kernels: N and M of the [M, N] row space */
  int64_t rowsPerProgram; /* row kernels: R, rows one program computes one after another */
} Geometry;

static int64_t clampI(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Step 1 for a row fusion: the row shape (from its first reduction) and the block, from
 * `block-size`/`num-warps` when given, else by the defaults above; a block shorter than
 * the row makes the kernel looped. Short rows: several per program, so a program moves
 * at least ~1024 elements. */
static bool rowGeometry(MlirOperation fusion, MlirBlock body, Geometry *g) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!ttPrimIsRowReduction(op))
      continue;
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
    int64_t shape[TT_MAX_RANK], r = ttTensorShape(t, shape);
    g->rowLen = shape[r - 1];
    g->rows = ttTensorNumel(t) / g->rowLen;
    int64_t fit = 32;
    while (fit < g->rowLen)
      fit *= 2;
    int64_t perThread = fit >= 32768 ? 64 : fit >= 8192 ? 32 : 16;
    int64_t onChipWarps = clampI(fit / perThread / 32, 1, 32);
    int64_t live = fit / (32 * onChipWarps) * mlirBlockGetNumArguments(body);
    bool onChip = fit <= MAX_ROW && live <= MAX_LIVE;
    if (!g->block)
      g->block = onChip ? fit : fit / 2 < LOOP_BLOCK ? fit / 2 : LOOP_BLOCK;
    g->looped = g->block < g->rowLen;
    if (!g->warps)
      g->warps = g->looped ? clampI(g->block / 32 / 16, 1, LOOP_WARPS)
                           : clampI(g->block / perThread / 32, 1, 32);
    g->rowsPerProgram = 1;
    while (!g->looped && g->rowsPerProgram * g->block < 1024 && g->rowsPerProgram < g->rows)
      g->rowsPerProgram *= 2;
    g->row = true;
    return true;
  }
  ttEmitError(fusion, "tile: a row fusion must contain a reduction over the last dimension");
  return false;
}

/* Offsets and mask of columns `cols` (an i32 tile) of the row starting at element
 * rowStart; rowOk (null when every row is valid) masks rows past the end. */
static void rowSpace(Emit *e, MlirValue rowStart, MlirValue cols, MlirValue rowOk,
                     const Geometry *g) {
  MlirType it = tileOf(e, ttI32(e->ctx));
  e->cols = cols;
  e->offs = op2(e, "arith.addi", op1(e, "tile.splat", rowStart, it), cols, it);
  e->mask = cmpTile(e, CMPI_SLT, cols, splatI32(e, g->rowLen));
  if (!mlirValueIsNull(rowOk))
    e->mask = op2(e, "arith.andi", e->mask, rowOk, mlirValueGetType(rowOk));
}

/* A loop over the chunks of a row (k = 0, B, 2B, ... < N) carrying inits; the builder
 * moves into its body, where offs/mask cover columns k + range. Returns the loop. */
static MlirOperation beginChunkLoop(Emit *e, MlirValue rowStart, MlirValue range,
                                    const Geometry *g, int n, const MlirValue *inits) {
  MlirType i32 = ttI32(e->ctx);
  MlirValue lb = ttConstInt(&e->b, e->loc, i32, 0), ub = ttConstInt(&e->b, e->loc, i32, g->rowLen),
            step = ttConstInt(&e->b, e->loc, i32, g->block);
  MlirOperation loop = ttBuildFor(&e->b, e->loc, lb, ub, step, n, inits);
  MlirBlock body = ttForBody(loop);
  e->b = ttBuilderAtEnd(body);
  e->loopMemo = e->nmemo;
  MlirType it = tileOf(e, i32);
  MlirValue cols = op2(e, "arith.addi", op1(e, "tile.splat", mlirBlockGetArgument(body, 0), it),
                       range, it);
  rowSpace(e, rowStart, cols, (MlirValue){NULL}, g);
  return loop;
}

/* Ends a chunk loop's body with scf.yield of results, puts its loads first, and moves the
 * builder back to `outer`, forgetting the values made inside the loop. */
static void endChunkLoop(Emit *e, MlirOperation loop, TtBuilder outer, int n,
                         const MlirValue *results) {
  ttBuild(&e->b, "scf.yield", e->loc, n, results, ttNoType(), 0, NULL);
  e->nmemo = e->loopMemo;
  loadsFirst(ttForBody(loop));
  e->b = outer;
}

/* Looped row kernels, step 4a: every reduction before the output, level by level. A
 * reduction's level is one more than the highest level among the reductions its operand
 * uses (1 when none). The reductions of one level are siblings: one loop over the row
 * computes them all, each in an accumulator tile combined with each chunk's masked
 * values; after the loop, tile.reduce of each accumulator is its per-row value. So a
 * row is read once per level, plus once for the output. */
static void emitLevels(Emit *e, MlirBlock fbody, MlirValue rowStart, MlirValue range,
                       const Geometry *g) {
  int n = 0, cap = 16;
  MlirOperation *ops = ttAlloc(sizeof(MlirOperation) * (size_t)cap);
  int *depth = ttAlloc(sizeof(int) * (size_t)cap);
  int maxLevel = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(fbody); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    int d = 0;
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++) {
      MlirValue x = mlirOperationGetOperand(op, k);
      for (int j = 0; mlirValueIsAOpResult(x) && j < n; j++)
        if (mlirOperationEqual(ops[j], mlirOpResultGetOwner(x)) && depth[j] > d)
          d = depth[j];
    }
    if (ttPrimIsRowReduction(op))
      d++;
    if (d > maxLevel)
      maxLevel = d;
    if (n == cap) {
      cap *= 2;
      ops = ttRealloc(ops, sizeof(MlirOperation) * (size_t)cap);
      depth = ttRealloc(depth, sizeof(int) * (size_t)cap);
    }
    ops[n] = op;
    depth[n++] = d;
  }
  MlirOperation *reds = ttAlloc(sizeof(MlirOperation) * (size_t)n);
  MlirValue *acc = ttAlloc(sizeof(MlirValue) * (size_t)n);
  for (int level = 1; level <= maxLevel && !e->failed; level++) {
    int nr = 0;
    for (int j = 0; j < n; j++)
      if (depth[j] == level && ttPrimIsRowReduction(ops[j]))
        reds[nr++] = ops[j];
    for (int j = 0; j < nr; j++) {
      MlirType relem = ttElementType(mlirValueGetType(mlirOperationGetResult(reds[j], 0)));
      acc[j] = ttConstSplat(&e->b, e->loc, tileOf(e, computeType(e->ctx, relem)),
                            combinerOf(reds[j]).identity);
    }
    TtBuilder outer = e->b;
    MlirOperation loop = beginChunkLoop(e, rowStart, range, g, nr, acc);
    MlirBlock body = ttForBody(loop);
    for (int j = 0; j < nr && !e->failed; j++) {
      MlirValue x = emitValue(e, mlirOperationGetOperand(reds[j], 0), e->offs);
      if (e->failed)
        break;
      Combiner c = combinerOf(reds[j]);
      MlirType ct = mlirValueGetType(acc[j]);
      MlirValue ops2[2] = {mlirBlockGetArgument(body, j + 1), maskedToIdentity(e, x, c, ct)};
      acc[j] = ttBuild(&e->b, c.combine, e->loc, 2, ops2, ct, 0, NULL);
    }
    if (e->failed)
      break;
    endChunkLoop(e, loop, outer, nr, acc);
    for (int j = 0; j < nr; j++) {
      MlirValue total = mlirOperationGetResult(loop, j);
      memoPut(e, mlirOperationGetResult(reds[j], 0), (MlirValue){NULL},
              reduceToSplat(e, total, combinerOf(reds[j]), mlirValueGetType(total)));
    }
  }
  free(reds);
  free(acc);
  free(ops);
  free(depth);
}

/* Step 2: creates `func.func @<fusion>_kernel` (a tile.kernel of `warps` warps) before the
 * fusion, with one `!tile.ptr<T>` argument per input, one for the output and, when
 * withSize, `%n: i32`. Its name goes to name[0..n). */
static MlirOperation kernelFunc(MlirOperation fusion, const MlirValue *inputs, intptr_t nin,
                                MlirType outType, bool withSize, int64_t warps, char *name,
                                size_t n) {
  MlirContext ctx = mlirOperationGetContext(fusion);
  MlirLocation loc = mlirOperationGetLocation(fusion);
  intptr_t nargs = nin + (withSize ? 2 : 1);
  MlirType *argTypes = ttAlloc(sizeof(MlirType) * (size_t)nargs);
  MlirLocation *argLocs = ttAlloc(sizeof(MlirLocation) * (size_t)nargs);
  for (intptr_t i = 0; i < nin; i++)
    argTypes[i] = ptrType(ctx, ttElementType(mlirValueGetType(inputs[i])));
  argTypes[nin] = ptrType(ctx, ttElementType(outType));
  if (withSize)
    argTypes[nin + 1] = ttI32(ctx);
  for (intptr_t i = 0; i < nargs; i++)
    argLocs[i] = loc;
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, mlirBlockCreate(nargs, argTypes, argLocs));
  snprintf(name, n, "fused");
  ttOpAttrStr(fusion, "sym_name", name, n);
  strncat(name, "_kernel", n - strlen(name) - 1);
  MlirType fty = mlirFunctionTypeGet(ctx, nargs, argTypes, 0, NULL);
  MlirNamedAttribute fattrs[4] = {
      ttNamedAttr(ctx, "sym_name", ttStrAttr(ctx, name)),
      ttNamedAttr(ctx, "function_type", mlirTypeAttrGet(fty)),
      ttNamedAttr(ctx, "tile.kernel", mlirUnitAttrGet(ctx)),
      ttNamedAttr(ctx, "tile.num_warps", ttIntAttr(ctx, warps, ttI32(ctx))),
  };
  MlirOperation kfunc = ttOpCreate("func.func", loc, 0, NULL, 0, NULL, 4, fattrs, 1, &region);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(fusion), fusion, kfunc);
  free(argTypes);
  free(argLocs);
  return kfunc;
}

/* Step 6: `tile.launch = {kernel = @name, grid = [gridX, "1", "1"], args = [...]}`. */
static void setLaunch(MlirOperation fusion, const char *name, const char *gridX,
                      const char *gridZ, int nargs, const char *const *args) {
  MlirContext ctx = mlirOperationGetContext(fusion);
  MlirAttribute gridAttrs[3] = {ttStrAttr(ctx, gridX), ttStrAttr(ctx, "1"), ttStrAttr(ctx, gridZ)};
  MlirAttribute argAttrs[4];
  for (int i = 0; i < nargs && i < 4; i++)
    argAttrs[i] = ttStrAttr(ctx, args[i]);
  MlirNamedAttribute lattrs[3] = {
      ttNamedAttr(ctx, "kernel", mlirFlatSymbolRefAttrGet(ctx, ttStrRef(name))),
      ttNamedAttr(ctx, "grid", mlirArrayAttrGet(ctx, 3, gridAttrs)),
      ttNamedAttr(ctx, "args", mlirArrayAttrGet(ctx, nargs < 4 ? nargs : 4, argAttrs)),
  };
  mlirOperationSetAttributeByName(fusion, ttStrRef("tile.launch"),
                                  mlirDictionaryAttrGet(ctx, 3, lattrs));
}

/* Step 1 for every kind: the fused function's body, one block returning one tensor. */
static bool fusionBody(MlirOperation fusion, MlirBlock *fbody, MlirType *outType) {
  *fbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(fusion, 0));
  if (mlirBlockIsNull(*fbody) || !mlirBlockIsNull(mlirBlockGetNextInRegion(*fbody))) {
    ttEmitError(fusion, "tile: a fused function must have a body of one block");
    return false;
  }
  MlirOperation ret = mlirBlockGetTerminator(*fbody);
  if (mlirOperationGetNumOperands(ret) != 1) {
    ttEmitError(fusion, "tile: a fused function must return one tensor");
    return false;
  }
  *outType = mlirValueGetType(mlirOperationGetOperand(ret, 0));
  return true;
}

/* Step 2 for every kind: the kernel function (kernelFunc) and an emitter e at its start,
 * over tiles of `block` elements; e->inputs is malloc'd (the caller frees it). */
static MlirOperation startKernel(MlirOperation fusion, MlirBlock fbody, MlirType outType,
                                 bool withSize, int64_t warps, int64_t block, Emit *e,
                                 char *name, size_t n) {
  intptr_t nin = mlirBlockGetNumArguments(fbody);
  *e = (Emit){0};
  e->ctx = mlirOperationGetContext(fusion);
  e->loc = mlirOperationGetLocation(fusion);
  e->inputs = ttAlloc(sizeof(MlirValue) * (size_t)(nin + 1));
  for (intptr_t i = 0; i < nin; i++)
    e->inputs[i] = mlirBlockGetArgument(fbody, i);
  e->nin = (int)nin;
  MlirOperation kfunc = kernelFunc(fusion, e->inputs, nin, outType, withSize, warps, name, n);
  e->kernel = mlirRegionGetFirstBlock(mlirOperationGetRegion(kfunc, 0));
  e->b = ttBuilderAtEnd(e->kernel);
  e->block = block;
  e->halfOutput = ttTypeIsHalf(ttElementType(outType));
  return kfunc;
}

/* Steps 2-6 for one fusion. */
static bool tileFusion(MlirOperation fusion, Geometry geo) {
  MlirContext ctx = mlirOperationGetContext(fusion);
  MlirLocation loc = mlirOperationGetLocation(fusion);
  MlirBlock fbody;
  MlirType outType;
  if (!fusionBody(fusion, &fbody, &outType))
    return false;
  intptr_t nin = mlirBlockGetNumArguments(fbody);
  MlirOperation ret = mlirBlockGetTerminator(fbody);
  bool ok = checkDtype(fusion, outType, "the result");
  for (intptr_t i = 0; i < nin && ok; i++)
    ok = checkDtype(fusion, mlirValueGetType(mlirBlockGetArgument(fbody, i)), "an input");
  ok = ok && checkBody(fbody) && (!geo.row || rowGeometry(fusion, fbody, &geo));
  if (ok && geo.block < 32 * geo.warps) {
    ttEmitError(fusion, "tile: a block of %lld elements is smaller than 32 * num-warps (%lld "
                        "threads); give a larger block-size or fewer num-warps",
                (long long)geo.block, (long long)(32 * geo.warps));
    ok = false;
  }
  if (!ok)
    return false;

  /* Step 2: the kernel function (row kernels take no size: their shape is constant). */
  int64_t block = geo.block;
  char name[128];
  Emit e;
  MlirOperation kfunc =
      startKernel(fusion, fbody, outType, !geo.row, geo.warps, block, &e, name, sizeof name);
  MlirBlock kbody = e.kernel;

  /* Step 3: the index space. */
  MlirType i32 = ttI32(ctx), it = tileOf(&e, i32);
  MlirNamedAttribute axis = ttNamedAttr(ctx, "axis", ttIntAttr(ctx, 0, i32));
  MlirValue pid = ttBuild(&e.b, "tile.program_id", loc, 0, NULL, i32, 1, &axis);
  MlirNamedAttribute range[2] = {ttNamedAttr(ctx, "start", ttIntAttr(ctx, 0, i32)),
                                 ttNamedAttr(ctx, "end", ttIntAttr(ctx, block, i32))};
  MlirValue r = ttBuild(&e.b, "tile.range", loc, 0, NULL, it, 2, range);
  MlirType oelem = ttElementType(outType);
  e.rowMode = geo.row;
  e.rowLen = geo.rowLen;
  bool perRow = geo.row && ttTensorNumel(outType) != geo.rows * geo.rowLen;

  /* Steps 3-5 per row of the program (elementwise: once): offsets and mask (elementwise:
   * offs < numel; row i: row = pid * R + i, offs = row * N + column, column < N and, when
   * R does not divide M, row < M), the value, and its store. A looped row kernel first
   * computes its reductions (emitLevels), then loops over the row's chunks for the output. */
  int64_t nrows = geo.row ? geo.rowsPerProgram : 1;
  e.looped = geo.looped;
  for (int64_t i = 0; i < nrows && !e.failed; i++) {
    e.nmemo = 0; /* reductions are memoized per row */
    MlirValue row = pid;
    if (nrows > 1) {
      row = op2(&e, "arith.muli", pid, ttConstInt(&e.b, loc, i32, nrows), i32);
      row = op2(&e, "arith.addi", row, ttConstInt(&e.b, loc, i32, i), i32);
    }
    MlirValue start = op2(&e, "arith.muli", row,
                          ttConstInt(&e.b, loc, i32, geo.row ? geo.rowLen : block), i32);
    if (geo.looped)
      emitLevels(&e, fbody, start, r, &geo);
    if (e.failed)
      break;
    TtBuilder outer = e.b;
    MlirOperation loop = {NULL};
    if (geo.looped && !perRow) {
      loop = beginChunkLoop(&e, start, r, &geo, 0, NULL);
    } else if (geo.row) {
      MlirValue rowOk = {NULL};
      if (geo.rows % nrows != 0)
        rowOk = cmpTile(&e, CMPI_SLT, op1(&e, "tile.splat", row, it), splatI32(&e, geo.rows));
      rowSpace(&e, start, r, rowOk, &geo);
    } else {
      e.offs = op2(&e, "arith.addi", op1(&e, "tile.splat", start, it), r, it);
      e.mask = cmpTile(&e, CMPI_SLT, e.offs,
                       op1(&e, "tile.splat", mlirBlockGetArgument(kbody, nin + 1), it));
    }
    MlirValue v = emitValue(&e, mlirOperationGetOperand(ret, 0), e.offs);
    if (e.failed)
      break;
    if (ttTypeIsHalf(oelem))
      v = op1(&e, "arith.truncf", v, tileOf(&e, oelem));
    MlirValue st[4] = {mlirBlockGetArgument(kbody, nin), e.offs, v, e.mask};
    if (perRow) { /* one value per row: lane 0 stores it at the row's index */
      st[1] = op1(&e, "tile.splat", row, it);
      st[3] = op2(&e, "arith.andi", e.mask, cmpTile(&e, CMPI_EQ, r, splatI32(&e, 0)),
                  mlirValueGetType(e.mask));
    }
    ttBuild(&e.b, "tile.store", loc, 4, st, ttNoType(), 0, NULL);
    if (!mlirOperationIsNull(loop))
      endChunkLoop(&e, loop, outer, 0, NULL);
  }
  free(e.memo);
  free(e.inputs);
  if (e.failed) {
    mlirOperationDestroy(kfunc);
    return false;
  }
  ttBuild(&e.b, "func.return", loc, 0, NULL, ttNoType(), 0, NULL);
  loadsFirst(kbody);

  /* Step 6: the launch. */
  char grid[64];
  if (geo.row)
    snprintf(grid, sizeof grid, "%lld",
             (long long)((geo.rows + geo.rowsPerProgram - 1) / geo.rowsPerProgram));
  else
    snprintf(grid, sizeof grid, "cdiv(numel(%%r0),%lld)", (long long)block);
  const char *args[1] = {"numel(%r0)"};
  setLaunch(fusion, name, grid, "1", geo.row ? 0 : 1, args);
  return true;
}

/* Dot kernels ---------------------------------------------------------------------------
 * A dot group (`prim.fusion = "dot"`) computes C = A @ B (+ an elementwise epilogue) with
 * A an [M, K] input and B a [K, N] input or the transpose of an [N, K] one (a linear
 * layer's weight, read in place: K contiguous). Program p computes one BM x BN tile of C:
 *  1. (pid_m, pid_n) from p in the `order` option (ttEmitPidOrder);
 *  2. index tiles of the A and B tiles as flat row-major ranges (row = i / BK, column =
 *     i % BK) with masks for the rows and columns past M and N;
 *  3. `scf.for k0 = 0 to K step BK` carrying the f32 accumulator: load the A and B tiles
 *     at k0 (masked when BK does not divide K), `tensor.expand_shape` them to 2-D, a
 *     `tile.trans` for a [N, K] operand, and `tile.dot`;
 *  4. the epilogue: the accumulator (collapsed to the flat C tile) stands for the matmul's
 *     value at the C tile's offsets, and the group's result is emitted from it like an
 *     elementwise group's (bias add, activation, convert), then stored under the C mask.
 * The launch has cdiv(M, BM) * cdiv(N, BN) programs (times B along grid axis 2 for a
 * batched [B, M, K] x [B, K, N] matmul). --splitk splits the K loop further. */

/* The operands of a dot group: its matmul, the kernel arguments holding A and B, and
 * whether B is read transposed (an [N, K] input). */
typedef struct {
  MlirOperation matmul;
  int a, b;
  bool bT;
  int64_t batch, m, n, k; /* batch: 1 for a 2-D matmul */
  MlirType elem, belem; /* of A and B: both f16, both bf16, or fp8 of either format */
} DotOperands;

/* The input index of block argument v of the fused function, or -1. */
static int inputIndex(MlirBlock fbody, MlirValue v) {
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(fbody); i++)
    if (mlirValueEqual(mlirBlockGetArgument(fbody, i), v))
      return (int)i;
  return -1;
}

static bool findMatmul(MlirOperation op, void *userData) {
  if (ttPrimKind(op) != TT_PRIM_MATMUL)
    return true;
  *(MlirOperation *)userData = op;
  return false;
}

/* Step 1 for a dot group: find and check its matmul's operands. */
static bool dotOperands(MlirOperation fusion, MlirBlock fbody, DotOperands *d) {
  d->matmul = (MlirOperation){NULL};
  ttWalk(fusion, findMatmul, &d->matmul);
  if (mlirOperationIsNull(d->matmul)) {
    ttEmitError(fusion, "tile: a dot group must hold a prim.matmul");
    return false;
  }
  MlirValue a = mlirOperationGetOperand(d->matmul, 0), b = mlirOperationGetOperand(d->matmul, 1);
  int64_t as[TT_MAX_RANK], bs[TT_MAX_RANK], cs[TT_MAX_RANK];
  int64_t r = ttTensorShape(mlirValueGetType(a), as);
  if ((r != 2 && r != 3) || ttTensorShape(mlirValueGetType(b), bs) != r ||
      ttTensorShape(mlirValueGetType(mlirOperationGetResult(d->matmul, 0)), cs) != r ||
      (r == 3 && (bs[0] != as[0] || cs[0] != as[0]))) {
    ttEmitError(d->matmul, "tile: dot kernels take 2-D ([M, K] x [K, N]) or batched 3-D "
                           "([B, M, K] x [B, K, N]) matmuls");
    return false;
  }
  d->batch = r == 3 ? as[0] : 1;
  d->bT = mlirValueIsAOpResult(b) && ttPrimKind(mlirOpResultGetOwner(b)) == TT_PRIM_TRANSPOSE;
  if (d->bT) { /* read in place: only a swap of the last two dimensions */
    MlirOperation t = mlirOpResultGetOwner(b);
    MlirAttribute perm = ttOpAttr(t, "permutation");
    bool swap = !mlirAttributeIsNull(perm) && mlirDenseArrayGetNumElements(perm) == r;
    for (int64_t i = 0; swap && i < r; i++)
      swap = mlirDenseI64ArrayGetElement(perm, i) == (i < r - 2 ? i : 2 * r - 3 - i);
    if (!swap) {
      ttEmitError(t, "tile: a transposed matmul operand must swap its last two dimensions "
                     "(permutation [1, 0], or [0, 2, 1] batched)");
      return false;
    }
    b = mlirOperationGetOperand(t, 0);
  }
  if (r == 3) { /* the matrices of one batch */
    memmove(as, as + 1, 2 * sizeof *as);
    memmove(bs, bs + 1, 2 * sizeof *bs);
  }
  d->a = inputIndex(fbody, a);
  d->b = inputIndex(fbody, b);
  if (d->a < 0 || d->b < 0) {
    ttEmitError(d->matmul, "tile: the operands of a matmul must be inputs of its group (or "
                           "the transpose of one)");
    return false;
  }
  d->m = as[0];
  d->k = as[1];
  d->n = bs[1];
  d->elem = ttElementType(mlirValueGetType(a));
  MlirType belem = d->belem = ttElementType(mlirValueGetType(b));
  bool fp8 = ttTypeIsFp8(d->elem) && ttTypeIsFp8(belem);
  if (!fp8 && (!ttTypeIsHalf(d->elem) || !mlirTypeEqual(d->elem, belem))) {
    ttEmitError(d->matmul, "tile: matmul operands must both be f16, both bf16 or both fp8 "
                           "(f8E4M3FN or f8E5M2) (got %s and %s)",
                ttDtypeName(d->elem), ttDtypeName(belem));
    return false;
  }
  return true;
}

/* A tile type of the given shape. */
static MlirType tileShaped(int rank, const int64_t *shape, MlirType elem) {
  return mlirRankedTensorTypeGet(rank, shape, elem, mlirAttributeGetNull());
}

/* i32 tile `v op c` for a constant c (a splat of the tile's type). */
static MlirValue withConst(Emit *e, const char *name, MlirValue v, int64_t c) {
  MlirType t = mlirValueGetType(v);
  return op2(e, name, v, ttConstInt(&e->b, e->loc, t, c), t);
}

static MlirValue splatOf(Emit *e, MlirValue scalar, MlirType t) {
  return op1(e, "tile.splat", scalar, t);
}

/* `row < bound` for an i32 tile (bound a constant), or null when bound >= the limit the
 * tile can reach (no mask needed). */
static MlirValue lessThan(Emit *e, MlirValue v, int64_t bound, bool needed) {
  if (!needed)
    return (MlirValue){NULL};
  return cmpTile(e, CMPI_SLT, v, ttConstInt(&e->b, e->loc, mlirValueGetType(v), bound));
}

/* The and of two masks either of which may be null; an all-true mask when both are. */
static MlirValue andMask(Emit *e, MlirValue x, MlirValue y, int64_t n) {
  if (mlirValueIsNull(x) && mlirValueIsNull(y)) {
    MlirType t = tileShaped(1, &n, mlirIntegerTypeGet(e->ctx, 1));
    return ttConstInt(&e->b, e->loc, t, 1);
  }
  if (mlirValueIsNull(x) || mlirValueIsNull(y))
    return mlirValueIsNull(x) ? y : x;
  return op2(e, "arith.andi", x, y, mlirValueGetType(x));
}

/* One operand tile's index space: a `rows` x `cols` tile, K along its columns (A, and a
 * transposed B) or along its rows (B); the other coordinate is `base` plus the row (or
 * column) index, below `limit`. Element (x, k) is at x * xStride + k * kStride. */
typedef struct {
  MlirValue offs; /* at k0 = 0 */
  MlirValue mask; /* x < limit, or null when every x is */
  MlirValue kIdx; /* the K index of each element (within the step) */
  int64_t kStride;
} OperandSpace;

static OperandSpace operandSpace(Emit *e, int64_t rows, int64_t cols, bool kAlongCols,
                                 MlirValue base, int64_t limit, int64_t xStride,
                                 int64_t kStride) {
  MlirType i32 = ttI32(e->ctx);
  int64_t n = rows * cols;
  MlirType it = tileShaped(1, &n, i32);
  MlirNamedAttribute range[2] = {ttNamedAttr(e->ctx, "start", ttIntAttr(e->ctx, 0, i32)),
                                 ttNamedAttr(e->ctx, "end", ttIntAttr(e->ctx, n, i32))};
  MlirValue i = ttBuild(&e->b, "tile.range", e->loc, 0, NULL, it, 2, range);
  MlirValue r = withConst(e, "arith.divui", i, cols), c = withConst(e, "arith.remui", i, cols);
  MlirValue x = op2(e, "arith.addi", splatOf(e, base, it), kAlongCols ? r : c, it);
  OperandSpace s;
  s.kIdx = kAlongCols ? c : r;
  s.kStride = kStride;
  s.mask = lessThan(e, x, limit, limit % (kAlongCols ? rows : cols) != 0);
  s.offs = op2(e, "arith.addi", withConst(e, "arith.muli", x, xStride),
               kStride == 1 ? s.kIdx : withConst(e, "arith.muli", s.kIdx, kStride), it);
  return s;
}

/* Step 3 for one operand: its tile at k0, loaded, as a 2-D tile of `shape`. */
static MlirValue loadOperand(Emit *e, OperandSpace *s, int arg, MlirValue k0, int64_t kLimit,
                             bool kMask, const int64_t shape[2], MlirType elem) {
  MlirType i32 = ttI32(e->ctx);
  MlirType it = mlirValueGetType(s->offs);
  int64_t n = shape[0] * shape[1];
  MlirValue shift = k0;
  if (s->kStride != 1)
    shift = op2(e, "arith.muli", k0, ttConstInt(&e->b, e->loc, i32, s->kStride), i32);
  MlirValue offs = op2(e, "arith.addi", s->offs, splatOf(e, shift, it), it);
  MlirValue km = {NULL};
  if (kMask)
    km = lessThan(e, op2(e, "arith.addi", s->kIdx, splatOf(e, k0, it), it), kLimit, true);
  MlirValue mask = andMask(e, s->mask, km, n);
  MlirType flat = tileShaped(1, &n, elem);
  MlirValue ops[4] = {mlirBlockGetArgument(e->kernel, arg), offs, mask,
                      ttConstSplat(&e->b, e->loc, flat, 0.0)};
  MlirValue x = ttBuild(&e->b, "tile.load", e->loc, 4, ops, flat, 0, NULL);
  MlirNamedAttribute attrs[2] = {
      ttNamedAttr(e->ctx, "reassociation", mlirAttributeParseGet(e->ctx, ttStrRef("[[0, 1]]"))),
      ttNamedAttr(e->ctx, "static_output_shape", mlirDenseI64ArrayGet(e->ctx, 2, shape)),
  };
  return ttBuild(&e->b, "tensor.expand_shape", e->loc, 1, &x, tileShaped(2, shape, elem), 2,
                 attrs);
}

/* Marks the tile.load under operand tile x (a tensor.expand_shape of it) as a box of a
 * row-major dims[0] x dims[1] matrix: `tile.box = array<i64: D0, D1>` (its offsets[0] is
 * the box's first element). Codegen ignores it; --pipeline stage-in=tma reads it. */
static void boxOf(Emit *e, MlirValue x, const int64_t dims[2]) {
  MlirOperation load = mlirOpResultGetOwner(mlirOperationGetOperand(mlirOpResultGetOwner(x), 0));
  mlirOperationSetAttributeByName(load, ttStrRef("tile.box"), mlirDenseI64ArrayGet(e->ctx, 2, dims));
}

/* offs + splat(pidB * stride): an index space moved to batch pidB. */
static MlirValue batchOffset(Emit *e, MlirValue offs, MlirValue pidB, int64_t stride) {
  MlirType i32 = ttI32(e->ctx), t = mlirValueGetType(offs);
  MlirValue base = op2(e, "arith.muli", pidB, ttConstInt(&e->b, e->loc, i32, stride), i32);
  return op2(e, "arith.addi", offs, splatOf(e, base, t), t);
}

/* The K offset that step k of `loop` (from lb to ub by bk) reads under k-stagger S: tile
 * column n takes step i = (k - lb) / bk of its loop as step (i + n * S) mod steps, steps =
 * cdiv(ub - lb, bk). The bounds are read from the loop's operands, which --splitk moves
 * to each slice (ttReplaceUsesWithin), so each slice wraps around within itself. */
static MlirValue staggerK(Emit *e, MlirOperation loop, MlirValue k, MlirValue pidN, int64_t s,
                          int64_t bk) {
  MlirType i32 = ttI32(e->ctx);
  MlirValue lb = mlirOperationGetOperand(loop, 0), ub = mlirOperationGetOperand(loop, 1);
  MlirValue steps = withConst(e, "arith.ceildivsi", op2(e, "arith.subi", ub, lb, i32), bk);
  steps = withConst(e, "arith.maxsi", steps, 1); /* an empty split-K slice (never runs) */
  MlirValue i = withConst(e, "arith.divsi", op2(e, "arith.subi", k, lb, i32), bk);
  MlirValue rot = op2(e, "arith.remsi", withConst(e, "arith.muli", pidN, s), steps, i32);
  MlirValue j = op2(e, "arith.remsi", op2(e, "arith.addi", i, rot, i32), steps, i32);
  return op2(e, "arith.addi", lb, withConst(e, "arith.muli", j, bk), i32);
}

/* Dot geometry: the tile, the K step and the warps; 0 options come from the shape. */
typedef struct {
  int64_t bm, bn, bk, warps, order, group, stagger;
} DotGeometry;

/* Whether a dot's operands can be TMA boxes that wgmma reads: 2-D matrices whose rows are
 * a multiple of 16 bytes (TMA's stride rule), f16/bf16, or fp8 with both K-major (fp8
 * wgmma: the weight read transposed from [N, K]). */
static bool tmaOperands(const DotOperands *d) {
  if (d->batch != 1)
    return false;
  if (ttTypeIsFp8(d->elem))
    return d->bT && d->k % 16 == 0;
  return d->k % 8 == 0 && (d->bT || d->n % 8 == 0);
}

/* Programs of a grid of gm tile rows over n columns in tiles of bn. */
static int64_t gridPrograms(int64_t gm, int64_t n, int64_t bn) {
  return gm * ((n + bn - 1) / bn);
}

/* Columns that spread gm rows of bm-row tiles over at most `slots` programs: the fewest,
 * a multiple of 16, where a bm-row tile of them on bm / 16 warps takes wgmma's direct form
 * (not a multiple of 64 per warpgroup: the transposed form's tiles do those already; at
 * most 256); else 0. */
static int64_t fitColumns(int64_t gm, int64_t n, int64_t slots, int64_t bm) {
  int64_t per = slots / gm;
  if (per < 1)
    return 0;
  int64_t bn = ((n + per - 1) / per + 15) / 16 * 16;
  return ttWgmmaDirect(bm, bn, bm / 16) ? bn : 0;
}

static bool dotGeometry(MlirOperation fusion, const DotOperands *d, const TtPassOptions *o,
                        DotGeometry *g) {
  int64_t m = d->m, sms = TT_SMS;
  bool fp8 = ttTypeIsFp8(d->elem);
  g->stagger = 0;
  if (o->v[7] && tmaOperands(d)) { /* option tma (1 by default) */
    /* matrices TMA can read: the defaults come from the f16 TMA sweep on an H100
     * (scripts/tune-tma.sh; bench/2026-11-23-h100-tma-tune.md; wgmma on 3-4 TMA stages)
     * and the f16/fp8 sweeps on an H200 (bench/2026-11-24-h200-tune.md), with "wide" =
     * more programs of 64 columns than SMs:
     *  - M <= 64: block-m 16, 32 or 64; 64 columns and K steps of 256 (16, 32 rows) or
     *    128 (64 rows) on a narrow grid (16 x 8192 x 8192: 49.6 us; 64 x 8192 x 8192:
     *    52.2), 128 x 128 on a wide one (16 x 28672 x 8192: 162.8; 64 x 10240: 64.4).
     *  - M > 64: 64 x 128 x 128 tiles while they make one wave (128 x 8192 x 8192: 54.0),
     *    else 128 rows (128 x 10240: 67.2 against 91.9), and 128 x 256 x 64 on 8 warps
     *    past 4 waves (4096 x 8192 x 8192: 841 against 936 for 128 x 128 x 128).
     *  - of those one-wave 64-row tiles, f16 with K <= N takes 64 x 64 x 128: two blocks
     *    per SM on 3 stages (H200, 128 x 8192 x 8192: 39.5-40.3 us against 44.5-44.9 on
     *    64x128x128 with wgmma in flight; tt's defaults 41.5 against 44.0-44.8; fp8 kept
     *    64x128x256, 23.6 against 24.0; bench/2026-11-24-h200-m128-tune.md).
     *  - 4 warps: one warpgroup. fp8 (e4m3/e5m2, K-major) takes the same tiles, at most
     *    128 columns unless the next rule says 256.
     *  - up to 32 rows where 128-column tiles pass one wave and 256-column ones make one
     *    (N = 28672: 224 against 112 programs): 256 columns, K steps of one 128-byte row
     *    (H200: 4 x 28672 x 8192 on 16x256x64 114.0 against 118.4 on 16x128x128, 1 and 16
     *    rows 113.5 and 113.9 against 121.5 and 120.2; fp8 16x256x128 60.8 against 62.1).
     *  - K steps past one wave (not past 4): the deepest whose 3 stages let two blocks
     *    share an SM (TT_SMEM_TWO_BLOCKS), at least one 128-byte row; else the second
     *    wave runs alone (H200, 64 x 28672 x 8192: 64x128x64 120.8 against 125.6 on
     *    64x128x128; on an H100 164.9 and 164.6).
     *  - fp8 K steps up to 64 rows on at most one program per SM: the f16 tiles' bytes,
     *    twice the elements (H200, 16 x 10240 x 8192: 16x128x256 25.5 against 31.9 on
     *    16x128x128; 64 x 8192 x 28672: 64x64x256 61.7 against 79.4; past one wave no
     *    better: 16 x 28672 x 8192 on 16x128x128 62.4, x256 63.1); likewise on 128-row
     *    tiles of the default columns, up to two waves, where K has two such steps (H200,
     *    128 x 10240 x 8192, 80 programs, on 128x128x256 30.8 against 36.2 on 128x128x128;
     *    128 x 28672 x 8192, 224 programs, 70.0 against 76.1 on 4 stages;
     *    bench/2026-11-24-h200-fp8-m128.md; more waves were not measured).
     *  - K > N up to 32 rows: f16 K steps of 128, not 256: H200, 8192 x 28672 f16 M = 1
     *    115.5 us against 118.8, M = 4 115.9 against 118.2, M = 16 114.3 against 115.2
     *    (bench/2026-11-24-h200-k-stagger.md, section 4); fp8 keeps 512 (after the rule
     *    above): timed back to back, M = 16 56.3 against 57.6 on 256, M = 32 56.3
     *    against 58.0, M = 1 57.1 against 57.4 (bench/2026-11-24-h200-kheavy-tune.md).
     *  - where those tiles leave SMs idle (fewer programs than 7/8 of the SMs: N = 10240
     *    on 128 columns makes 80) and 64-row tiles of 65 to 256 columns, not a multiple of
     *    64, spread N over one wave (M <= 64) or two programs per SM (f16, M > 64): those
     *    (fitColumns; wgmma's direct form). H200, N = 10240 on 64x80 tiles: 64 x 10240 x
     *    8192 fp8 22.2 us against 24.4, f16 41.7 against 44.5; 128 x 10240 x 8192 f16 on
     *    256 programs 48.2-49.3 against 55.1; not 16 rows on 64-row tiles (f16 50.4
     *    against 42.1) (bench/2026-11-25-h200-direct-wgmma.md).
     *  - fp8 past 64 rows: 128-row tiles on 8 warps (direct form, 64 rows a warpgroup) of
     *    the columns that spread N over one wave, where those are 64 to 128 (the
     *    promotion's limit above), K steps of 256 (where K has two of them): H200, 128 x
     *    10240 x 8192 on 128x80x256 26.3 us against 30.9 on 128x128x256 (80 programs;
     *    64x80 tiles, 256 programs: 33.6), 128 x 8192 x 28672 on 128x64x256 69.3 against
     *    75.6 on 64x128x256, 128 x 8192 x 8192 23.5 against 23.5 (bench/
     *    2026-11-25-h200-gemm-rounds.md). Not f16: 128x64 and 128x80 on 8 warps lost to
     *    its 64-row tiles (47.2 against 39.4 at 128 x 8192 x 8192, 51.3 against 48.9 at
     *    N = 10240). */
    int64_t waves64 = gridPrograms((m + 63) / 64, d->n, 128);
    g->bm = o->v[2] ? o->v[2] : m <= 16 ? 16 : m <= 32 ? 32 : m <= 64 || waves64 <= sms ? 64 : 128;
    int64_t gm = (m + g->bm - 1) / g->bm;
    bool wide = gridPrograms(gm, d->n, 64) > sms, huge = gridPrograms(gm, d->n, 128) > 4 * sms;
    bool big = m > 64 && g->bm >= 128 && huge;
    bool pairs = m > 64 && g->bm == 64 && !fp8 && d->k <= d->n; /* two blocks per SM: above */
    g->bn = o->v[3] ? o->v[3] : big ? 256 : pairs ? 64 : m > 64 || wide ? 128 : 64;
    /* a grid that leaves SMs idle, in 64-row tiles of other widths (wgmma's direct form,
     * which reads B K-major: a weight [N, K]): M <= 64 one per SM, f16 M > 64 two; fp8
     * past 64 rows (with two K steps of 256, as measured) on 128-row tiles of 8 warps,
     * one per SM, idle SMs or not (see above) */
    bool rows128 = fp8 && m > 64 && d->k >= 512;
    int64_t sbm = rows128 ? 128 : 64, gmS = (m + sbm - 1) / sbm;
    int64_t fit = fitColumns(gmS, d->n, m <= 64 || fp8 ? sms : 2 * sms, sbm);
    bool spread = !o->v[2] && !o->v[3] && !o->v[1] && d->bT &&
                  (rows128 ? fit >= 64 && fit <= 128
                           : fit > 64 && (m > 64 || g->bm == 64) &&
                                 gridPrograms(gm, d->n, g->bn) * 8 < sms * 7);
    if (spread) {
      g->bm = sbm;
      g->bn = fit;
      gm = gmS;
    }
    bool deepK = g->bn == 64 && g->bm <= 32 && (d->k <= d->n || fp8); /* K > N: above */
    g->bk = o->v[4] ? o->v[4] : big && !fp8 ? 64 : deepK ? 256 : 128;
    g->warps = o->v[1] ? o->v[1] : big || (spread && rows128) ? 8 : 4;
    /* fp8 wgmma's promotion holds a second accumulator: at most 64 x 128 per warpgroup
     * (128 x 128 on 4 warps spilled: 128 x 10240 x 8192 59.3 us against 41.3 before the
     * promotion) */
    if (fp8)
      g->bn = o->v[3] || g->bn <= 128 ? g->bn : 128;
    int64_t eb = fp8 ? 1 : 2; /* 256 columns, then the K steps: see above */
    bool row256 = !o->v[3] && g->bm <= 32 && gridPrograms(gm, d->n, 128) > sms &&
                  gridPrograms(gm, d->n, 256) <= sms;
    if (row256) {
      g->bn = 256;
      g->bk = o->v[4] ? o->v[4] : 128 / eb;
    }
    int64_t programs = gridPrograms(gm, d->n, g->bn);
    bool deep128 = g->bm == 128 && !o->v[3] && programs <= 2 * sms && d->k >= 2 * g->bk;
    if (!o->v[4] && fp8 && ((g->bm <= 64 && programs <= sms) || deep128) && !row256)
      g->bk *= 2;
    else if (!o->v[4] && !big && programs > sms)
      while (g->bk * eb > 128 && 3 * (g->bm + g->bn) * g->bk * eb > TT_SMEM_TWO_BLOCKS)
        g->bk /= 2;
    if (fp8)
      g->warps = o->v[1] ? o->v[1] : g->bm * g->bn > 64 * 128 ? 8 : g->warps;
    /* K stagger: on one row of tiles each program streams weight rows no other reads, so
     * starting them at different K steps costs no L2 reuse and spreads their reads over
     * the DRAM channels (H200, stride 37: 16 x 8192 x 8192 f16 36.0 us against 37.0, fp8
     * 21.2 against 21.6; 64 x 28672 x 8192 f16 118.4 against 120.5; on 256-column tiles
     * stride 1: 16 x 28672 x 8192 f16 111.9 against 114.0, where 37 took 115.0); where K
     * > N it lost at M = 1 (fp8 1 x 8192 x 28672: 63.0 against 61.5), so none there
     * (bench/2026-11-24-h200-k-stagger.md) */
    g->stagger = gm != 1 || d->n < d->k ? 0 : g->bn == 256 ? 1 : 37;
  } else {
    /* fp8 and batched dots (and rows TMA cannot stride): from the H100 sweeps with
     * operands staged through registers (scripts/tune-gemm.sh; bench/2026-11-23-h100-
     * geometry.md, -pipeline.md, -fp8-tune.md), each a time in us for f16 unless fp8:
     *  - block-m: 16, 32, else 64 (M = 128 on 64-row tiles 93.4 at 128 x 8192 x 8192,
     *    against 155.5 for 128x64x32 on 8 warps).
     *  - "wide" = the grid of 64-column tiles has more programs than the GPU has SMs (132,
     *    H100/H200), e.g. N = 10240 (160): there 32x64x128 tiles on 4 warps ran M = 32 in
     *    76.1, 32x32x256 in 96.6 (bench/2026-11-22 and -23-h100-gemm.md).
     *  - block-n 64; 32 for 32-row tiles on a narrow grid (32 x 8192 x 8192: 32x32x256 54.5,
     *    32x64x128 64.1).
     *  - block-k: the deepest that 48 KiB of shared memory holds: 256 for 16 rows (16 x
     *    8192 x 8192: 53.5 against 62.3 for 128) and 32x32 tiles, else 128 (64 x 8192 x
     *    8192: 70.4, against 92.5 for 64).
     *  - warps: 8 for 64-row tiles on a narrow grid (66.0 against 70.7), 2 for 32-row and
     *    fp8 16-row tiles on a very wide one, above 256 programs (32 x 28672 x 8192: 168.4
     *    against 199.9; fp8 1 x 28672 x 8192: 94.8 against 111.5; at N = 10240, 160
     *    programs, 2 warps lost: M = 32 88.5 against 76.1, fp8 M = 16 59.4 against 46.8),
     *    else 4. */
    g->bm = o->v[2] ? o->v[2] : m <= 16 ? 16 : m <= 32 ? 32 : 64;
    int64_t programs = d->batch * gridPrograms((m + g->bm - 1) / g->bm, d->n, 64);
    bool wide = programs > sms, veryWide = programs > 256;
    g->bn = o->v[3] ? o->v[3] : g->bm == 32 && !wide ? 32 : 64;
    g->bk = o->v[4] ? o->v[4] : g->bm <= 16 || (g->bm == 32 && g->bn == 32) ? 256 : 128;
    g->warps = o->v[1]         ? o->v[1]
               : g->bm >= 128  ? 8
               : g->bm == 64   ? (wide ? 4 : 8)
               : veryWide && (g->bm == 32 || fp8) ? 2
                                                  : 4;
  }
  g->order = o->v[5];
  g->group = o->v[6];
  if (o->v[8] >= 0) /* option k-stagger; -1: the shape's (above) */
    g->stagger = o->v[8];
  int64_t vec = 8; /* 16-byte runs of f16/bf16 */
  bool pow2 = !(g->bm & (g->bm - 1)) && !(g->bk & (g->bk - 1));
  if (!pow2 || g->bm < 16 || g->bn < 16 || g->bn % 16 || g->bk < 32) {
    ttEmitError(fusion, "tile: dot tile %lldx%lldx%lld: block-m must be a power of two >= "
                        "16, block-n a multiple of 16 and block-k a power of two >= 32",
                (long long)g->bm, (long long)g->bn, (long long)g->bk);
    return false;
  }
  /* shared memory (convert-tile-to-gpu): the operands with rows padded by 8 elements, and
   * later the f32 accumulator with rows padded by 4 */
  int64_t smem = ttSmemDotBytes(g->bm, g->bn, g->bk);
  if (smem > TT_SMEM_DYNAMIC_LIMIT) { /* (past 48 KiB: dynamic shared memory) */
    ttEmitError(fusion, "tile: dot tile %lldx%lldx%lld needs %lld bytes of shared memory; "
                        "at most %d (225 KiB) are supported",
                (long long)g->bm, (long long)g->bn, (long long)g->bk, (long long)smem,
                TT_SMEM_DYNAMIC_LIMIT);
    return false;
  }
  int64_t t = 32 * g->warps;
  if ((g->bm * g->bk) % (t * vec) || (g->bn * g->bk) % (t * vec) || (g->bm * g->bn) % (t * vec)) {
    ttEmitError(fusion, "tile: dot tile %lldx%lldx%lld is too small for %lld warps: each of "
                        "the A, B and C tiles must hold at least 8 elements per thread",
                (long long)g->bm, (long long)g->bn, (long long)g->bk, (long long)g->warps);
    return false;
  }
  return true;
}

/* Steps 2-4 for a dot group (step 1, the operands, is done). */
static bool tileDot(MlirOperation fusion, MlirBlock fbody, const DotOperands *d,
                    const DotGeometry *g) {
  MlirContext ctx = mlirOperationGetContext(fusion);
  MlirLocation loc = mlirOperationGetLocation(fusion);
  intptr_t nin = mlirBlockGetNumArguments(fbody);
  MlirOperation ret = mlirBlockGetTerminator(fbody);
  MlirType outType = mlirValueGetType(mlirOperationGetOperand(ret, 0));
  MlirType i32 = ttI32(ctx), f32 = mlirF32TypeGet(ctx);
  char name[128];
  Emit e;
  MlirOperation kfunc =
      startKernel(fusion, fbody, outType, false, g->warps, g->bm * g->bn, &e, name, sizeof name);
  MlirBlock kbody = e.kernel;

  /* Step 1: the output tile of this program. */
  int64_t gm = (d->m + g->bm - 1) / g->bm, gn = (d->n + g->bn - 1) / g->bn;
  MlirNamedAttribute axis = ttNamedAttr(ctx, "axis", ttIntAttr(ctx, 0, i32));
  MlirValue pid = ttBuild(&e.b, "tile.program_id", loc, 0, NULL, i32, 1, &axis);
  MlirValue pidM, pidN;
  ttEmitPidOrder(&e.b, loc, pid, gm, gn, (TtPidOrder)g->order, g->group, &pidM, &pidN);
  MlirValue m0 = op2(&e, "arith.muli", pidM, ttConstInt(&e.b, loc, i32, g->bm), i32);
  MlirValue n0 = op2(&e, "arith.muli", pidN, ttConstInt(&e.b, loc, i32, g->bn), i32);

  /* Step 2: the operand tiles' index spaces (batched: batch pid_b = program id 2 starts
   * at pid_b * M * K in A, pid_b * K * N in B and pid_b * M * N in C). */
  OperandSpace sa = operandSpace(&e, g->bm, g->bk, true, m0, d->m, d->k, 1);
  OperandSpace sb = d->bT ? operandSpace(&e, g->bn, g->bk, true, n0, d->n, d->k, 1)
                          : operandSpace(&e, g->bk, g->bn, false, n0, d->n, 1, d->n);
  MlirValue pidB = {NULL};
  if (d->batch > 1) {
    MlirNamedAttribute z = ttNamedAttr(ctx, "axis", ttIntAttr(ctx, 2, i32));
    pidB = ttBuild(&e.b, "tile.program_id", loc, 0, NULL, i32, 1, &z);
    sa.offs = batchOffset(&e, sa.offs, pidB, d->m * d->k);
    sb.offs = batchOffset(&e, sb.offs, pidB, d->k * d->n);
  }

  /* Step 3: the K loop. */
  int64_t cshape[2] = {g->bm, g->bn};
  MlirValue acc0 = ttConstSplat(&e.b, loc, tileShaped(2, cshape, f32), 0.0);
  MlirOperation loop = ttBuildFor(&e.b, loc, ttConstInt(&e.b, loc, i32, 0),
                                  ttConstInt(&e.b, loc, i32, d->k),
                                  ttConstInt(&e.b, loc, i32, g->bk), 1, &acc0);
  TtBuilder outer = e.b;
  MlirBlock lb = ttForBody(loop);
  e.b = ttBuilderAtEnd(lb);
  MlirValue k0 = mlirBlockGetArgument(lb, 0);
  if (g->stagger)
    k0 = staggerK(&e, loop, k0, pidN, g->stagger, g->bk);
  bool kMask = d->k % g->bk != 0;
  int64_t ashape[2] = {g->bm, g->bk}, bshape[2] = {g->bn, g->bk}, kshape[2] = {g->bk, g->bn};
  MlirValue a = loadOperand(&e, &sa, d->a, k0, d->k, kMask, ashape, d->elem);
  MlirValue b = loadOperand(&e, &sb, d->b, k0, d->k, kMask, d->bT ? bshape : kshape, d->belem);
  if (d->batch == 1) { /* the matrices the tiles are boxes of (for --pipeline stage-in=tma) */
    int64_t adims[2] = {d->m, d->k}, bdims[2] = {d->bT ? d->n : d->k, d->bT ? d->k : d->n};
    boxOf(&e, a, adims);
    boxOf(&e, b, bdims);
  }
  if (d->bT)
    b = op1(&e, "tile.trans", b, tileShaped(2, kshape, d->belem));
  MlirValue dops[3] = {a, b, mlirBlockGetArgument(lb, 1)};
  MlirValue acc = ttBuild(&e.b, "tile.dot", loc, 3, dops, tileShaped(2, cshape, f32), 0, NULL);
  ttBuild(&e.b, "scf.yield", loc, 1, &acc, ttNoType(), 0, NULL);
  e.b = outer;

  /* Step 4: the epilogue over the flat C tile. */
  int64_t nc = g->bm * g->bn;
  MlirNamedAttribute re =
      ttNamedAttr(ctx, "reassociation", mlirAttributeParseGet(ctx, ttStrRef("[[0, 1]]")));
  MlirValue accFlat = ttBuild(&e.b, "tensor.collapse_shape", loc, 1,
                              (MlirValue[]){mlirOperationGetResult(loop, 0)},
                              tileShaped(1, &nc, f32), 1, &re);
  MlirType it = tileOf(&e, i32);
  MlirNamedAttribute range[2] = {ttNamedAttr(ctx, "start", ttIntAttr(ctx, 0, i32)),
                                 ttNamedAttr(ctx, "end", ttIntAttr(ctx, nc, i32))};
  MlirValue ic = ttBuild(&e.b, "tile.range", loc, 0, NULL, it, 2, range);
  MlirValue cm = op2(&e, "arith.addi", splatOf(&e, m0, it), withConst(&e, "arith.divui", ic, g->bn), it);
  MlirValue cn = op2(&e, "arith.addi", splatOf(&e, n0, it), withConst(&e, "arith.remui", ic, g->bn), it);
  e.offs = op2(&e, "arith.addi", withConst(&e, "arith.muli", cm, d->n), cn, it);
  if (d->batch > 1)
    e.offs = batchOffset(&e, e.offs, pidB, d->m * d->n);
  e.mask = andMask(&e, lessThan(&e, cm, d->m, d->m % g->bm != 0),
                   lessThan(&e, cn, d->n, d->n % g->bn != 0), nc);
  memoPut(&e, mlirOperationGetResult(d->matmul, 0), e.offs, accFlat);
  MlirValue v = emitValue(&e, mlirOperationGetOperand(ret, 0), e.offs);
  bool ok = !e.failed;
  if (ok) {
    MlirType oelem = ttElementType(outType);
    if (ttTypeIsHalf(oelem))
      v = op1(&e, "arith.truncf", v, tileOf(&e, oelem));
    MlirValue st[4] = {mlirBlockGetArgument(kbody, nin), e.offs, v, e.mask};
    ttBuild(&e.b, "tile.store", loc, 4, st, ttNoType(), 0, NULL);
    ttBuild(&e.b, "func.return", loc, 0, NULL, ttNoType(), 0, NULL);
  }
  free(e.memo);
  free(e.inputs);
  if (!ok) {
    mlirOperationDestroy(kfunc);
    return false;
  }
  char grid[32], gridZ[32];
  snprintf(grid, sizeof grid, "%lld", (long long)(gm * gn));
  snprintf(gridZ, sizeof gridZ, "%lld", (long long)d->batch);
  setLaunch(fusion, name, grid, gridZ, 0, NULL);
  return true;
}

bool ttTileDotFusion(MlirOperation fusion, const TtPassOptions *opts) {
  MlirBlock fbody;
  MlirType outType;
  DotOperands d;
  DotGeometry g;
  return fusionBody(fusion, &fbody, &outType) && checkDtype(fusion, outType, "the result") &&
         dotOperands(fusion, fbody, &d) && dotGeometry(fusion, &d, opts, &g) &&
         tileDot(fusion, fbody, &d, &g);
}

bool ttTilePass(MlirModule module, const TtPassOptions *opts) {
  int64_t block = opts->v[0], warps = opts->v[1]; /* 0: chosen from the shape */
  if (block & (block - 1)) {
    fprintf(stderr, "error: tile: block-size=%lld must be a power of two\n", (long long)block);
    return false;
  }
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    char kind[32] = "";
    if (!ttOpIs(op, "func.func") || !ttOpAttrStr(op, "prim.fusion", kind, sizeof kind) ||
        !mlirAttributeIsNull(ttOpAttr(op, "tile.launch")))
      continue;
    if (strcmp(kind, "dot") == 0) {
      if (!ttTileDotFusion(op, opts))
        return false;
      continue;
    }
    if (strcmp(kind, "elementwise") != 0 && strcmp(kind, "row") != 0) {
      ttEmitError(op, "tile: fusion kind '%s' is not supported yet", kind);
      return false;
    }
    Geometry geo = {.block = block, .warps = warps, .rowsPerProgram = 1};
    geo.row = strcmp(kind, "row") == 0; /* rowGeometry fills the rest */
    if (!geo.row) { /* elementwise defaults: 1024 elements, up to 4 warps */
      geo.block = block ? block : 1024;
      geo.warps = warps ? warps : clampI(geo.block / 32, 1, 4);
    }
    if (!tileFusion(op, geo))
      return false;
  }
  return true;
}
