/* verify.c - the tile verifier: what IRDL cannot say about tile programs, checked right
 * after parsing (ttParseModule), before any pass, so that the passes, the lowering and the
 * launch-metadata writer read only what this file guarantees.
 *
 * IRDL (tile.irdl.mlir) checks each op's operand and result kinds; it cannot relate one
 * operand's shape to another's or bound an integer attribute. This file does, op by op:
 *   - program_id, num_programs: axis 0, 1 or 2 (a grid has three axes);
 *   - range: 0 <= start < end < 2^31, the result a 1-D i32 tile of end - start elements;
 *   - splat: a static tile of the operand's type; broadcast: same rank and element type,
 *     each operand dim 1 or the result's; expand_dims: the operand's shape with a 1 at axis;
 *   - load, store, atomic_add: offsets an i32 tile, mask an i1 tile, value/result, offsets
 *     and mask of one static shape, the pointer's element type the value's;
 *   - cluster_reduce: kind sum/max/min, size 2 to 8; a tile: sum of a 2-D f32 tile;
 *   - arrive: count 2 to 65535;
 *   - reduce: axis within the rank, kind sum/max/min, the result the operand without that
 *     dim (a scalar for a 1-D tile) of the same element type;
 *   - trans: 2-D, the result the operand's shape swapped;
 *   - dot: a MxK, b KxN, acc MxN, 2-D, a and b of one element type (f16, bf16, fp8), acc f32;
 *   - local_alloc: a static memref<S x R x C x T, 3>; async_copy, local_load: a slot's R*C
 *     elements of the buffer's type; async_wait: pending >= 0.
 * and function by function:
 *   - a kernel (`tile.kernel`): arguments !tile.ptr, integers, floats or !hopper.tma_desc, no
 *     results; tile.num_warps 1-32, tile.producer_warps 0, 1 or 4, tile.programs_per_sm 1-32, tile.num_stages >= 1,
 *     tile.split_k >= 1 where given;
 *   - a fused function (`prim.fusion`): the kind one of elementwise, row, column, permute,
 *     dot; its `tile.launch` (where given) a dictionary of known keys: `kernel` naming a
 *     kernel of the module, `grid` three and `args` any number of launch expressions
 *     (docs/metadata.md's grammar over %iN / %rN, the function's inputs and results, with
 *     dim() within their rank), `zero_result` unit or bool, `workspace` a positive integer
 *     with `reduce` naming a kernel or with `counters` (unit), `when` an expression with `when_range = array<i64: lo,
 *     hi>`, `tma` entries array<i64: input, [batch,] D0, D1, box rows, box columns>,
 *     `programs` an integer 1 to 2^31 - 1 (a symbolic grid's size as planned); the kernel's
 *     parameters what the launch passes: inputs + results (+ workspace) pointers, one
 *     integer per arg, one descriptor per tma entry; tile.when / tile.variant_of as --tile
 *     writes them, the buckets of a fused function and its variants covering every M >= 1
 *     exactly once (bucketCover: one pass over the functions, a sort by owner).
 * Every failing op gets a located error and the walk goes on, so one run reports them all.
 */
#include "tt.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  MlirModule module;
  TtModuleIndex index; /* the module's functions by name: a lookup per launch, not a scan */
  TtStrIndex gpuFuncs;  /* gpu.funcs of @tt_kernels by name -> position in gpuOps */
  MlirOperation *gpuOps;
  bool gpuIndexed;
  bool ok;
} Verify;

#define FAIL(op, ...)                                                                      \
  do {                                                                                     \
    ttEmitError(op, __VA_ARGS__);                                                          \
    v->ok = false;                                                                         \
  } while (0)

/* A static, ranked tensor type's shape into shape[]; its rank, or -1 for anything else. */
static int64_t staticShape(MlirType t, int64_t shape[TT_MAX_RANK]) {
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t) ||
      mlirShapedTypeGetRank(t) > TT_MAX_RANK)
    return -1;
  return ttTensorShape(t, shape);
}

static bool sameShape(MlirType a, MlirType b) {
  int64_t sa[TT_MAX_RANK], sb[TT_MAX_RANK];
  int64_t ra = staticShape(a, sa), rb = staticShape(b, sb);
  return ra >= 0 && ra == rb && memcmp(sa, sb, sizeof(int64_t) * (size_t)ra) == 0;
}

static bool elemIs(MlirType t, unsigned width) {
  MlirType e = ttElementType(t);
  return mlirTypeIsAInteger(e) && mlirIntegerTypeGetWidth(e) == width;
}

static MlirType operandType(MlirOperation op, intptr_t i) {
  return mlirValueGetType(mlirOperationGetOperand(op, i));
}

static MlirType resultType(MlirOperation op, intptr_t i) {
  return mlirValueGetType(mlirOperationGetResult(op, i));
}

/* op's integer attribute `key` in [lo, hi] (into *out); false after an error. */
static bool intIn(Verify *v, MlirOperation op, const char *key, int64_t lo, int64_t hi,
                  int64_t *out) {
  MlirAttribute a = ttOpAttr(op, key);
  char name[64];
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a) ||
      mlirIntegerAttrGetValueInt(a) < lo || mlirIntegerAttrGetValueInt(a) > hi) {
    FAIL(op, "'%s' needs %s, an integer from %lld to %lld", ttOpName(op, name, sizeof name),
         key, (long long)lo, (long long)hi);
    return false;
  }
  if (out)
    *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

/* t printed, into buf (cut at n - 1 bytes). */
static const char *typeText(MlirType t, char *buf, size_t n) {
  TtStr s = {0};
  mlirTypePrint(t, ttStrCallback, &s);
  snprintf(buf, n, "%.*s", (int)s.len, s.data ? s.data : "");
  ttStrDestroy(&s);
  return buf;
}

static bool isPtr(MlirType t) {
  char buf[16];
  return strncmp(typeText(t, buf, sizeof buf), "!tile.ptr<", 10) == 0;
}

static bool isTmaDesc(MlirType t) {
  char buf[32];
  return strcmp(typeText(t, buf, sizeof buf), "!hopper.tma_desc") == 0;
}

/* Whether ptr is !tile.ptr<elem>: their printed forms (no type is made). */
static bool ptrHolds(MlirType ptr, MlirType elem) {
  char e[64], want[80], have[80];
  typeText(elem, e, sizeof e);
  snprintf(want, sizeof want, "!tile.ptr<%s>", e);
  return strcmp(typeText(ptr, have, sizeof have), want) == 0;
}

/* load / store / atomic_add: `ptr` operand 0, offsets 1; the value (store: operand 2,
 * load: the result) and the mask (load: 2, store: 3). */
static void memoryOp(Verify *v, MlirOperation op, bool load) {
  char name[64];
  ttOpName(op, name, sizeof name);
  MlirType offs = operandType(op, 1), mask = operandType(op, load ? 2 : 3);
  MlirType value = load ? resultType(op, 0) : operandType(op, 2);
  if (!elemIs(offs, 32) || !elemIs(mask, 1))
    FAIL(op, "'%s' needs i32 offsets and an i1 mask", name);
  else if (!sameShape(offs, value) || !sameShape(mask, value))
    FAIL(op, "'%s' needs offsets, mask and %s of one static shape", name,
         load ? "result" : "value");
  else if (!ptrHolds(operandType(op, 0), ttElementType(value)))
    FAIL(op, "'%s' reads or writes elements of another type than its pointer's", name);
}

/* A shared-memory ring memref<S x R x C x T, 3> with rows of whole 16-byte chunks: its
 * R * C (slot elements), or -1. */
static int64_t slotElements(MlirType m) {
  if (!mlirTypeIsAMemRef(m) || mlirShapedTypeGetRank(m) != 3 ||
      !mlirShapedTypeHasStaticShape(m) || ttDtypeBytes(m) < 1 ||
      mlirShapedTypeGetDimSize(m, 2) * ttDtypeBytes(m) % 16 != 0)
    return -1;
  MlirAttribute space = mlirMemRefTypeGetMemorySpace(m);
  if (mlirAttributeIsNull(space) || !mlirAttributeIsAInteger(space) ||
      mlirIntegerAttrGetValueInt(space) != 3)
    return -1;
  return mlirShapedTypeGetDimSize(m, 1) * mlirShapedTypeGetDimSize(m, 2);
}

static void reduceOp(Verify *v, MlirOperation op) {
  int64_t shape[TT_MAX_RANK], axis;
  MlirType in = operandType(op, 0), out = resultType(op, 0);
  int64_t rank = staticShape(in, shape);
  char kind[16] = "";
  ttOpAttrStr(op, "kind", kind, sizeof kind);
  if (rank < 1) {
    FAIL(op, "'tile.reduce' needs a static tile");
    return;
  }
  if (!intIn(v, op, "axis", 0, rank - 1, &axis))
    return;
  if (strcmp(kind, "sum") != 0 && strcmp(kind, "max") != 0 && strcmp(kind, "min") != 0) {
    FAIL(op, "'tile.reduce' kind must be \"sum\", \"max\" or \"min\"");
    return;
  }
  if (rank == 1) {
    if (!mlirTypeEqual(out, ttElementType(in)))
      FAIL(op, "'tile.reduce' of a 1-D tile gives a scalar of its element type");
    return;
  }
  int64_t want[TT_MAX_RANK], n = 0;
  for (int64_t d = 0; d < rank; d++)
    if (d != axis)
      want[n++] = shape[d];
  MlirType t = mlirRankedTensorTypeGet(n, want, ttElementType(in), mlirAttributeGetNull());
  if (!mlirTypeEqual(out, t))
    FAIL(op, "'tile.reduce' gives the operand's tile without dim %lld", (long long)axis);
}

static void dotOp(Verify *v, MlirOperation op) {
  int64_t a[TT_MAX_RANK], b[TT_MAX_RANK], c[TT_MAX_RANK];
  MlirType ta = operandType(op, 0), tb = operandType(op, 1), tc = operandType(op, 2);
  if (staticShape(ta, a) != 2 || staticShape(tb, b) != 2 || staticShape(tc, c) != 2 ||
      a[1] != b[0] || c[0] != a[0] || c[1] != b[1]) {
    FAIL(op, "'tile.dot' needs static 2-D tiles a MxK, b KxN and acc MxN");
    return;
  }
  MlirType ea = ttElementType(ta), eb = ttElementType(tb);
  bool half = ttTypeIsHalf(ea) && mlirTypeEqual(ea, eb), fp8 = ttTypeIsFp8(ea) && ttTypeIsFp8(eb);
  if (!(half || fp8) || !mlirTypeIsAF32(ttElementType(tc)))
    FAIL(op, "'tile.dot' needs f16, bf16 or fp8 operands (one type, or two fp8 formats) "
             "and an f32 accumulator");
}

/* The tile ops' rules (one call per op of the program). */
static void tileOp(Verify *v, MlirOperation op) {
  int64_t shape[TT_MAX_RANK], rshape[TT_MAX_RANK];
  if (ttOpIs(op, "tile.program_id") || ttOpIs(op, "tile.num_programs")) {
    intIn(v, op, "axis", 0, 2, NULL);
  } else if (ttOpIs(op, "tile.range")) {
    int64_t start, end;
    if (intIn(v, op, "start", 0, INT32_MAX - 1, &start) &&
        intIn(v, op, "end", start + 1, INT32_MAX, &end) &&
        (staticShape(resultType(op, 0), shape) != 1 || shape[0] != end - start ||
         !elemIs(resultType(op, 0), 32)))
      FAIL(op, "'tile.range' gives a 1-D i32 tile of end - start = %lld elements",
           (long long)(end - start));
  } else if (ttOpIs(op, "tile.splat")) {
    MlirType r = resultType(op, 0);
    if (staticShape(r, shape) < 0 || !mlirTypeEqual(ttElementType(r), operandType(op, 0)))
      FAIL(op, "'tile.splat' gives a static tile of its operand's type");
  } else if (ttOpIs(op, "tile.broadcast")) {
    MlirType in = operandType(op, 0), out = resultType(op, 0);
    int64_t r = staticShape(in, shape);
    bool ok = r >= 0 && staticShape(out, rshape) == r &&
              mlirTypeEqual(ttElementType(in), ttElementType(out));
    for (int64_t d = 0; ok && d < r; d++)
      ok = shape[d] == 1 || shape[d] == rshape[d];
    if (!ok)
      FAIL(op, "'tile.broadcast' needs a static tile of the result's rank and element type "
               "whose dims are 1 or the result's");
  } else if (ttOpIs(op, "tile.expand_dims")) {
    MlirType in = operandType(op, 0), out = resultType(op, 0);
    int64_t r = staticShape(in, shape), axis;
    if (r < 0 || r >= TT_MAX_RANK) {
      FAIL(op, "'tile.expand_dims' needs a static tile of rank below %d", TT_MAX_RANK);
      return;
    }
    if (!intIn(v, op, "axis", 0, r, &axis))
      return;
    memmove(shape + axis + 1, shape + axis, sizeof(int64_t) * (size_t)(r - axis));
    shape[axis] = 1;
    if (!mlirTypeEqual(out, mlirRankedTensorTypeGet(r + 1, shape, ttElementType(in),
                                                    mlirAttributeGetNull())))
      FAIL(op, "'tile.expand_dims' gives its operand's tile with a dim of 1 at axis %lld",
           (long long)axis);
  } else if (ttOpIs(op, "tile.load")) {
    memoryOp(v, op, true);
    MlirAttribute early = ttOpAttr(op, "tile.early");
    if (!mlirAttributeIsNull(early) && !mlirAttributeIsAUnit(early))
      FAIL(op, "'tile.load' takes `tile.early` as a unit attribute");
  } else if (ttOpIs(op, "tile.store") || ttOpIs(op, "tile.atomic_add")) {
    memoryOp(v, op, false);
    if (!mlirAttributeIsNull(ttOpAttr(op, "tile.extent"))) /* the elements ptr addresses */
      intIn(v, op, "tile.extent", 1, INT32_MAX, NULL);
  } else if (ttOpIs(op, "tile.reduce")) {
    reduceOp(v, op);
  } else if (ttOpIs(op, "tile.cluster_reduce")) {
    char kind[16] = "";
    ttOpAttrStr(op, "kind", kind, sizeof kind);
    MlirType t = operandType(op, 0);
    int64_t dims[TT_MAX_RANK];
    bool tile = mlirTypeIsARankedTensor(t);
    if (strcmp(kind, "sum") != 0 && strcmp(kind, "max") != 0 && strcmp(kind, "min") != 0)
      FAIL(op, "'tile.cluster_reduce' kind must be \"sum\", \"max\" or \"min\"");
    else if (tile && (strcmp(kind, "sum") != 0 || ttTensorShape(t, dims) != 2 ||
                      !mlirTypeIsAF32(ttElementType(t)) ||
                      !mlirTypeEqual(t, resultType(op, 0))))
      FAIL(op, "'tile.cluster_reduce' of a tile needs kind \"sum\" and a 2-D f32 tile, "
               "its result of the same type");
    else
      intIn(v, op, "size", 2, 8, NULL); /* the portable cluster sizes */
  } else if (ttOpIs(op, "tile.arrive")) {
    intIn(v, op, "count", 2, 65535, NULL); /* as many as tile.split_k's slices */
  } else if (ttOpIs(op, "tile.trans")) {
    MlirType in = operandType(op, 0), out = resultType(op, 0);
    if (staticShape(in, shape) != 2 || staticShape(out, rshape) != 2 ||
        shape[0] != rshape[1] || shape[1] != rshape[0] ||
        !mlirTypeEqual(ttElementType(in), ttElementType(out)))
      FAIL(op, "'tile.trans' gives a static 2-D tile's transpose");
  } else if (ttOpIs(op, "tile.dot")) {
    dotOp(v, op);
  } else if (ttOpIs(op, "tile.local_alloc")) {
    if (slotElements(resultType(op, 0)) < 1)
      FAIL(op, "'tile.local_alloc' gives a static memref<S x R x C x T, 3> whose rows are a "
               "multiple of 16 bytes");
  } else if (ttOpIs(op, "tile.async_copy")) {
    MlirType offs = operandType(op, 1), mask = operandType(op, 2), buf = operandType(op, 3);
    if (slotElements(buf) < 1 || !elemIs(offs, 32) || !elemIs(mask, 1) ||
        !sameShape(offs, mask) || ttTensorNumel(offs) != slotElements(buf) ||
        !ptrHolds(operandType(op, 0), ttElementType(buf)))
      FAIL(op, "'tile.async_copy' needs i32 offsets and an i1 mask of one static shape, as "
               "many elements as a slot of its memref<S x R x C x T, 3>, and a pointer to T");
  } else if (ttOpIs(op, "tile.local_load")) {
    MlirType buf = operandType(op, 0), out = resultType(op, 0);
    if (slotElements(buf) < 1 || staticShape(out, shape) < 0 ||
        ttTensorNumel(out) != slotElements(buf) ||
        !mlirTypeEqual(ttElementType(out), ttElementType(buf)))
      FAIL(op, "'tile.local_load' gives a static tile of one slot of its memref<S x R x C x "
               "T, 3> (R * C elements of T)");
  } else if (ttOpIs(op, "tile.async_wait")) {
    intIn(v, op, "pending", 0, 64, NULL);
  }
}

/*===------------------------------------------------------------------===*
 * Launch expressions (docs/metadata.md) before substitution: %iN / %rN name the fused
 * function's inputs and results.
 *===------------------------------------------------------------------===*/

typedef struct {
  const char *p;
  MlirType fnType; /* the fused function's: inputs %iN, results %rN */
  int depth;
  bool ok;
} Expr;

static bool exprSum(Expr *e);

static bool exprLit(Expr *e, const char *s) {
  size_t n = strlen(s);
  if (strncmp(e->p, s, n) != 0)
    return false;
  e->p += n;
  return true;
}

static bool exprInt(Expr *e, int64_t *out) {
  if (!isdigit((unsigned char)*e->p))
    return false;
  int64_t v = 0;
  for (; isdigit((unsigned char)*e->p); e->p++) {
    if (v > (INT64_MAX - 9) / 10)
      return false;
    v = v * 10 + (*e->p - '0');
  }
  *out = v;
  return true;
}

/* %iN or %rN: the type it names, or a null type. */
static MlirType exprName(Expr *e) {
  int64_t k;
  MlirType none = {NULL};
  if (e->p[0] != '%' || (e->p[1] != 'i' && e->p[1] != 'r'))
    return none;
  bool in = e->p[1] == 'i';
  e->p += 2;
  if (!exprInt(e, &k))
    return none;
  intptr_t n = in ? mlirFunctionTypeGetNumInputs(e->fnType) : mlirFunctionTypeGetNumResults(e->fnType);
  if (k >= n)
    return none;
  return in ? mlirFunctionTypeGetInput(e->fnType, k) : mlirFunctionTypeGetResult(e->fnType, k);
}

static bool exprTerm(Expr *e) {
  int64_t k;
  if (exprInt(e, &k))
    return true;
  if (exprLit(e, "numel(")) {
    MlirType t = exprName(e);
    return !mlirTypeIsNull(t) && mlirTypeIsARankedTensor(t) && exprLit(e, ")");
  }
  if (exprLit(e, "dim(")) {
    MlirType t = exprName(e);
    return !mlirTypeIsNull(t) && mlirTypeIsARankedTensor(t) && exprLit(e, ",") &&
           exprInt(e, &k) && k < mlirShapedTypeGetRank(t) && exprLit(e, ")");
  }
  if (exprLit(e, "cdiv("))
    return exprSum(e) && exprLit(e, ",") && exprSum(e) && exprLit(e, ")");
  return exprLit(e, "(") && exprSum(e) && exprLit(e, ")");
}

static bool exprProduct(Expr *e) {
  if (!exprTerm(e))
    return false;
  while (exprLit(e, "*"))
    if (!exprTerm(e))
      return false;
  return true;
}

static bool exprSum(Expr *e) {
  if (++e->depth > 32)
    return false;
  if (!exprProduct(e))
    return false;
  while (exprLit(e, "+"))
    if (!exprProduct(e))
      return false;
  e->depth--;
  return true;
}

/* Whether a is a string launch expression over fused function fn's values. */
static bool isExpr(MlirAttribute a, MlirType fnType) {
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
    return false;
  MlirStringRef s = mlirStringAttrGetValue(a);
  char buf[256];
  if (s.length == 0 || s.length >= sizeof buf || memchr(s.data, 0, s.length))
    return false;
  memcpy(buf, s.data, s.length);
  buf[s.length] = 0;
  Expr e = {buf, fnType, 0, true};
  return exprSum(&e) && *e.p == '\0';
}

/*===------------------------------------------------------------------===*
 * Functions: kernels, fused functions and their tile.launch
 *===------------------------------------------------------------------===*/

/* The kernel a symbol reference names: a func.func with tile.kernel in the module, or a
 * gpu.func of gpu.module @tt_kernels (after --convert-tile-to-gpu); null otherwise. */
static MlirOperation kernelNamed(Verify *v, MlirAttribute ref) {
  MlirOperation none = {NULL};
  if (mlirAttributeIsNull(ref) || !mlirAttributeIsAFlatSymbolRef(ref))
    return none;
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(ref);
  char buf[256];
  if (name.length >= sizeof buf)
    return none;
  snprintf(buf, sizeof buf, "%.*s", (int)name.length, name.data);
  MlirOperation f = ttModuleIndexSymbol(&v->index, buf);
  if (!mlirOperationIsNull(f))
    return ttOpIs(f, "func.func") && !mlirAttributeIsNull(ttOpAttr(f, "tile.kernel")) ? f : none;
  if (!v->gpuIndexed) { /* once: the gpu.funcs of @tt_kernels (after the lowering) */
    v->gpuIndexed = true;
    MlirOperation gm = ttModuleIndexSymbol(&v->index, "tt_kernels");
    if (!mlirOperationIsNull(gm) && ttOpIs(gm, "gpu.module")) {
      MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(gm, 0));
      int n = 0;
      for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
           op = mlirOperationGetNextInBlock(op))
        n++;
      v->gpuOps = ttAlloc(sizeof(MlirOperation) * (size_t)(n + 1));
      n = 0;
      for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
           op = mlirOperationGetNextInBlock(op)) {
        MlirAttribute s = ttOpAttr(op, "sym_name");
        if (ttOpIs(op, "gpu.func") && !mlirAttributeIsNull(s) &&
            ttStrIndexFind(&v->gpuFuncs, mlirStringAttrGetValue(s)) < 0) {
          v->gpuOps[n] = op;
          ttStrIndexAdd(&v->gpuFuncs, mlirStringAttrGetValue(s), n++);
        }
      }
    }
  }
  int k = v->gpuOps ? ttStrIndexFind(&v->gpuFuncs, ttStrRef(buf)) : -1;
  return k >= 0 ? v->gpuOps[k] : none;
}

static MlirType funcType(MlirOperation f) {
  return mlirTypeAttrGetValue(ttOpAttr(f, "function_type"));
}

/* A kernel's own attributes and signature. */
static void kernelFunc(Verify *v, MlirOperation f) {
  MlirType t = funcType(f);
  if (mlirFunctionTypeGetNumResults(t) != 0)
    FAIL(f, "a tile.kernel function returns nothing (it stores through its pointers)");
  for (intptr_t i = 0; i < mlirFunctionTypeGetNumInputs(t); i++) {
    MlirType a = mlirFunctionTypeGetInput(t, i);
    if (!mlirTypeIsAInteger(a) && !mlirTypeIsAFloat(a) && !isTmaDesc(a) && !isPtr(a)) {
      FAIL(f, "a tile.kernel's argument %ld must be a !tile.ptr, an integer, a float or a "
              "!hopper.tma_desc",
           (long)i);
      break;
    }
  }
  if (!mlirAttributeIsNull(ttOpAttr(f, "tile.num_warps")))
    intIn(v, f, "tile.num_warps", 1, 32, NULL);
  int64_t producers = 0;
  if (!mlirAttributeIsNull(ttOpAttr(f, "tile.producer_warps")) &&
      intIn(v, f, "tile.producer_warps", 0, 4, &producers) && producers > 1 && producers < 4)
    FAIL(f, "'func.func' needs tile.producer_warps 0, 1 (a producer warp) or 4 (a producer "
            "warpgroup); it has %lld", (long long)producers);
  if (producers == 4 && ttOpAttrInt(f, "tile.num_warps", 4) % 4)
    FAIL(f, "'func.func' with tile.producer_warps = 4 (a warpgroup) needs tile.num_warps a "
            "multiple of 4 (whole warpgroups: setmaxnreg runs in every warp of one); it has "
            "%lld", (long long)ttOpAttrInt(f, "tile.num_warps", 4));
  if (!mlirAttributeIsNull(ttOpAttr(f, "tile.programs_per_sm")))
    intIn(v, f, "tile.programs_per_sm", 1, 32, NULL);
  if (!mlirAttributeIsNull(ttOpAttr(f, "tile.num_stages")))
    intIn(v, f, "tile.num_stages", 1, 64, NULL);
  if (!mlirAttributeIsNull(ttOpAttr(f, "tile.split_k")))
    intIn(v, f, "tile.split_k", 1, 65535, NULL);
}

/* Kernel k (a func.func) takes what a launch of it passes: nptr pointers, nint integers,
 * ntma descriptors, in that order. */
static void kernelTakes(Verify *v, MlirOperation fn, MlirOperation k, intptr_t nptr,
                        bool workspace, intptr_t nint, intptr_t ntma) {
  if (!ttOpIs(k, "func.func"))
    return; /* a gpu.func: lowered from a kernel that was checked */
  MlirType t = funcType(k);
  intptr_t n = mlirFunctionTypeGetNumInputs(t);
  bool ok = n == nptr + nint + ntma;
  for (intptr_t i = 0; ok && i < n; i++) {
    MlirType a = mlirFunctionTypeGetInput(t, i);
    ok = i < nptr ? isPtr(a) : i < nptr + nint ? mlirTypeIsAInteger(a) : isTmaDesc(a);
  }
  char name[128] = "?";
  ttOpAttrStr(k, "sym_name", name, sizeof name);
  if (!ok)
    FAIL(fn, "tile.launch: kernel @%s must take %ld pointers (inputs, results%s), %ld "
             "integers (args) and %ld tma descriptors",
         name, (long)nptr, workspace ? ", workspace" : "", (long)nint, (long)ntma);
}

/* The cluster size kernel k's ops assume (tile.cluster_reduce's size, a multicast
 * hopper.tma_load's or hopper.mbarrier_arrive's `multicast`): data[0] the first found,
 * data[1] true when another disagrees. */
static bool clusterUse(MlirOperation op, void *data) {
  int64_t *c = data, n = 0;
  MlirAttribute a = ttOpIs(op, "tile.cluster_reduce") ? ttOpAttr(op, "size")
                    : ttOpIs(op, "hopper.tma_load") || ttOpIs(op, "hopper.mbarrier_arrive")
                        ? ttOpAttr(op, "multicast")
                        : mlirAttributeGetNull();
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a))
    n = mlirIntegerAttrGetValueInt(a);
  if (n > 1) {
    c[1] |= c[0] && c[0] != n;
    c[0] = c[0] ? c[0] : n;
  }
  return true;
}

static const char *const kLaunchKeys[] = {"kernel",     "grid", "args",       "zero_result",
                                          "zero_kernel", "reduce", "workspace", "when",
                                          "when_range", "tma",   "cluster",    "counters",
                                          "programs",   NULL};

/* A fused function's tile.launch dictionary. */
static void launchOf(Verify *v, MlirOperation fn, MlirAttribute l) {
  if (!mlirAttributeIsADictionary(l)) {
    FAIL(fn, "tile.launch must be a dictionary {kernel = @k, grid = [x, y, z], args = [...]}");
    return;
  }
  MlirType t = funcType(fn);
  intptr_t nin = mlirFunctionTypeGetNumInputs(t), nres = mlirFunctionTypeGetNumResults(t);
  for (intptr_t i = 0; i < mlirDictionaryAttrGetNumElements(l); i++) {
    MlirStringRef key = mlirIdentifierStr(mlirDictionaryAttrGetElement(l, i).name);
    bool known = false;
    for (int k = 0; kLaunchKeys[k] && !known; k++)
      known = ttStrRefEq(key, kLaunchKeys[k]);
    if (!known)
      FAIL(fn, "tile.launch: unknown key '%.*s'", (int)key.length, key.data);
  }
#define GET(k) mlirDictionaryAttrGetElementByName(l, ttStrRef(k))
  MlirAttribute kernel = GET("kernel"), grid = GET("grid"), args = GET("args");
  MlirAttribute zero = GET("zero_result"), reduce = GET("reduce"), ws = GET("workspace");
  MlirAttribute when = GET("when"), range = GET("when_range"), tma = GET("tma");
  MlirAttribute counters = GET("counters");
#undef GET
  MlirOperation k = kernelNamed(v, kernel);
  if (mlirOperationIsNull(k))
    FAIL(fn, "tile.launch: kernel must name a tile.kernel function of the module");
  bool gridOk = !mlirAttributeIsNull(grid) && mlirAttributeIsAArray(grid) &&
                mlirArrayAttrGetNumElements(grid) == 3;
  for (intptr_t i = 0; gridOk && i < 3; i++)
    gridOk = isExpr(mlirArrayAttrGetElement(grid, i), t);
  if (!gridOk)
    FAIL(fn, "tile.launch: grid must be three launch expressions (docs/metadata.md) over "
             "%%iN / %%rN, the function's inputs and results");
  bool argsOk = !mlirAttributeIsNull(args) && mlirAttributeIsAArray(args);
  for (intptr_t i = 0; argsOk && i < mlirArrayAttrGetNumElements(args); i++)
    argsOk = isExpr(mlirArrayAttrGetElement(args, i), t);
  if (!argsOk)
    FAIL(fn, "tile.launch: args must be an array of launch expressions (docs/metadata.md) "
             "over %%iN / %%rN, the function's inputs and results");
  if (!mlirAttributeIsNull(zero) && !mlirAttributeIsAUnit(zero) && !mlirAttributeIsABool(zero))
    FAIL(fn, "tile.launch: zero_result must be a unit or bool attribute");
  MlirAttribute cluster = mlirDictionaryAttrGetElementByName(l, ttStrRef("cluster"));
  if (!mlirAttributeIsNull(cluster) &&
      (!mlirAttributeIsAInteger(cluster) || mlirIntegerAttrGetValueInt(cluster) < 2 ||
       mlirIntegerAttrGetValueInt(cluster) > 8))
    FAIL(fn, "tile.launch: cluster must be an integer from 2 to 8 (blocks of a thread-block "
             "cluster along x)");
  int64_t uses[2] = {0, 0}; /* what the kernel's ops share over a cluster */
  if (!mlirOperationIsNull(k) && ttOpIs(k, "func.func"))
    ttWalk(k, clusterUse, uses);
  int64_t launched = !mlirAttributeIsNull(cluster) && mlirAttributeIsAInteger(cluster)
                         ? mlirIntegerAttrGetValueInt(cluster)
                         : 1;
  if (uses[1] || (uses[0] && uses[0] != launched))
    FAIL(fn, "tile.launch: cluster must be the cluster size its kernel's ops share data over "
             "(tile.cluster_reduce's size, a hopper.tma_load's or mbarrier_arrive's "
             "multicast: %lld; the launch has %lld)",
         (long long)uses[0], (long long)launched);
  MlirAttribute zk = mlirDictionaryAttrGetElementByName(l, ttStrRef("zero_kernel"));
  if (!mlirAttributeIsNull(zk)) { /* --pdl's: a kernel (!tile.ptr<T>, i32) of the result's T */
    MlirOperation z = kernelNamed(v, zk);
    bool lowered = !mlirOperationIsNull(z) && !ttOpIs(z, "func.func"); /* a gpu.func, checked
                                                                        * as a tile kernel */
    MlirBlock zb = mlirOperationIsNull(z) ? (MlirBlock){NULL}
                                         : mlirRegionGetFirstBlock(mlirOperationGetRegion(z, 0));
    MlirType n = mlirBlockIsNull(zb) || mlirBlockGetNumArguments(zb) != 2
                     ? (MlirType){NULL}
                     : mlirValueGetType(mlirBlockGetArgument(zb, 1));
    bool ok = !mlirOperationIsNull(z) && !mlirAttributeIsNull(zero) && nres == 1 &&
              (lowered || (!mlirTypeIsNull(n) && mlirTypeIsAInteger(n) &&
                           mlirIntegerTypeGetWidth(n) == 32));
    if (ok && !lowered) {
      char want[160], have[160];
      snprintf(want, sizeof want, "!tile.ptr<%s>",
               ttDtypeName(ttElementType(mlirFunctionTypeGetResult(t, 0))));
      ok = strcmp(typeText(mlirValueGetType(mlirBlockGetArgument(zb, 0)), have, sizeof have),
                  want) == 0;
    }
    if (!ok)
      FAIL(fn, "tile.launch: zero_kernel must name a tile.kernel function (!tile.ptr<T>, i32) "
               "of the result's element type T, with zero_result, for one result (launch "
               "metadata runs it over cdiv(numel, 1024) programs)");
  }
  MlirOperation rk = kernelNamed(v, reduce);
  bool last = !mlirAttributeIsNull(counters); /* reduce=last-slice: no reduce kernel */
  bool wsOk = mlirAttributeIsNull(ws) ? mlirAttributeIsNull(reduce) && !last
                                      : mlirAttributeIsAInteger(ws) &&
                                            mlirIntegerAttrGetValueInt(ws) >= 1 &&
                                            mlirIntegerAttrGetValueInt(ws) <= 65535 &&
                                            (last ? mlirAttributeIsAUnit(counters) &&
                                                        mlirAttributeIsNull(reduce)
                                                  : !mlirOperationIsNull(rk));
  if (!wsOk)
    FAIL(fn, "tile.launch: workspace = S (an integer, 1 to 65535) goes with reduce = @kernel "
             "(a tile.kernel function) or with counters (a unit attribute), not both");
  if (!mlirAttributeIsNull(when) || !mlirAttributeIsNull(range)) {
    int64_t lo = -1, hi = -1;
    if (!mlirAttributeIsNull(range) && mlirAttributeIsADenseI64Array(range) &&
        mlirDenseArrayGetNumElements(range) == 2) {
      lo = mlirDenseI64ArrayGetElement(range, 0);
      hi = mlirDenseI64ArrayGetElement(range, 1);
    }
    if (!isExpr(when, t) || lo < 1 || (hi != 0 && hi < lo))
      FAIL(fn, "tile.launch: when (a launch expression) needs when_range = array<i64: lo, "
               "hi> (lo >= 1; hi >= lo, or 0: no upper bound)");
  }
  MlirAttribute programs = mlirDictionaryAttrGetElementByName(l, ttStrRef("programs"));
  if (!mlirAttributeIsNull(programs) &&
      (!mlirAttributeIsAInteger(programs) || mlirIntegerAttrGetValueInt(programs) < 1 ||
       mlirIntegerAttrGetValueInt(programs) > INT32_MAX))
    FAIL(fn, "tile.launch: programs (the grid a symbolic one is sized for) must be an "
             "integer from 1 to 2^31 - 1");
  intptr_t ntma = 0;
  if (!mlirAttributeIsNull(tma)) {
    bool ok = mlirAttributeIsAArray(tma);
    ntma = ok ? mlirArrayAttrGetNumElements(tma) : 0;
    for (intptr_t i = 0; ok && i < ntma; i++) {
      MlirAttribute e = mlirArrayAttrGetElement(tma, i);
      intptr_t n = mlirAttributeIsADenseI64Array(e) ? mlirDenseArrayGetNumElements(e) : 0;
      ok = n == 5 || n == 6; /* 6: a batch first (a batched map, static) */
      int64_t in = ok ? mlirDenseI64ArrayGetElement(e, 0) : -1;
      ok = ok && in >= 0 && in < nin;
      for (int j = 1; ok && j < n; j++) {
        int64_t x = mlirDenseI64ArrayGetElement(e, j);
        ok = (x >= 1 && x <= INT32_MAX) || (n == 5 && j == 1 && x == -1);
      }
    }
    if (!ok)
      FAIL(fn, "tile.launch: each tma entry is array<i64: input, [batch,] D0, D1, box rows, "
               "box columns> of an input of the function (D0 -1: a dynamic M, without a "
               "batch)");
  }
  if (v->ok && !mlirOperationIsNull(k)) {
    bool w = !mlirAttributeIsNull(ws);
    intptr_t nptr = nin + nres + (w ? 1 : 0), nint = mlirArrayAttrGetNumElements(args);
    kernelTakes(v, fn, k, nptr, w, nint, ntma);
    if (!mlirOperationIsNull(rk))
      kernelTakes(v, fn, rk, nptr, w, nint, 0);
  }
}

static const char *const kFusionKinds[] = {"elementwise", "row", "column", "permute", "dot",
                                           NULL};

/* The bucket [lo, hi] of tile.when w (hi 0: open); false when w is not one. */
static bool bucketOf(MlirAttribute w, int64_t *lo, int64_t *hi) {
  if (!mlirAttributeIsADenseI64Array(w) || mlirDenseArrayGetNumElements(w) != 2)
    return false;
  int64_t l = mlirDenseI64ArrayGetElement(w, 0), h = mlirDenseI64ArrayGetElement(w, 1);
  if (lo)
    *lo = l, *hi = h;
  return l >= 1 && l <= INT32_MAX && (h == 0 || (l <= h && h <= INT32_MAX));
}

/* A fused function: its kind, launch and bucket attributes. */
static void fusedFunc(Verify *v, MlirOperation f) {
  MlirAttribute kind = ttOpAttr(f, "prim.fusion");
  bool known = mlirAttributeIsAString(kind);
  for (int k = 0; known && kFusionKinds[k]; k++)
    if (ttStrRefEq(mlirStringAttrGetValue(kind), kFusionKinds[k]))
      break;
    else if (!kFusionKinds[k + 1])
      known = false;
  if (!known)
    FAIL(f, "prim.fusion must be \"elementwise\", \"row\", \"column\", \"permute\" or \"dot\"");
  MlirAttribute l = ttOpAttr(f, "tile.launch");
  if (!mlirAttributeIsNull(l))
    launchOf(v, f, l);
  MlirAttribute w = ttOpAttr(f, "tile.when");
  if (!mlirAttributeIsNull(w) && !bucketOf(w, NULL, NULL)) {
    FAIL(f, "tile.when must be array<i64: lo, hi> (a bucket of M: 1 <= lo <= hi < 2^31, or "
            "hi 0: every M from lo on)");
    w = (MlirAttribute){NULL};
  }
  MlirAttribute of = ttOpAttr(f, "tile.variant_of");
  if (!mlirAttributeIsNull(of)) {
    MlirOperation o = {NULL};
    char buf[256] = "";
    if (mlirAttributeIsAFlatSymbolRef(of)) {
      MlirStringRef s = mlirFlatSymbolRefAttrGetValue(of);
      snprintf(buf, sizeof buf, "%.*s", (int)s.length, s.data);
      o = ttModuleIndexSymbol(&v->index, buf);
    }
    if (mlirOperationIsNull(o) || mlirAttributeIsNull(ttOpAttr(o, "prim.fusion")) ||
        mlirAttributeIsNull(w))
      FAIL(f, "tile.variant_of must name a fused function, on a function with tile.when");
  }
}

static bool visit(MlirOperation op, void *data) {
  Verify *v = data;
  if (ttOpHasPrefix(op, "tile.")) {
    tileOp(v, op);
  } else if (ttOpIs(op, "func.func")) {
    bool kernel = !mlirAttributeIsNull(ttOpAttr(op, "tile.kernel"));
    bool fused = !mlirAttributeIsNull(ttOpAttr(op, "prim.fusion"));
    if (kernel && fused)
      FAIL(op, "a function is a tile.kernel or a prim.fusion, not both");
    else if (kernel)
      kernelFunc(v, op);
    else if (fused)
      fusedFunc(v, op);
    else if (!mlirAttributeIsNull(ttOpAttr(op, "tile.launch")))
      FAIL(op, "tile.launch belongs on a fused function (prim.fusion)");
  }
  return true;
}

/* One bucket of a dynamic M: the fused function it belongs to (itself or the one its
 * tile.variant_of names), its range and the function that carries it. */
typedef struct {
  MlirStringRef owner;
  int64_t lo, hi; /* hi 0: open */
  MlirOperation at;
} Bucket;

static int ownerOrder(const Bucket *x, const Bucket *y) {
  size_t n = x->owner.length < y->owner.length ? x->owner.length : y->owner.length;
  int c = memcmp(x->owner.data, y->owner.data, n);
  return c ? c : (x->owner.length > y->owner.length) - (x->owner.length < y->owner.length);
}

static int bucketOrder(const void *a, const void *b) {
  const Bucket *x = a, *y = b;
  int c = ownerOrder(x, y);
  return c ? c : (x->lo > y->lo) - (x->lo < y->lo);
}

/* The buckets of each fused function with tile.when and of its variants cover every M >= 1
 * exactly once (the runtime launches each bucket whose range holds M: a gap runs no
 * kernel, an overlap two). One pass over the module's functions, then a sort by owner. */
static void bucketCover(Verify *v, MlirOperation root) {
  Bucket *b = NULL;
  size_t n = 0, cap = 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(root, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    MlirAttribute w = ttOpAttr(f, "tile.when"), of = ttOpAttr(f, "tile.variant_of");
    MlirAttribute name = ttOpAttr(f, "sym_name");
    Bucket e = {.at = f};
    if (!ttOpIs(f, "func.func") || mlirAttributeIsNull(w) || !bucketOf(w, &e.lo, &e.hi) ||
        !mlirAttributeIsAString(name) ||
        (!mlirAttributeIsNull(of) && !mlirAttributeIsAFlatSymbolRef(of)))
      continue; /* (fusedFunc reports these) */
    e.owner = mlirAttributeIsNull(of) ? mlirStringAttrGetValue(name)
                                      : mlirFlatSymbolRefAttrGetValue(of);
    if (n == cap)
      b = ttRealloc(b, (cap = cap ? 2 * cap : 16) * sizeof *b);
    b[n++] = e;
  }
  if (n)
    qsort(b, n, sizeof *b, bucketOrder);
  for (size_t i = 0; i < n; i++) {
    bool first = i == 0 || ownerOrder(&b[i - 1], &b[i]) != 0;
    bool last = i + 1 == n || ownerOrder(&b[i], &b[i + 1]) != 0;
    int64_t want = first ? 1 : b[i - 1].hi + 1;
    const char *why = NULL;
    if (!first && b[i - 1].hi == 0)
      why = "follows an open bucket (hi 0)";
    else if (b[i].lo != want)
      why = b[i].lo > want ? "leaves a gap before it" : "overlaps the one before it";
    else if (last && b[i].hi != 0)
      why = "is the last but not open (hi 0): larger M run no kernel";
    if (why)
      FAIL(b[i].at, "tile.when [%lld, %lld] %s: the buckets of @%.*s and its variants must "
                    "cover every M >= 1 once",
           (long long)b[i].lo, (long long)b[i].hi, why, (int)b[i].owner.length,
           b[i].owner.data);
  }
  free(b);
}

bool ttTileVerify(MlirOperation root) {
  Verify v = {.module = mlirModuleFromOperation(root), .ok = true};
  ttModuleIndexInit(&v.index, v.module);
  ttWalk(root, visit, &v);
  bucketCover(&v, root);
  ttModuleIndexDestroy(&v.index);
  ttStrIndexDestroy(&v.gpuFuncs);
  free(v.gpuOps);
  return v.ok;
}
