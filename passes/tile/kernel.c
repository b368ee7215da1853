/* kernel.c - the --tile pass: give each fused function a tile kernel (the pass's driver).
 *
 * An elementwise group computes one value per element of its output; the kernel treats
 * the output as a flat array of n elements and gives each program `block-size` of them.
 * A row group gives each program whole rows; a dot group gives each program one tile of
 * C = A @ B. The pass is split over passes/tile/ (tile.h lists the files); this file holds
 * the walk over the module and the steps every kind shares.
 *
 * Algorithm, for each function with `prim.fusion = "elementwise"` (made by --fuse):
 *  1. Check the group: its outputs (several for elementwise and row groups, one for dot
 *     and column groups), static shapes, dtypes the lowering knows (f32, f16,
 *     bf16 and fp8 values; i1 for comparisons; i32 and i64 inputs used only as the index
 *     of an index_select or gather, loaded as integers for offsets). f16, bf16 and fp8
 *     compute in f32: an input is widened at its load, a result rounded at its store
 *     (fp8: E4M3FN and E5M2 as PyTorch rounds, --convert-tile-to-gpu's elementwise.c);
 *     a group that only moves data (moveOnly: an fp8 pad of a matmul's K) keeps fp8
 *     values as they are (Emit.rawFp8), bit for bit.
 *  2. Create `func.func @<name>_kernel` with attribute `tile.kernel`: one `!tile.ptr<T>`
 *     per argument of the fused function,
 *     one per output, then `%n: i32`, the number of output elements.
 *  3. Emit the index space: `offs = pid * block + range(0, block)`, `mask = offs < n`
 *     (rows.c).
 *  4. Emit the returned value at the offsets `offs` by recursion over its producers,
 *     memoized on (value, offsets) (emit.c).
 *  5. Store the result (rounded to the output dtype) with the mask; then move every load
 *     (and the index math it needs) ahead of the math, so all loads are in flight at once
 *     (rows.c, emit.c).
 *  6. Mark the fused function with `tile.launch = {kernel = @<name>_kernel, grid = [...],
 *     args = [...]}`: a call of it runs the kernel over cdiv(numel(%r0), block) programs
 *     with the pointers of the call's operands and result and then numel(%r0). The fused
 *     function stays: its prim ops say what the kernel computes (tt-translate hands them to
 *     the reference interpreter).
 * Row groups (`prim.fusion = "row"`) take the same steps over a row space (rows.c); column
 * groups (`prim.fusion = "column"`) over [outer, R, inner] with a loop over R (columns.c);
 * permute groups (`prim.fusion = "permute"`) over tiles of a transpose, exchanged through
 * shared memory (permute.c); dot
 * groups (`prim.fusion = "dot"`) their own steps 1-4 (dot.c) on a tile of the geometry
 * geometry.c chooses. This file: steps 1, 2 and 6 for every kind, and the pass entry.
 */
#include "tile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Step 1 for any value: a ranked tensor the i32 index math can address, static but for
 * its leading dimension (dynamic: `?`, its size only known at run time, where the runtime
 * checks the element count; kernels read it from their size arguments). */
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
  for (int64_t i = 1; i < r; i++)
    if (shape[i] < 0) {
      ttEmitError(at, "tile: only the leading dimension may be dynamic (%s has a dynamic "
                      "dimension %lld)",
                  what, (long long)i);
      return false;
    }
  int64_t inner = 1; /* the static part: bounded even where the leading dim is dynamic */
  for (int64_t i = 1; i < r && inner < ((int64_t)1 << 31); i++)
    inner *= shape[i];
  if (ttTensorNumel(t) >= ((int64_t)1 << 31) || inner >= ((int64_t)1 << 31)) {
    ttEmitError(at, "tile: %s has 2^31 or more elements (kernels index in i32)", what);
    return false;
  }
  return true;
}

/* Step 1 for an input or the result: a dtype the kernel can load or store (f32, f16, bf16,
 * f8E4M3FN, f8E5M2), and a shape; with indexOk, i32 and i64 too (an argmax/argmin result
 * of an elementwise or row kernel). */
static bool checkDtype(MlirOperation at, MlirType t, const char *what, bool indexOk) {
  const char *d = ttDtypeName(t);
  bool index = indexOk && (!strcmp(d, "i32") || !strcmp(d, "i64"));
  if (strcmp(d, "f32") && strcmp(d, "f16") && strcmp(d, "bf16") && !index && !ttTypeIsFp8(t)) {
    ttEmitError(at, "tile: %s of dtype %s is not supported by the elementwise lowering "
                    "(f32, f16, bf16, f8E4M3FN, f8E5M2; i32 and i64 results of "
                    "argmax/argmin)",
                what, d);
    return false;
  }
  return checkShape(at, t, what);
}

bool tileCheckDtype(MlirOperation at, MlirType t, const char *what, bool indexOk) {
  return checkDtype(at, t, what, indexOk);
}

/* True when every op of the body only moves data (no arithmetic: fp8 values pass through
 * its loads and stores as they are, Emit.rawFp8). */
static bool moveOnly(MlirBlock body) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    switch (ttPrimKind(op)) {
    case TT_PRIM_BROADCAST:
    case TT_PRIM_RESHAPE:
    case TT_PRIM_TRANSPOSE:
    case TT_PRIM_SLICE:
    case TT_PRIM_CONCAT:
    case TT_PRIM_INDEX:
    case TT_PRIM_PAD:
      break;
    default:
      if (!mlirOperationEqual(op, mlirBlockGetTerminator(body)))
        return false;
    }
  }
  return true;
}

/* Step 1 for the values inside: shapes the index math can handle. */
static bool checkBody(MlirBlock body) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++) {
      MlirType t = mlirValueGetType(mlirOperationGetResult(op, i));
      if (!checkShape(op, t, "a value"))
        return false;
    }
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

/* Step 2: creates `func.func @<fusion>_kernel` (a tile.kernel of `warps` warps) before the
 * fusion, with one `!tile.ptr<T>` argument per input, one per output (the values `ret`
 * returns) and, when withSize, `%n: i32`. Its name goes to name[0..n). */
static MlirOperation kernelFunc(MlirOperation fusion, const MlirValue *inputs, intptr_t nin,
                                MlirOperation ret, bool withSize, int64_t warps, char *name,
                                size_t n) {
  MlirContext ctx = mlirOperationGetContext(fusion);
  MlirLocation loc = mlirOperationGetLocation(fusion);
  intptr_t nout = mlirOperationGetNumOperands(ret);
  intptr_t nargs = nin + nout + (withSize ? 1 : 0);
  MlirType *argTypes = ttAlloc(sizeof(MlirType) * (size_t)nargs);
  MlirLocation *argLocs = ttAlloc(sizeof(MlirLocation) * (size_t)nargs);
  for (intptr_t i = 0; i < nin; i++)
    argTypes[i] = ptrType(ctx, ttElementType(mlirValueGetType(inputs[i])));
  for (intptr_t k = 0; k < nout; k++)
    argTypes[nin + k] =
        ptrType(ctx, ttElementType(mlirValueGetType(mlirOperationGetOperand(ret, k))));
  if (withSize)
    argTypes[nin + nout] = ttI32(ctx);
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
void tileSetLaunch(MlirOperation fusion, const char *name, const char *gridX,
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

/* Step 1 for every kind: the fused function's body, one block returning *nout tensors. */
bool tileFusionResults(MlirOperation fusion, MlirBlock *fbody, int *nout) {
  *fbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(fusion, 0));
  if (mlirBlockIsNull(*fbody) || !mlirBlockIsNull(mlirBlockGetNextInRegion(*fbody))) {
    ttEmitError(fusion, "tile: a fused function must have a body of one block");
    return false;
  }
  MlirOperation ret = mlirBlockGetTerminator(*fbody);
  *nout = (int)mlirOperationGetNumOperands(ret);
  if (*nout < 1) {
    ttEmitError(fusion, "tile: a fused function must return one tensor or more");
    return false;
  }
  return true;
}

/* Step 1 for a dot or column fusion: the body, returning one tensor (of *outType). */
bool tileFusionBody(MlirOperation fusion, MlirBlock *fbody, MlirType *outType) {
  int nout;
  if (!tileFusionResults(fusion, fbody, &nout))
    return false;
  if (nout != 1) {
    ttEmitError(fusion, "tile: a dot or column fusion must return one tensor (several "
                        "outputs: elementwise and row fusions only)");
    return false;
  }
  *outType = mlirValueGetType(mlirOperationGetOperand(mlirBlockGetTerminator(*fbody), 0));
  return true;
}

void tileEraseDeadWidens(MlirBlock block) {
  MlirOperation op = mlirBlockGetFirstOperation(block);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (ttOpIs(op, "arith.extf") &&
        mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, 0))))
      mlirOperationDestroy(op);
    else
      for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); r++)
        for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
             !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
          tileEraseDeadWidens(b);
    op = next;
  }
}

bool tileFinishKernel(Emit *e, MlirOperation kfunc) {
  tileMemoFree(e);
  free(e->inputs);
  if (e->failed) {
    mlirOperationDestroy(kfunc);
    return false;
  }
  ttBuild(&e->b, "func.return", e->loc, 0, NULL, ttNoType(), 0, NULL);
  tileEraseDeadWidens(e->kernel);
  tileLoadsFirst(e->kernel);
  return true;
}

bool tileIsDynamic(MlirType t) {
  int64_t shape[TT_MAX_RANK], r = ttTensorShape(t, shape);
  for (int64_t i = 0; i < r && i < TT_MAX_RANK; i++)
    if (shape[i] < 0)
      return true;
  return false;
}

/* True when v is an i32 or i64 tensor used only as the index (operand 1) of index_select
 * or gather: an input the kernel loads as integers, for offsets. */
static bool isIndexInput(MlirValue v) {
  const char *d = ttDtypeName(mlirValueGetType(v));
  if (strcmp(d, "i32") && strcmp(d, "i64"))
    return false;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (ttPrimKind(mlirOpOperandGetOwner(u)) != TT_PRIM_INDEX ||
        mlirOpOperandGetOperandNumber(u) != 1)
      return false;
  return true;
}

/* Step 1's dtype and shape checks of the inputs, the body and the nout results. */
static bool checkValues(MlirOperation fusion, MlirBlock fbody, int nout, bool indexOk) {
  MlirOperation ret = mlirBlockGetTerminator(fbody);
  bool ok = true;
  for (int k = 0; k < nout && ok; k++)
    ok = checkDtype(fusion, mlirValueGetType(mlirOperationGetOperand(ret, k)), "the result",
                    indexOk);
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(fbody) && ok; i++) {
    MlirValue a = mlirBlockGetArgument(fbody, i);
    ok = isIndexInput(a) ? checkShape(fusion, mlirValueGetType(a), "an index input")
                         : checkDtype(fusion, mlirValueGetType(a), "an input", false);
  }
  for (int k = 0; k < nout && ok && nout > 1; k++) { /* each output stored once */
    MlirValue v = mlirOperationGetOperand(ret, k);
    ok = mlirValueIsAOpResult(v) &&
         mlirBlockEqual(mlirOperationGetBlock(mlirOpResultGetOwner(v)), fbody);
    for (int j = 0; j < k && ok; j++)
      ok = !mlirValueEqual(mlirOperationGetOperand(ret, j), v);
    if (!ok)
      ttEmitError(fusion, "tile: result %d of a fused function with several results must be "
                          "a value computed in it, and no other result",
                  k);
  }
  return ok && checkBody(fbody);
}

bool tileCheckFusion(MlirOperation fusion, MlirBlock *fbody, MlirType *outType) {
  return tileFusionBody(fusion, fbody, outType) && checkValues(fusion, *fbody, 1, false);
}

bool tileCheckOutputs(MlirOperation fusion, MlirBlock *fbody, int *nout) {
  return tileFusionResults(fusion, fbody, nout) && checkValues(fusion, *fbody, *nout, true);
}

/* Step 2 for every kind: the kernel function (kernelFunc) and an emitter e at its start,
 * over tiles of `block` elements; e->inputs is malloc'd (the caller frees it). */
MlirOperation tileStartKernel(MlirOperation fusion, MlirBlock fbody, bool withSize,
                              int64_t warps, int64_t block, Emit *e, char *name, size_t n) {
  intptr_t nin = mlirBlockGetNumArguments(fbody);
  MlirOperation ret = mlirBlockGetTerminator(fbody);
  *e = (Emit){0};
  e->ctx = mlirOperationGetContext(fusion);
  e->loc = mlirOperationGetLocation(fusion);
  e->inputs = ttAlloc(sizeof(MlirValue) * (size_t)(nin + 1));
  for (intptr_t i = 0; i < nin; i++)
    e->inputs[i] = mlirBlockGetArgument(fbody, i);
  e->nin = (int)nin;
  MlirOperation kfunc = kernelFunc(fusion, e->inputs, nin, ret, withSize, warps, name, n);
  e->kernel = mlirRegionGetFirstBlock(mlirOperationGetRegion(kfunc, 0));
  e->b = ttBuilderAtEnd(e->kernel);
  e->block = block;
  e->rawFp8 = moveOnly(fbody);
  e->halfOutput = true; /* every output is stored as f16/bf16/fp8 */
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(ret); k++) {
    MlirType oelem = ttElementType(mlirValueGetType(mlirOperationGetOperand(ret, k)));
    e->halfOutput &= ttTypeIsHalf(oelem) || ttTypeIsFp8(oelem);
  }
  return kfunc;
}

bool ttTilePass(MlirModule module, const TtPassOptions *opts) {
  /* 0: chosen from the shape */
  int64_t block = opts->v[TT_TILE_BLOCK_SIZE], warps = opts->v[TT_TILE_NUM_WARPS];
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
    if (strcmp(kind, "column") == 0) {
      if (!tileColumnFusion(op, block, warps))
        return false;
      continue;
    }
    if (strcmp(kind, "permute") == 0) {
      if (!tilePermuteFusion(op, warps))
        return false;
      continue;
    }
    if (strcmp(kind, "elementwise") != 0 && strcmp(kind, "row") != 0) {
      ttEmitError(op, "tile: fusion kind '%s' is not supported yet", kind);
      return false;
    }
    if (!tileFusion(op, tileGroupGeometry(op, strcmp(kind, "row") == 0, opts)))
      return false;
  }
  return true;
}
