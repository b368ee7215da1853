/* common.c - the shared core of --convert-tile-to-gpu: the table of lowered values, the
 * op builders every op family uses, and the kernel's shared-memory buffers.
 *
 * A tile value lowers to `Lowered` parts (lower.h): REPS vectors of the flat layout,
 * mma fragments, or a place in shared memory. tgDefine records one, tgLookup finds it
 * (the table is searched from its newest entry: a loop body's values shadow nothing, as
 * every value is defined once). Shared memory: step 5's scratch (tgScratchSmem) sits past
 * the live rings of step 6 in one buffer per kernel, whose size kernel.c fixes at the end;
 * mbarriers and the reduction scratch are globals of their own (tgSharedGlobal).
 */
#include "lower.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t tgGcd64(int64_t a, int64_t b) {
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a < 0 ? -a : a;
}

int64_t tgMaxI(int64_t a, int64_t b) { return a > b ? a : b; }

/* The largest power of two dividing v (BIG_DIV for 0). */
int64_t tgPow2Div(int64_t v) {
  if (v == 0)
    return BIG_DIV;
  int64_t d = 1;
  while (!(v & d) && d < BIG_DIV)
    d <<= 1;
  return d;
}

/* The last definition of v (tgDefine), through the value -> index hash. */
Lowered *tgLookup(Lower *l, MlirValue v) {
  int i = ttPtrIndexFind(&l->valIndex, v.ptr);
  return i < 0 ? NULL : l->vals[i];
}

void tgOperands(Lower *l, MlirOperation op, int n, Lowered **out) {
  for (int i = 0; i < n; i++)
    out[i] = i < mlirOperationGetNumOperands(op) ? tgLookup(l, mlirOperationGetOperand(op, i))
                                                 : NULL;
}

bool tgIsTile(MlirValue v) { return mlirTypeIsARankedTensor(mlirValueGetType(v)); }

/* Parts of value v in the flat layout: numel / (VEC * T) for a tile, 1 for a scalar. */
static int repsOf(Lower *l, MlirValue v) {
  return tgIsTile(v) ? (int)(ttTensorNumel(mlirValueGetType(v)) / (l->VEC * l->T)) : 1;
}

Lowered *tgDefine(Lower *l, MlirValue key) {
  if (l->nvals == l->capvals) {
    l->capvals = l->capvals ? 2 * l->capvals : 64;
    l->vals = ttRealloc(l->vals, sizeof(Lowered *) * (size_t)l->capvals);
  }
  Lowered *x = ttAlloc(sizeof(Lowered));
  if (key.ptr) /* (a null key is found by no lookup) */
    ttPtrIndexPut(&l->valIndex, key.ptr, l->nvals);
  l->vals[l->nvals++] = x;
  x->key = key;
  x->n = repsOf(l, key);
  x->axis = (Axis){1, 1, 1, 0};
  if (mlirValueIsAOpResult(key))
    x->def = mlirOpResultGetOwner(key);
  return x;
}

MlirType tgVecOf(Lower *l, MlirType elem) {
  return mlirVectorTypeGet(1, &l->VEC, elem);
}

MlirValue tgBuild(Lower *l, const char *name, intptr_t n, const MlirValue *ops,
                       MlirType t, intptr_t na, const MlirNamedAttribute *attrs) {
  return ttBuild(&l->b, name, l->loc, n, ops, t, na, attrs);
}


MlirValue tgExtract(Lower *l, MlirValue vec, int64_t lane) {
  MlirNamedAttribute pos = ttNamedAttr(l->ctx, "static_position",
                                       mlirDenseI64ArrayGet(l->ctx, 1, &lane));
  MlirType elem = mlirShapedTypeGetElementType(mlirValueGetType(vec));
  return tgBuild(l, "vector.extract", 1, &vec, elem, 1, &pos);
}

MlirValue tgInsert(Lower *l, MlirValue scalar, MlirValue vec, int64_t lane) {
  MlirNamedAttribute pos = ttNamedAttr(l->ctx, "static_position",
                                       mlirDenseI64ArrayGet(l->ctx, 1, &lane));
  MlirValue ops[2] = {scalar, vec};
  return tgBuild(l, "vector.insert", 2, ops, mlirValueGetType(vec), 1, &pos);
}

/* `gpu.<name> x` as an i32. */
MlirValue tgGpuIndex(Lower *l, const char *name, int64_t axis) {
  const char *dims[3] = {"#gpu<dim x>", "#gpu<dim y>", "#gpu<dim z>"};
  MlirNamedAttribute d = ttNamedAttr(
      l->ctx, "dimension", mlirAttributeParseGet(l->ctx, ttStrRef(dims[axis % 3])));
  MlirValue idx = tgBuild(l, name, 0, NULL, mlirIndexTypeGet(l->ctx), 1, &d);
  return tgBuild(l, "arith.index_cast", 1, &idx, ttI32(l->ctx), 0, NULL);
}

/* `ptr + off` elements of type elem, as an llvm.getelementptr. */

/* What the llvm dialect holds a value of type t as: t, with fp8 elements (which LLVM has
 * no type for) as i8 - the type arith-to-llvm gives them too. */
static MlirType llvmStorage(Lower *l, MlirType t) {
  if (!ttTypeIsFp8(t))
    return t;
  MlirType i8 = mlirIntegerTypeGet(l->ctx, 8);
  if (!mlirTypeIsAVector(t))
    return i8;
  int64_t n = mlirShapedTypeGetDimSize(t, 0); /* VEC lanes, or a shorter run's */
  return mlirVectorTypeGet(1, &n, i8);
}

/* llvm.load of a `t` (alignment `align` bytes, 0: natural); fp8 loads its storage type
 * and casts back. */
MlirValue tgLoadPtr(Lower *l, MlirValue p, MlirType t, int64_t align) {
  MlirType st = llvmStorage(l, t);
  MlirNamedAttribute a = tgAlignAttr(l, align);
  MlirValue v = tgBuild(l, "llvm.load", 1, &p, st, align ? 1 : 0, &a);
  return mlirTypeEqual(st, t) ? v : tgBuild(l, "arith.bitcast", 1, &v, t, 0, NULL);
}

/* llvm.store of v at p (align: its alignment attribute, or NULL for the natural one); fp8
 * stores its storage type. */
void tgStore(Lower *l, MlirValue v, MlirValue p, const MlirNamedAttribute *align) {
  MlirType t = mlirValueGetType(v), st = llvmStorage(l, t);
  if (!mlirTypeEqual(st, t))
    v = tgBuild(l, "arith.bitcast", 1, &v, st, 0, NULL);
  tgBuild(l, "llvm.store", 2, (MlirValue[]){v, p}, ttNoType(), align ? 1 : 0, align);
}

/* llvm.mlir.poison of type t; fp8 as its storage's poison, cast back (LLVM has no fp8
 * type for the llvm dialect's constants). */
MlirValue tgPoison(Lower *l, MlirType t) {
  MlirType st = llvmStorage(l, t);
  MlirValue v = tgBuild(l, "llvm.mlir.poison", 0, NULL, st, 0, NULL);
  return mlirTypeEqual(st, t) ? v : tgBuild(l, "arith.bitcast", 1, &v, t, 0, NULL);
}

MlirValue tgGep(Lower *l, MlirValue ptr, MlirValue off, MlirType elem) {
  int32_t dyn = INT32_MIN;
  MlirNamedAttribute attrs[2] = {
      ttNamedAttr(l->ctx, "elem_type", mlirTypeAttrGet(llvmStorage(l, elem))),
      ttNamedAttr(l->ctx, "rawConstantIndices", mlirDenseI32ArrayGet(l->ctx, 1, &dyn)),
  };
  MlirValue ops[2] = {ptr, off};
  return tgBuild(l, "llvm.getelementptr", 2, ops, mlirValueGetType(ptr), 2, attrs);
}

MlirNamedAttribute tgAlignAttr(Lower *l, int64_t bytes) {
  return ttNamedAttr(l->ctx, "alignment",
                     mlirIntegerAttrGet(mlirIntegerTypeGet(l->ctx, 64), bytes));
}

/* Builds `scf.if cond -> (type)` with empty then/else blocks; returns the op, whose
 * blocks the caller fills (each must end in scf.yield). */
MlirOperation tgBuildIf(Lower *l, MlirValue cond, MlirType result) {
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

MlirBlock tgIfBlock(MlirOperation ifOp, int which) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(ifOp, which));
}

void tgYield(Lower *l, MlirBlock blk, MlirValue v) {
  TtBuilder saved = l->b;
  l->b = ttBuilderAtEnd(blk);
  tgBuild(l, "scf.yield", mlirValueIsNull(v) ? 0 : 1, &v, ttNoType(), 0, NULL);
  l->b = saved;
}

/* Makes `llvm.mlir.global internal @name : !llvm.array<bytes x i8>` in shared memory
 * (address space 3, `align`-byte aligned) in the gpu.module, unless it exists; external
 * with 0 bytes: the kernel's dynamic shared memory. */
void tgSharedGlobal(Lower *l, const char *name, int64_t bytes, int64_t align,
                         bool external) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(l->gpuModule, 0));
  if (ttStrIndexFind(l->gpuNames, ttStrRef(name)) >= 0)
    return;
  char type[64];
  snprintf(type, sizeof type, "!llvm.array<%lld x i8>", (long long)bytes);
  MlirNamedAttribute attrs[5] = {
      ttNamedAttr(l->ctx, "sym_name", ttStrAttr(l->ctx, name)),
      ttNamedAttr(l->ctx, "global_type", mlirTypeAttrGet(mlirTypeParseGet(l->ctx, ttStrRef(type)))),
      ttNamedAttr(l->ctx, "linkage", mlirAttributeParseGet(l->ctx, ttStrRef(
                                         external ? "#llvm.linkage<external>" : "#llvm.linkage<internal>"))),
      ttNamedAttr(l->ctx, "addr_space", ttIntAttr(l->ctx, 3, ttI32(l->ctx))),
      tgAlignAttr(l, align),
  };
  MlirRegion init = mlirRegionCreate();
  MlirOperation g = ttOpCreate("llvm.mlir.global", l->loc, 0, NULL, 0, NULL, 5, attrs, 1, &init);
  mlirBlockInsertOwnedOperation(body, 0, g);
  ttStrIndexAdd(l->gpuNames, mlirStringAttrGetValue(ttOpAttr(g, "sym_name")), 0);
}

/* The address of shared-memory global `name`. */
MlirValue tgSharedAddress(Lower *l, const char *name) {
  MlirNamedAttribute ref =
      ttNamedAttr(l->ctx, "global_name", mlirFlatSymbolRefAttrGet(l->ctx, ttStrRef(name)));
  return tgBuild(l, "llvm.mlir.addressof", 0, NULL,
               mlirTypeParseGet(l->ctx, ttStrRef("!llvm.ptr<3>")), 1, &ref);
}

MlirValue tgConstI32(Lower *l, int64_t v) { return ttConstInt(&l->b, l->loc, ttI32(l->ctx), v); }

/* i32 scalar `a name b` (b a constant). */
MlirValue tgArithC(Lower *l, const char *name, MlirValue a, int64_t b) {
  return tgBuild(l, name, 2, (MlirValue[]){a, tgConstI32(l, b)}, ttI32(l->ctx), 0, NULL);
}

MlirValue tgArith(Lower *l, const char *name, MlirValue a, MlirValue b) {
  return tgBuild(l, name, 2, (MlirValue[]){a, b}, ttI32(l->ctx), 0, NULL);
}

/* The start of the kernel's shared-memory buffer (dynamic: computed at the kernel's entry). */
MlirValue tgSmemBase(Lower *l) {
  return l->dynamic ? l->base : tgSharedAddress(l, l->smemName);
}

/* A pointer to `bytes` of scratch in the kernel's shared-memory buffer (step 5), past the
 * live rings of step 6, `align`-byte aligned within the buffer. */
MlirValue tgScratchSmem(Lower *l, int64_t bytes, int64_t align) {
  int64_t at = l->ringsDead ? 0 : (l->ringTop + align - 1) / align * align;
  if (at + bytes > l->smemBytes)
    l->smemBytes = at + bytes;
  MlirValue base = tgSmemBase(l);
  return at ? tgGep(l, base, tgConstI32(l, at), mlirIntegerTypeGet(l->ctx, 8)) : base;
}

/* A barrier of the block's threads; in a warp-specialised kernel's consumer region, of
 * the T consumer threads only (named barrier 1: the producer warp never reaches it), as
 * the intrinsic llvm.nvvm.barrier.cta.sync.aligned.count(1, T) (`bar.sync 1, T`): MLIR 22's
 * nvvm.barrier with a thread count prints a form whose trailing location its parser
 * takes for the reduction attribute, so tt-opt could not read its own output. */
void tgFenceProxyAsync(Lower *l) {
  MlirNamedAttribute fence[2] = {
      ttNamedAttr(l->ctx, "kind", mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.proxy_kind<async.shared>"))),
      ttNamedAttr(l->ctx, "space", mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.shared_space<cta>"))),
  };
  tgBuild(l, "nvvm.fence.proxy", 0, NULL, ttNoType(), 2, fence);
}

/* (col / bc) rows bc + row bc + ((col % bc / epc) ^ (row % 8)) epc [+ col % epc], bc = 128
 * / eb elements a block row, epc = 16 / eb a chunk; eb 1 or 2 */
MlirValue tgSwizzledOffset(Lower *l, MlirValue row, MlirValue col, int64_t rows, int64_t eb,
                           bool inChunk) {
  int64_t cs = eb == 1 ? 4 : 3, bs = cs + 3, bc = 128 / eb, epc = 16 / eb; /* log2s */
  MlirValue c8 = tgArithC(l, "arith.andi", tgArithC(l, "arith.shrui", col, cs), 7);
  MlirValue chunk = tgArith(l, "arith.xori", c8, tgArithC(l, "arith.andi", row, 7));
  MlirValue off = tgArith(
      l, "arith.addi", tgArithC(l, "arith.muli", tgArithC(l, "arith.shrui", col, bs), rows * bc),
      tgArith(l, "arith.addi", tgArithC(l, "arith.muli", row, bc),
              tgArithC(l, "arith.muli", chunk, epc)));
  return inChunk ? tgArith(l, "arith.addi", off, tgArithC(l, "arith.andi", col, epc - 1)) : off;
}

void tgBarrier(Lower *l) {
  if (!l->consumers) {
    tgBuild(l, "gpu.barrier", 0, NULL, ttNoType(), 0, NULL);
    return;
  }
  MlirNamedAttribute attrs[3] = {
      ttNamedAttr(l->ctx, "intrin", ttStrAttr(l->ctx, "llvm.nvvm.barrier.cta.sync.aligned.count")),
      ttNamedAttr(l->ctx, "op_bundle_sizes", mlirDenseI32ArrayGet(l->ctx, 0, NULL)),
      ttNamedAttr(l->ctx, "operandSegmentSizes",
                  mlirDenseI32ArrayGet(l->ctx, 2, (const int32_t[]){2, 0})),
  };
  tgBuild(l, "llvm.call_intrinsic", 2, (MlirValue[]){tgConstI32(l, 1), tgConstI32(l, l->T)},
          ttNoType(), 3, attrs);
}

/* The row and column of the first element of thread run r in a flat tile of `cols`
 * columns: e = (r * T + tid) * VEC, row = e / cols, col = e % cols. */
void tgRunAt(Lower *l, int r, int64_t cols, MlirValue *row, MlirValue *col) {
  MlirValue e = tgArithC(l, "arith.addi", tgArithC(l, "arith.muli", l->tid, l->VEC), r * l->T * l->VEC);
  *row = tgArithC(l, "arith.divui", e, cols);
  *col = tgArithC(l, "arith.remui", e, cols);
}

/* Lanes at..at+1 of vector v as a 2-lane vector of type t. */
MlirValue tgSlice2(Lower *l, MlirValue v, int64_t at, MlirType t) {
  MlirType i64 = mlirIntegerTypeGet(l->ctx, 64);
  MlirAttribute offset = mlirIntegerAttrGet(i64, at), size = mlirIntegerAttrGet(i64, 2),
                stride = mlirIntegerAttrGet(i64, 1);
  MlirNamedAttribute attrs[3] = {
      ttNamedAttr(l->ctx, "offsets", mlirArrayAttrGet(l->ctx, 1, &offset)),
      ttNamedAttr(l->ctx, "sizes", mlirArrayAttrGet(l->ctx, 1, &size)),
      ttNamedAttr(l->ctx, "strides", mlirArrayAttrGet(l->ctx, 1, &stride)),
  };
  return tgBuild(l, "vector.extract_strided_slice", 1, &v, t, 3, attrs);
}

/* fp8 x (a vector of n lanes, or a scalar) widened to f16 of the same shape, exactly
 * (every E4M3 and E5M2 value is an f16; NaN stays NaN): cvt.rn.f16x2.{e4m3,e5m2}x2 (sm_89+)
 * on each pair of bytes, an odd last lane paired with a zero byte. */
MlirValue tgWidenFp8(Lower *l, MlirValue x, MlirType fp8) {
  MlirType i8 = mlirIntegerTypeGet(l->ctx, 8), f16 = mlirF16TypeGet(l->ctx);
  MlirType xt = mlirValueGetType(x);
  bool vec = mlirTypeIsAVector(xt);
  int64_t n = vec ? mlirShapedTypeGetDimSize(xt, 0) : 1, two = 2;
  MlirType pairI8 = mlirVectorTypeGet(1, &two, i8), pairF16 = mlirVectorTypeGet(1, &two, f16);
  MlirValue bytes = tgBuild(l, "arith.bitcast", 1, &x, vec ? mlirVectorTypeGet(1, &n, i8) : i8,
                            0, NULL);
  MlirValue out = vec ? tgBuild(l, "llvm.mlir.poison", 0, NULL, mlirVectorTypeGet(1, &n, f16), 0,
                                NULL)
                      : (MlirValue){NULL};
  MlirNamedAttribute kind = ttNamedAttr(l->ctx, "srcType", mlirTypeAttrGet(fp8));
  for (int64_t i = 0; i < n; i += 2) {
    MlirValue pair;
    if (i + 1 < n) {
      pair = tgSlice2(l, bytes, i, pairI8);
    } else { /* the last lane of an odd run, or a scalar: with a zero byte */
      MlirValue b = vec ? tgExtract(l, bytes, i) : bytes;
      pair = tgBuild(l, "llvm.mlir.poison", 0, NULL, pairI8, 0, NULL);
      pair = tgInsert(l, ttConstInt(&l->b, l->loc, i8, 0), tgInsert(l, b, pair, 0), 1);
    }
    MlirValue h = tgBuild(l, "nvvm.convert.f8x2.to.f16x2", 1, &pair, pairF16, 1, &kind);
    if (!vec)
      return tgExtract(l, h, 0);
    out = tgInsert(l, tgExtract(l, h, 0), out, i);
    if (i + 1 < n)
      out = tgInsert(l, tgExtract(l, h, 1), out, i + 1);
  }
  return out;
}

MlirValue tgExtractValue(Lower *l, MlirValue agg, int64_t i, MlirType t) {
  MlirNamedAttribute pos = ttNamedAttr(l->ctx, "position", mlirDenseI64ArrayGet(l->ctx, 1, &i));
  return tgBuild(l, "llvm.extractvalue", 1, &agg, t, 1, &pos);
}

/* Tile `key` ([rows][cols] of elem at element `base` of buf, row pitch ld) read from
 * shared memory into the flat layout. */
Lowered *tgReadFlat(Lower *l, MlirValue key, MlirValue buf, MlirValue base, int64_t rows,
                         int64_t cols, int64_t ld, MlirType elem) {
  Lowered *out = tgDefine(l, key);
  out->n = (int)(rows * cols / (l->VEC * l->T));
  MlirType vt = tgVecOf(l, elem);
  for (int r = 0; r < out->n; r++) {
    MlirValue row, col;
    tgRunAt(l, r, cols, &row, &col);
    MlirValue off = tgArith(l, "arith.addi", tgArithC(l, "arith.muli", row, ld), col);
    MlirValue p = tgGep(l, buf, tgArith(l, "arith.addi", base, off), elem);
    int64_t bytes = l->VEC * ttDtypeBytes(elem); /* a run's alignment, at most 16 */
    out->parts[r] = tgLoadPtr(l, p, vt, bytes < 16 ? bytes : 16);
  }
  return out;
}

/* An scf.if on "thread 0 (the producer warp's first thread in its region) and cond (may
 * be null)"; returns its then-block (ending in its scf.yield), for the ops that only that
 * thread runs. */
MlirBlock tgThread0(Lower *l, MlirValue cond) {
  MlirNamedAttribute eq = ttNamedAttr(l->ctx, "predicate",
                                      mlirIntegerAttrGet(mlirIntegerTypeGet(l->ctx, 64), 0));
  MlirValue is0 = tgBuild(l, "arith.cmpi", 2, (MlirValue[]){l->threadId, tgConstI32(l, l->leader)},
                        mlirIntegerTypeGet(l->ctx, 1), 1, &eq);
  if (!mlirValueIsNull(cond))
    is0 = tgBuild(l, "arith.andi", 2, (MlirValue[]){is0, cond}, mlirIntegerTypeGet(l->ctx, 1), 0, NULL);
  MlirOperation ifOp = tgBuildIf(l, is0, ttNoType());
  tgYield(l, tgIfBlock(ifOp, 0), (MlirValue){NULL});
  tgYield(l, tgIfBlock(ifOp, 1), (MlirValue){NULL});
  return tgIfBlock(ifOp, 0); /* build before its terminator */
}
